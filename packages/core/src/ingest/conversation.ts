/**
 * The common shape every loader produces (LoCoMo, LongMemEval, generic JSON/JSONL) and the
 * distiller consumes. Turn ids are kept exactly as the source names them, so evidence can be
 * traced back: LoCoMo `D1:3`, LongMemEval `<session id>#<turn index>`, generic `<session id>#<index>`
 * unless the record gives its own id.
 */
export interface ConversationTurn {
  /** Source turn id. */
  id: string;
  /** Who said it: a speaker name, or the role where the source only has roles. */
  speaker: string;
  /** `user` / `assistant` where the source has roles. */
  role?: string;
  /** What was said. */
  text: string;
  /** When it was said (ISO), when the source gives a time per turn. */
  timestamp?: string;
  /** Caption of an image shared with the turn (LoCoMo `blip_caption`). */
  imageCaption?: string;
}

/** One session: consecutive turns said at one time. */
export interface ConversationSession {
  /** Session id as the source names it (LoCoMo `session_3`, LongMemEval `haystack_session_ids[i]`); unique within the conversation. */
  id: string;
  /** The source's id when `id` had to be made unique (LongMemEval repeats a few haystack session ids: the repeat becomes `<id>~2`). */
  sourceId?: string;
  /** When the session took place (ISO date-time), when known. */
  date?: string;
  /** The turns in order. */
  turns: ConversationTurn[];
}

/** A whole conversation history between its speakers. */
export interface Conversation {
  /** Conversation id (LoCoMo `sample_id`, LongMemEval `question_id`, file name for generic input). */
  id: string;
  /** Speaker names, when known (LoCoMo `speaker_a`, `speaker_b`). */
  speakers: string[];
  /** Sessions in time order. */
  sessions: ConversationSession[];
}

/** A benchmark question with its gold evidence. */
export interface BenchmarkQuestion {
  /** Question id (LoCoMo: `<sample_id>#<qa index>`; LongMemEval: `question_id`). */
  id: string;
  /** The conversation it is asked of. */
  conversationId: string;
  /** The question text. */
  question: string;
  /** The expected answer, as a string; absent for LoCoMo adversarial items that only carry `adversarial_answer`. */
  answer?: string;
  /** LoCoMo category 5: the tempting *wrong* answer (`adversarial_answer`); the expected behaviour is to say it is not mentioned. */
  adversarialAnswer?: string;
  /** True when the right response is to abstain (LongMemEval `_abs` ids, LoCoMo category 5). */
  abstention?: boolean;
  /** LoCoMo category name (`multi-hop`, `temporal`, `open-domain`, `single-hop`, `adversarial`) or LongMemEval `question_type`. */
  category: string;
  /** Gold evidence turn ids (LoCoMo `D1:3`; LongMemEval `<session id>#<index>` of `has_answer` turns). */
  evidenceTurns: string[];
  /** Gold evidence turn ids said by the user (LongMemEval: `has_answer` turns with role `user`, what the official retrieval scorer uses). */
  evidenceUserTurns?: string[];
  /** Gold evidence session ids (LongMemEval `answer_session_ids`; LoCoMo: the sessions of the evidence turns). */
  evidenceSessions: string[];
  /** When the question is asked (ISO), when the source says. */
  questionDate?: string;
}
