export { analyze, words, isStopWord } from './analyzer.js';
export { bm25Parameters, bm25Idf, bm25Score, termCounts, type Bm25Statistics } from './bm25.js';
