/** BM25 parameters used by every store. */
export const bm25Parameters = { k1: 1.2, b: 0.75 } as const;

/**
 * Corpus statistics BM25 needs. Statistics are kept per tenant (`userId`) and unit kind, so one
 * tenant's data never changes another tenant's scores.
 */
export interface Bm25Statistics {
  /** Number of documents. */
  documents: number;
  /** Sum of document lengths (in analyzed terms). */
  totalLength: number;
  /** Document frequency of a term. */
  documentFrequency(term: string): number;
}

/** Okapi BM25 inverse document frequency (the non-negative "+1" form). */
export function bm25Idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * BM25 score of one document for the distinct `queryTerms`, given its term frequencies and length.
 * Each distinct query term counts once.
 */
export function bm25Score(
  queryTerms: ReadonlyArray<string>,
  termFrequency: (term: string) => number,
  length: number,
  statistics: Bm25Statistics,
): number {
  const { k1, b } = bm25Parameters;
  const averageLength = statistics.documents === 0 ? 0 : statistics.totalLength / statistics.documents;
  let score = 0;
  for (const term of new Set(queryTerms)) {
    const frequency = termFrequency(term);
    if (frequency === 0) continue;
    const idf = bm25Idf(statistics.documents, statistics.documentFrequency(term));
    const norm = averageLength === 0 ? 1 : 1 - b + (b * length) / averageLength;
    score += (idf * frequency * (k1 + 1)) / (frequency + k1 * norm);
  }
  return score;
}

/** Counts of each term in an analyzed document. */
export function termCounts(terms: ReadonlyArray<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
