export { extractTimeMentions, resolveTimeExpression, type ExtractTimeOptions } from './extract-time-mentions.js';
export { parseSessionDate } from './session-date.js';
export type { Tense } from './tense.js';
export type { TimeMention } from './time-expression.js';
