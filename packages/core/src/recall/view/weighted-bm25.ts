import { bm25Idf, bm25Parameters } from '../../search/bm25.js';

/** A weighted bag of terms: term → weight (a term frequency that may be fractional). */
export type TermWeights = Map<string, number>;

/** Adds `terms` to `bag`, each with `weight`. */
export function addTerms(bag: TermWeights, terms: Iterable<string>, weight = 1): TermWeights {
  for (const term of terms) bag.set(term, (bag.get(term) ?? 0) + weight);
  return bag;
}

/**
 * BM25 over weighted documents (BM25F-like: a turn's own words weigh 1, its neighbours' less) and
 * weighted queries (expansion terms weigh less than the words asked). Built once per tenant view.
 */
export class WeightedBm25 {
  private readonly documents: Array<{ terms: TermWeights; length: number }>;
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  /** Postings: term → (document index, weighted frequency) pairs, so a query touches only its terms' documents. */
  private readonly postings = new Map<string, { documents: number[]; frequencies: number[] }>();
  /** Per-document length normalisation `k1 · (1 − b + b · length / average)`. */
  private readonly norms: Float64Array;

  constructor(documents: ReadonlyArray<TermWeights>) {
    this.documents = documents.map((terms) => {
      let length = 0;
      for (const weight of terms.values()) length += weight;
      return { terms, length };
    });
    this.documents.forEach((document, index) => {
      for (const [term, frequency] of document.terms) {
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = { documents: [], frequencies: [] }));
        list.documents.push(index);
        list.frequencies.push(frequency);
      }
    });
    const total = this.documents.reduce((sum, document) => sum + document.length, 0);
    this.averageLength = this.documents.length === 0 ? 0 : total / this.documents.length;
    const { k1, b } = bm25Parameters;
    this.norms = Float64Array.from(this.documents, (document) => k1 * (this.averageLength === 0 ? 1 : 1 - b + (b * document.length) / this.averageLength));
  }

  /** Number of documents. */
  get size(): number {
    return this.documents.length;
  }

  /** Inverse document frequency of a term. */
  idf(term: string): number {
    return bm25Idf(this.documents.length, this.documentFrequency.get(term) ?? 0);
  }

  /** Number of documents containing the term. */
  documentCount(term: string): number {
    return this.documentFrequency.get(term) ?? 0;
  }

  /** True when some document contains the term. */
  has(term: string): boolean {
    return this.documentFrequency.has(term);
  }

  /** The weighted terms of one document. */
  terms(index: number): TermWeights {
    return this.documents[index]?.terms ?? new Map();
  }

  /** Score of one document for a weighted query. */
  score(query: TermWeights, index: number): number {
    const document = this.documents[index];
    if (!document) return 0;
    const { k1, b } = bm25Parameters;
    const norm = this.averageLength === 0 ? 1 : 1 - b + (b * document.length) / this.averageLength;
    let score = 0;
    for (const [term, weight] of query) {
      const frequency = document.terms.get(term);
      if (!frequency) continue;
      score += (weight * this.idf(term) * frequency * (k1 + 1)) / (frequency + k1 * norm);
    }
    return score;
  }

  /** Scores of every document sharing a term with the query (others score 0), term at a time. */
  scoreAll(query: TermWeights): Map<number, number> {
    const { k1 } = bm25Parameters;
    // Accumulate in a dense array (one slot per document), then list the touched documents in the
    // order they were first touched — the order the map had when it accumulated directly.
    const sums = new Float64Array(this.documents.length);
    const seen = new Uint8Array(this.documents.length);
    const touched: number[] = [];
    for (const [term, weight] of query) {
      const list = this.postings.get(term);
      if (!list) continue;
      const factor = weight * this.idf(term) * (k1 + 1);
      const { documents, frequencies } = list;
      for (let i = 0; i < documents.length; i++) {
        const index = documents[i] as number;
        const frequency = frequencies[i] as number;
        if (seen[index] === 0) {
          seen[index] = 1;
          touched.push(index);
        }
        sums[index] = (sums[index] as number) + (factor * frequency) / (frequency + (this.norms[index] as number));
      }
    }
    const scores = new Map<number, number>();
    for (const index of touched) scores.set(index, sums[index] as number);
    return scores;
  }
}
