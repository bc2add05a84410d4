import { describe, expect, it } from 'vitest';
import { PostingBuffer, appendTriples, decodeChunk, encodeChunk, viewChunk } from './posting-codec.js';

function postings(triples: ReadonlyArray<[number, number, number]>): PostingBuffer {
  const buffer = new PostingBuffer();
  for (const [row, frequency, length] of triples) buffer.push(row, frequency, length);
  return buffer;
}

describe('posting chunks', () => {
  it('carry the largest frequency and the shortest length of their postings', () => {
    const chunk = viewChunk(encodeChunk(postings([[3, 1, 12], [7, 4, 30], [9, 2, 5], [11, 1, 8]]), 1, 4));
    expect(chunk.count).toBe(3);
    expect([...chunk.rows]).toEqual([7, 9, 11]);
    expect([...chunk.frequencies]).toEqual([4, 2, 1]);
    expect([...chunk.lengths]).toEqual([30, 5, 8]);
    expect(chunk.largestFrequency).toBe(4);
    expect(chunk.shortestLength).toBe(5);
  });

  it('read chunks written without the summary (older stores) and compute it', () => {
    // count | rows | frequencies | lengths, as the first format wrote them.
    const legacy = Buffer.from(new Uint32Array([2, 10, 20, 3, 1, 9, 14]).buffer);
    const chunk = viewChunk(legacy);
    expect([...chunk.rows]).toEqual([10, 20]);
    expect(chunk.largestFrequency).toBe(3);
    expect(chunk.shortestLength).toBe(9);
    const decoded = new PostingBuffer();
    expect(decodeChunk(legacy, decoded)).toBe(2);
    const rewritten = viewChunk(encodeChunk(decoded));
    expect([...rewritten.lengths]).toEqual([9, 14]);
    expect(rewritten.largestFrequency).toBe(3);
    expect(rewritten.shortestLength).toBe(9);
  });

  it('read as views at any byte offset', () => {
    const encoded = encodeChunk(postings([[1, 2, 3]]));
    const shifted = new Uint8Array(encoded.byteLength + 1);
    shifted.set(encoded, 1);
    const chunk = viewChunk(shifted.subarray(1));
    expect([...chunk.rows, chunk.largestFrequency, chunk.shortestLength]).toEqual([1, 2, 3]);
  });

  it('append triples to a chunk (with or without a summary) as if encoded at once', () => {
    const triples = [20, 1, 7, 21, 3, 40, 25, 1, 2];
    const whole = encodeChunk(postings([[10, 2, 9], [11, 1, 4], [21, 3, 40], [25, 1, 2]]));
    const previous = encodeChunk(postings([[10, 2, 9], [11, 1, 4]]));
    expect(Buffer.compare(appendTriples(previous, triples, 1, 3), whole)).toBe(0);
    const legacy = Buffer.from(new Uint32Array([2, 10, 11, 2, 1, 9, 4]).buffer);
    expect(Buffer.compare(appendTriples(legacy, triples, 1, 3), whole)).toBe(0);
    expect(Buffer.compare(appendTriples(undefined, triples, 0, 1), encodeChunk(postings([[20, 1, 7]])))).toBe(0);
  });
});
