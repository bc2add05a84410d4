declare module 'stopword' {
  /** English stop-word list. */
  export const eng: string[];
  export function removeStopwords(tokens: string[], stopwords?: string[]): string[];
}
