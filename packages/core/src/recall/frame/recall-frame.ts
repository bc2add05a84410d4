import type { TimeWindow } from '../../ports/memory-store.js';

/** A grounded condition of a recall frame, with the words it was read from. */
export interface FrameCondition<T> {
  /** The grounded value. */
  value: T;
  /** The query words it came from. */
  text: string;
}

/**
 * RaMem's recall condition induction output: the information need `r_q` and the recall frame
 * `c_q`. Only conditions grounded against the memory itself are kept; the rest are listed in
 * `dropped`, never guessed.
 */
export interface RecallFrame {
  /** The query as asked. */
  query: string;
  /** The information need: the query without the frame's words. */
  need: string;
  /** People the query names who exist in the memory (speakers or person cues), by canonical name. */
  participants: Array<FrameCondition<string>>;
  /** Cues of the memory the query names: `{ id, name }`. */
  entities: Array<FrameCondition<{ id: string; name: string }>>;
  /** Time window the answer must fall in, grounded against the question date or the memory's range. */
  time?: FrameCondition<TimeWindow & { start: string; end: string }> & {
    /**
     * What a relative expression was resolved against: the date the question was asked (exact) or,
     * when none is given, the memory's last date (an estimate of "now").
     */
    anchor: 'question-date' | 'memory-end';
  };
  /** An ordering relation to another event ("after the wedding"), when its anchor could be found. */
  relation?: FrameCondition<{ type: 'before' | 'after'; anchor: string; anchorTime?: string }>;
  /** Personal aspects the query asks about (hobby, job, pet, …). */
  aspects: Array<FrameCondition<string>>;
  /** The question asks *when* something happened. */
  asksWhen: boolean;
  /** Conditions found in the query that could not be grounded, and why. */
  dropped: Array<{ text: string; reason: string }>;
}
