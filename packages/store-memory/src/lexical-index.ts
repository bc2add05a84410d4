import { analyze, bm25Score, isStopWord, termCounts, unitKinds, words, type Bm25Statistics, type Unit, type UnitKind } from '@engram/core';

/** Stem of each word `words()` produced (`''`: a stop word; `null`: a word to leave to `analyze`); bounded. */
const stems = new Map<string, string | null>();
const stemLimit = 100_000;

/**
 * `analyze(text)` with stems memoised per word: stemming is most of its cost and chat vocabulary
 * is small. `analyze` is `words`, stop words dropped, each stemmed — so a word that `words` gives
 * back unchanged analyses to its own stem alone; any other word sends the text to `analyze`.
 * One lookup per word: stop words are memoised too, as `''`.
 */
function analyzeText(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    let stem = stems.get(word);
    if (stem === undefined) {
      if (word.length === 0 || isStopWord(word)) stem = '';
      else {
        const again = words(word);
        const terms = analyze(word);
        stem = again.length === 1 && again[0] === word && terms.length === 1 && terms[0] !== '' ? (terms[0] as string) : null;
      }
      if (stems.size >= stemLimit) stems.clear();
      stems.set(word, stem);
    }
    if (stem === '') continue;
    if (stem === null) return analyze(text);
    out.push(stem);
  }
  return out;
}

/**
 * An empty slot list that holds any value from the start. A `[]` literal starts as an array of small
 * integers and changes kind at its first id; each tenant's first write then runs into optimised
 * code made for the other kind and throws it away.
 */
function emptySlots(): Array<string | undefined> {
  const slots: Array<string | undefined> = [undefined];
  slots.pop();
  return slots;
}

interface Document {
  kind: UnitKind;
  /** The text indexed. */
  text: string;
  counts: Map<string, number>;
  length: number;
  /** Position in `LexicalIndex.slots`. */
  slot: number;
}

/** The documents of one kind holding a term: their slots (removed ones linger until compaction). */
interface Posting {
  slots: number[];
  /** Slots still holding a document: the term's document frequency. */
  live: number;
}

/** Postings and BM25 statistics of one unit kind of one tenant. */
class KindPostings implements Bm25Statistics {
  documents = 0;
  totalLength = 0;
  /** term → the documents holding it. */
  readonly postings = new Map<string, Posting>();

  documentFrequency(term: string): number {
    return this.postings.get(term)?.live ?? 0;
  }
}

/**
 * The lexical index of one tenant: postings per (kind, term), so a query touches only the units
 * holding one of its terms, and statistics per kind, so scores follow core's `bm25Score` with
 * statistics per tenant and unit kind. Postings hold integer slots rather than ids (cheaper to
 * build); a removed document empties its slot, which is never reused, and slots are renumbered
 * once most of them are empty.
 */
export class LexicalIndex {
  private readonly kinds = new Map<UnitKind, KindPostings>();
  private readonly documents = new Map<string, Document>();
  /** Slot → unit id, `undefined` once removed. */
  private slots: Array<string | undefined> = emptySlots();
  private emptySlots = 0;

  /** Indexes (or re-indexes) a unit's text. */
  put(unit: Unit): void {
    const known = this.documents.get(unit.id);
    // A unit written again with the same text (a fact seen again, a topic that gained no title) keeps its postings.
    if (known !== undefined && known.kind === unit.kind && known.text === unit.text) return;
    this.remove(unit.id);
    const terms = analyzeText(unit.text);
    const document: Document = { kind: unit.kind, text: unit.text, counts: termCounts(terms), length: terms.length, slot: this.slots.length };
    this.slots.push(unit.id);
    this.documents.set(unit.id, document);
    const postings = this.postingsOf(unit.kind);
    postings.documents += 1;
    postings.totalLength += document.length;
    for (const term of document.counts.keys()) add(postings, term, document.slot);
  }

  /** Drops a unit from the index. */
  remove(id: string): void {
    const document = this.documents.get(id);
    if (document === undefined) return;
    this.documents.delete(id);
    this.slots[document.slot] = undefined;
    this.emptySlots += 1;
    const postings = this.kinds.get(document.kind);
    if (postings !== undefined) {
      postings.documents -= 1;
      postings.totalLength -= document.length;
      for (const term of document.counts.keys()) {
        const posting = postings.postings.get(term);
        if (posting === undefined) continue;
        posting.live -= 1;
        if (posting.live === 0) postings.postings.delete(term);
        else if (posting.slots.length > 2 * posting.live + 8) posting.slots = posting.slots.filter((slot) => this.slots[slot] !== undefined);
      }
      if (postings.documents === 0) this.kinds.delete(document.kind);
    }
    if (this.emptySlots > 1024 && this.emptySlots > this.documents.size) this.renumber();
  }

  /**
   * BM25 scores of the units holding a term of `query`, of the given kinds, that `accept` lets
   * through; unordered.
   */
  search(query: string, kinds: ReadonlyArray<UnitKind> | undefined, accept: (id: string) => boolean): Array<{ id: string; score: number }> {
    const terms = [...new Set(analyzeText(query))];
    const hits: Array<{ id: string; score: number }> = [];
    if (terms.length === 0) return hits;
    for (const kind of kinds !== undefined && kinds.length > 0 ? new Set(kinds) : unitKinds) {
      const postings = this.kinds.get(kind);
      if (postings === undefined) continue;
      const candidates = new Set<string>();
      for (const term of terms) {
        for (const slot of postings.postings.get(term)?.slots ?? []) {
          const id = this.slots[slot];
          if (id !== undefined) candidates.add(id);
        }
      }
      for (const id of candidates) {
        const document = this.documents.get(id);
        if (document === undefined || !accept(id)) continue;
        hits.push({ id, score: bm25Score(terms, (term) => document.counts.get(term) ?? 0, document.length, postings) });
      }
    }
    return hits;
  }

  private postingsOf(kind: UnitKind): KindPostings {
    let postings = this.kinds.get(kind);
    if (postings === undefined) {
      postings = new KindPostings();
      this.kinds.set(kind, postings);
    }
    return postings;
  }

  /** Gives the documents consecutive slots again and rebuilds the postings. */
  private renumber(): void {
    this.slots = emptySlots();
    this.emptySlots = 0;
    for (const postings of this.kinds.values()) postings.postings.clear();
    for (const [id, document] of this.documents) {
      document.slot = this.slots.length;
      this.slots.push(id);
      const postings = this.postingsOf(document.kind);
      for (const term of document.counts.keys()) add(postings, term, document.slot);
    }
  }
}

function add(postings: KindPostings, term: string, slot: number): void {
  const posting = postings.postings.get(term);
  if (posting === undefined) postings.postings.set(term, { slots: [slot], live: 1 });
  else {
    posting.slots.push(slot);
    posting.live += 1;
  }
}
