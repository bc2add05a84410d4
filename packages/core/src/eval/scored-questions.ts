import type { BenchmarkQuestion, Conversation } from '../ingest/conversation.js';
import { normalizeLocomoEvidence } from '../ingest/loaders/parse-locomo.js';

/** The benchmarks the harness scores. */
export type BenchmarkName = 'locomo' | 'longmemeval';

/** LoCoMo categories that are scored, in the paper's order of ids 1–4 (5, adversarial, is left out). */
export const locomoScoredCategories = ['multi-hop', 'temporal', 'open-domain', 'single-hop'] as const;

/** LongMemEval question types, in the order the benchmark lists them. */
export const longMemEvalQuestionTypes = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'multi-session',
  'temporal-reasoning',
  'knowledge-update',
] as const;

const locomoCategoryById: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
  '5': 'adversarial',
};

/** A question the harness scores, with its gold evidence normalised. */
export interface ScoredQuestion {
  /** The question as loaded. */
  question: BenchmarkQuestion;
  /** Category name used in the report. */
  category: string;
  /** Gold evidence turn ids, distinct. */
  goldTurns: string[];
  /** Gold evidence session ids, distinct (LongMemEval). */
  goldSessions: string[];
  /** Gold turns said by the user (LongMemEval `has_answer` user turns; what the official scorer counts). */
  goldUserTurns: string[];
}

/** Why questions were left out, with counts. */
export type SkipCounts = Record<string, number>;

/** The LoCoMo category name of a loaded category (a name, or a numeric id `1`–`5`). */
export function locomoCategoryName(category: string): string {
  const name = locomoCategoryById[category.trim()] ?? category.trim().toLowerCase();
  return name.startsWith('open-domain') ? 'open-domain' : name;
}

/** True for a LongMemEval abstention item (`_abs` id, or flagged by the loader). */
export function isAbstention(question: BenchmarkQuestion): boolean {
  return (question as { abstention?: unknown }).abstention === true || question.id.endsWith('_abs');
}

function turnRoles(conversation: Conversation): Map<string, string | undefined> {
  const roles = new Map<string, string | undefined>();
  for (const session of conversation.sessions) for (const turn of session.turns) roles.set(turn.id, turn.role);
  return roles;
}

function count(skipped: SkipCounts, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

/**
 * The questions a benchmark scores. LoCoMo: categories 1–4 with at least one well-formed evidence
 * id (adversarial and evidence-less items are skipped). LongMemEval: every non-abstention item with
 * evidence sessions; its user-side `has_answer` turns are derived from the conversation's roles
 * (or taken from the loader's `evidenceUserTurns`). Questions of conversations not given are dropped.
 */
export function selectScoredQuestions(
  benchmark: BenchmarkName,
  conversations: ReadonlyArray<Conversation>,
  questions: ReadonlyArray<BenchmarkQuestion>,
): { scored: ScoredQuestion[]; skipped: SkipCounts } {
  const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]));
  const scored: ScoredQuestion[] = [];
  const skipped: SkipCounts = {};
  const roleCache = new Map<string, Map<string, string | undefined>>();
  for (const question of questions) {
    const conversation = byId.get(question.conversationId);
    if (conversation === undefined) continue;
    if (benchmark === 'locomo') {
      const category = locomoCategoryName(question.category);
      if (category === 'adversarial') count(skipped, 'adversarial');
      else {
        const goldTurns = normalizeLocomoEvidence(question.evidenceTurns);
        if (goldTurns.length === 0) count(skipped, 'no evidence');
        else scored.push({ question, category, goldTurns, goldSessions: [...new Set(question.evidenceSessions)], goldUserTurns: [] });
      }
      continue;
    }
    if (isAbstention(question)) {
      count(skipped, 'abstention');
      continue;
    }
    const goldSessions = [...new Set(question.evidenceSessions)];
    if (goldSessions.length === 0) {
      count(skipped, 'no evidence');
      continue;
    }
    const goldTurns = [...new Set(question.evidenceTurns)];
    const roles = roleCache.get(conversation.id) ?? turnRoles(conversation);
    roleCache.set(conversation.id, roles);
    const given = (question as { evidenceUserTurns?: unknown }).evidenceUserTurns;
    const goldUserTurns = Array.isArray(given)
      ? [...new Set(given.filter((id): id is string => typeof id === 'string'))]
      : goldTurns.filter((id) => roles.get(id) === 'user');
    scored.push({ question, category: question.category, goldTurns, goldSessions, goldUserTurns });
  }
  return { scored, skipped };
}
