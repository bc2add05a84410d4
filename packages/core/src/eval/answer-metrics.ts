import { stemmer } from 'stemmer';

// Answer metrics as the benchmarks' scripts compute them: LoCoMo's `normalize_answer` and
// Porter-stemmed token F1 (with its per-category rules), and BLEU-1 as NLTK's `sentence_bleu`
// with weights (1, 0, 0, 0) and smoothing method 1, as the mem0 / MRAgent evaluations report it.

/** LoCoMo's `normalize_answer`: commas dropped, lower case, punctuation and articles (a, an, the, and) removed, spaces folded. */
export function normalizeAnswer(text: string): string {
  return text
    .replace(/,/g, '')
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the|and)\b/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .join(' ');
}

function stems(text: string): string[] {
  const normalised = normalizeAnswer(text);
  return normalised.length === 0 ? [] : normalised.split(' ').map((word) => stemmer(word));
}

/** LoCoMo's token F1 between a prediction and one gold answer (normalised, Porter-stemmed). */
export function answerF1(prediction: string, gold: string): number {
  const predicted = stems(prediction);
  const expected = stems(gold);
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** LoCoMo's multi-answer F1 (multi-hop): the mean over comma-separated gold parts of the best F1 against any predicted part. */
export function multiAnswerF1(prediction: string, gold: string): number {
  const predictions = prediction.split(',').map((part) => part.trim());
  const golds = gold.split(',').map((part) => part.trim());
  const scores = golds.map((part) => Math.max(...predictions.map((predicted) => answerF1(predicted, part))));
  return scores.length === 0 ? 0 : scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

/** The F1 of a LoCoMo answer by its category: multi-hop by parts, open-domain against the gold's first `;` part, the rest whole. */
export function locomoAnswerF1(prediction: string, gold: string, category: string): number {
  if (category === 'multi-hop') return multiAnswerF1(prediction, gold);
  if (category === 'open-domain') return answerF1(prediction, gold.split(';')[0]?.trim() ?? gold);
  return answerF1(prediction, gold);
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/** BLEU-1 of a prediction against one reference: clipped unigram precision × brevity penalty (NLTK smoothing method 1). */
export function bleu1(prediction: string, reference: string): number {
  const predicted = words(prediction);
  const expected = words(reference);
  if (predicted.length === 0 || expected.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let matches = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      matches++;
      counts.set(token, left - 1);
    }
  }
  // Method 1 replaces a zero count by epsilon = 0.1.
  const precision = (matches === 0 ? 0.1 : matches) / predicted.length;
  const brevity = predicted.length > expected.length ? 1 : Math.exp(1 - expected.length / predicted.length);
  return brevity * precision;
}
