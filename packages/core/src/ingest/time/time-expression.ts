import type { TimeInterval } from '../../model/time.js';

/** A time expression found in text and resolved against when it was said. */
export interface TimeMention {
  /** The expression as written, e.g. `last August`. */
  text: string;
  /** Character offset of the expression in the input. */
  index: number;
  /** The resolved interval (ISO dates) with its granularity; `text` repeats the expression. */
  interval: TimeInterval;
}
