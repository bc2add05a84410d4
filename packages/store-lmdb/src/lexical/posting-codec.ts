/**
 * Posting chunks: a term's postings (row, term frequency, document length) for one tenant and
 * kind, in increasing row order, as little-endian uint32 columns —
 * `count | rows[count] | frequencies[count] | lengths[count] | largest frequency | shortest length`.
 * Fixed width costs a few bytes more than varints but needs no decoding: a query reads a chunk as
 * three typed-array views. Carrying the length in the posting lets a query score a document
 * without any other read; the two summary words bound every contribution in the chunk without
 * reading its postings. Chunks written before the summary existed end after the lengths (their
 * size tells them apart; readers compute the summary for them), and readers that predate it read
 * only `count` postings, so both kinds of chunk can sit in one store.
 */

/** Most postings one chunk holds; appends fill the last chunk, then start a new one. */
export const chunkCapacity = 1024;

/** Postings, growable (for writing). */
export class PostingBuffer {
  rows: Uint32Array;
  frequencies: Uint32Array;
  lengths: Uint32Array;
  size = 0;

  constructor(capacity = 4) {
    this.rows = new Uint32Array(capacity);
    this.frequencies = new Uint32Array(capacity);
    this.lengths = new Uint32Array(capacity);
  }

  /** Empties the buffer (keeps its memory). */
  clear(): void {
    this.size = 0;
  }

  /** Appends one posting. */
  push(row: number, frequency: number, length: number): void {
    if (this.size === this.rows.length) this.grow(Math.max(4, this.size * 2));
    this.rows[this.size] = row;
    this.frequencies[this.size] = frequency;
    this.lengths[this.size] = length;
    this.size += 1;
  }

  private grow(capacity: number): void {
    const grow = (from: Uint32Array) => {
      const to = new Uint32Array(capacity);
      to.set(from.subarray(0, this.size));
      return to;
    };
    this.rows = grow(this.rows);
    this.frequencies = grow(this.frequencies);
    this.lengths = grow(this.lengths);
  }
}

/** A chunk read as column views (no copy when the bytes are aligned). */
export interface ChunkView {
  /** Postings in the chunk. */
  count: number;
  /** Rows, increasing. */
  rows: Uint32Array;
  /** Term frequencies. */
  frequencies: Uint32Array;
  /** Document lengths. */
  lengths: Uint32Array;
  /** Largest term frequency in the chunk. */
  largestFrequency: number;
  /** Shortest document length in the chunk. */
  shortestLength: number;
}

/** Encodes postings `[from, to)` of the buffer (rows increasing). */
export function encodeChunk(postings: PostingBuffer, from = 0, to = postings.size): Buffer {
  const count = to - from;
  const words = new Uint32Array(3 + 3 * count);
  words[0] = count;
  words.set(postings.rows.subarray(from, to), 1);
  words.set(postings.frequencies.subarray(from, to), 1 + count);
  words.set(postings.lengths.subarray(from, to), 1 + 2 * count);
  const [largest, shortest] = summarize(postings.frequencies.subarray(from, to), postings.lengths.subarray(from, to));
  words[1 + 3 * count] = largest;
  words[2 + 3 * count] = shortest;
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}

/**
 * Encodes a chunk holding the postings of `previous` (an encoded chunk, or none) followed by
 * postings `[from, to)` of flat `(row, frequency, length)` triples (rows increasing, after
 * `previous`'s). `previous` is read whole before this returns.
 */
export function appendTriples(previous: Uint8Array | undefined, triples: ReadonlyArray<number>, from: number, to: number): Buffer {
  const before = previous === undefined ? 0 : chunkSize(previous);
  const count = before + to - from;
  const words = new Uint32Array(3 + 3 * count);
  words[0] = count;
  if (previous !== undefined && before > 0) {
    const bytes = new Uint8Array(words.buffer);
    for (let column = 0; column < 3; column++) bytes.set(previous.subarray(4 + column * before * 4, 4 + (column + 1) * before * 4), 4 + column * count * 4);
  }
  for (let index = from, at = 1 + before; index < to; index++, at++) {
    words[at] = triples[3 * index] as number;
    words[at + count] = triples[3 * index + 1] as number;
    words[at + 2 * count] = triples[3 * index + 2] as number;
  }
  const [largest, shortest] = summarize(words.subarray(1 + count, 1 + 2 * count), words.subarray(1 + 2 * count, 1 + 3 * count));
  words[1 + 3 * count] = largest;
  words[2 + 3 * count] = shortest;
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}

/** Views an encoded chunk as columns. */
export function viewChunk(chunk: Uint8Array): ChunkView {
  const aligned = chunk.byteOffset % 4 === 0 ? chunk : new Uint8Array(chunk);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  const count = words[0] as number;
  const frequencies = words.subarray(1 + count, 1 + 2 * count);
  const lengths = words.subarray(1 + 2 * count, 1 + 3 * count);
  const [largestFrequency, shortestLength] = words.length >= 3 + 3 * count ? [words[1 + 3 * count] as number, words[2 + 3 * count] as number] : summarize(frequencies, lengths);
  return { count, rows: words.subarray(1, 1 + count), frequencies, lengths, largestFrequency, shortestLength };
}

/** Header of an encoded chunk: its posting count and summary (`undefined` for a chunk written without one). */
export function chunkHeader(chunk: Uint8Array): { count: number; largestFrequency: number; shortestLength: number } | { count: number; largestFrequency: undefined; shortestLength: undefined } {
  const word = (index: number) => ((chunk[index * 4] as number) | ((chunk[index * 4 + 1] as number) << 8) | ((chunk[index * 4 + 2] as number) << 16) | ((chunk[index * 4 + 3] as number) << 24)) >>> 0;
  const count = word(0);
  if (chunk.byteLength < 12 + 12 * count) return { count, largestFrequency: undefined, shortestLength: undefined };
  return { count, largestFrequency: word(1 + 3 * count), shortestLength: word(2 + 3 * count) };
}

/** Copies the `count` postings of an encoded chunk into columns at `offset` (any byte alignment). */
export function copyChunk(chunk: Uint8Array, count: number, columns: { rows: Uint32Array; frequencies: Uint32Array; lengths: Uint32Array }, offset: number): void {
  const bytes = count * 4;
  for (const [index, column] of [columns.rows, columns.frequencies, columns.lengths].entries()) {
    new Uint8Array(column.buffer, column.byteOffset + offset * 4, bytes).set(chunk.subarray(4 + index * bytes, 4 + (index + 1) * bytes));
  }
}

/** Largest frequency and shortest length of some postings (0 and 2³² − 1 when there are none). */
export function summarize(frequencies: Uint32Array, lengths: Uint32Array): [number, number] {
  let largest = 0;
  let shortest = 0xffffffff;
  for (let index = 0; index < frequencies.length; index++) {
    const frequency = frequencies[index] as number;
    const length = lengths[index] as number;
    if (frequency > largest) largest = frequency;
    if (length < shortest) shortest = length;
  }
  return [largest, shortest];
}

/** Appends the postings of an encoded chunk to `out`; returns how many it held. */
export function decodeChunk(chunk: Uint8Array, out: PostingBuffer): number {
  const view = viewChunk(chunk);
  for (let index = 0; index < view.count; index++) out.push(view.rows[index] as number, view.frequencies[index] as number, view.lengths[index] as number);
  return view.count;
}

/** Number of postings in an encoded chunk (reads only its header). */
export function chunkSize(chunk: Uint8Array): number {
  return (chunk[0] as number) | ((chunk[1] as number) << 8) | ((chunk[2] as number) << 16) | (((chunk[3] as number) << 24) >>> 0);
}
