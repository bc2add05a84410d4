import { analyze, bm25Score, termCounts, unitKinds, type Bm25Statistics, type Unit, type UnitKind } from '@engram/core';

interface Document {
  kind: UnitKind;
  counts: Map<string, number>;
  length: number;
}

/** Postings and BM25 statistics of one unit kind of one tenant. */
class KindPostings implements Bm25Statistics {
  documents = 0;
  totalLength = 0;
  /** term → unit id → term frequency. */
  readonly postings = new Map<string, Map<string, number>>();

  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }
}

/**
 * The lexical index of one tenant: postings per (kind, term), so a query touches only the units
 * holding one of its terms, and statistics per kind, so scores follow core's `bm25Score` with
 * statistics per tenant and unit kind.
 */
export class LexicalIndex {
  private readonly kinds = new Map<UnitKind, KindPostings>();
  private readonly documents = new Map<string, Document>();

  /** Indexes (or re-indexes) a unit's text. */
  put(unit: Unit): void {
    this.remove(unit.id);
    const terms = analyze(unit.text);
    const document: Document = { kind: unit.kind, counts: termCounts(terms), length: terms.length };
    let postings = this.kinds.get(unit.kind);
    if (postings === undefined) {
      postings = new KindPostings();
      this.kinds.set(unit.kind, postings);
    }
    postings.documents += 1;
    postings.totalLength += document.length;
    for (const [term, count] of document.counts) {
      let units = postings.postings.get(term);
      if (units === undefined) {
        units = new Map();
        postings.postings.set(term, units);
      }
      units.set(unit.id, count);
    }
    this.documents.set(unit.id, document);
  }

  /** Drops a unit from the index. */
  remove(id: string): void {
    const document = this.documents.get(id);
    if (document === undefined) return;
    this.documents.delete(id);
    const postings = this.kinds.get(document.kind);
    if (postings === undefined) return;
    postings.documents -= 1;
    postings.totalLength -= document.length;
    for (const term of document.counts.keys()) {
      const units = postings.postings.get(term);
      units?.delete(id);
      if (units?.size === 0) postings.postings.delete(term);
    }
    if (postings.documents === 0) this.kinds.delete(document.kind);
  }

  /**
   * BM25 scores of the units holding a term of `query`, of the given kinds, that `accept` lets
   * through; unordered.
   */
  search(query: string, kinds: ReadonlyArray<UnitKind> | undefined, accept: (id: string) => boolean): Array<{ id: string; score: number }> {
    const terms = [...new Set(analyze(query))];
    const hits: Array<{ id: string; score: number }> = [];
    if (terms.length === 0) return hits;
    for (const kind of kinds !== undefined && kinds.length > 0 ? new Set(kinds) : unitKinds) {
      const postings = this.kinds.get(kind);
      if (postings === undefined) continue;
      const candidates = new Set<string>();
      for (const term of terms) for (const id of postings.postings.get(term)?.keys() ?? []) candidates.add(id);
      for (const id of candidates) {
        const document = this.documents.get(id);
        if (document === undefined || !accept(id)) continue;
        hits.push({ id, score: bm25Score(terms, (term) => document.counts.get(term) ?? 0, document.length, postings) });
      }
    }
    return hits;
  }
}
