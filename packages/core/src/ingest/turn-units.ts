import { stableId } from '../model/ids.js';
import type { Scope } from '../model/scope.js';
import type { Turn } from '../model/units.js';
import type { ConversationSession, ConversationTurn } from './conversation.js';

/** The text a turn is stored and indexed under: speaker, words, and any shared image's caption. */
export function turnText(turn: ConversationTurn): string {
  const caption = turn.imageCaption ? ` [shared an image: ${turn.imageCaption}]` : '';
  return `${turn.speaker}: ${turn.text}${caption}`;
}

/** The last id made for a turn object, with everything it was made from. */
interface TurnIdMemo {
  userId: string;
  agentId: string | undefined;
  conversationId: string;
  sessionId: string;
  turnId: string;
  speaker: string;
  text: string;
  imageCaption: string | undefined;
  id: string;
}

// Ingest asks for a session's turn ids twice (to skip stored turns, then to build the units): the
// second time costs a comparison instead of a hash. Checked field by field, so an edited turn gets its new id.
const turnIds = new WeakMap<ConversationTurn, TurnIdMemo>();

/** The stable id of a source turn: the same scope, conversation, session, turn and words give the same id. */
export function turnUnitId(scope: Scope, conversationId: string, sessionId: string, turn: ConversationTurn): string {
  const memo = turnIds.get(turn);
  if (
    memo !== undefined && memo.userId === scope.userId && memo.agentId === scope.agentId && memo.conversationId === conversationId && memo.sessionId === sessionId
    && memo.turnId === turn.id && memo.speaker === turn.speaker && memo.text === turn.text && memo.imageCaption === turn.imageCaption
  ) {
    return memo.id;
  }
  const id = stableId('turn', scope, conversationId, sessionId, turn.id, turn.speaker, turn.text, turn.imageCaption ?? '');
  turnIds.set(turn, { userId: scope.userId, agentId: scope.agentId, conversationId, sessionId, turnId: turn.id, speaker: turn.speaker, text: turn.text, imageCaption: turn.imageCaption, id });
  return id;
}

/**
 * The source layer of a session: one `turn` unit per message, anchored to its session (when it was
 * said) and its speakers. Enrichment (mention times, entities) is the distiller's job.
 */
export function sessionTurnUnits(scope: Scope, conversation: { id: string; speakers: ReadonlyArray<string> }, session: ConversationSession): Turn[] {
  const sessionScope: Scope = { ...scope, sessionId: session.id };
  const speakers = new Set<string>(conversation.speakers);
  for (const turn of session.turns) speakers.add(turn.speaker);
  const date = session.date ?? session.turns.find((turn) => turn.timestamp)?.timestamp;
  const lastTimestamp = [...session.turns].reverse().find((turn) => turn.timestamp)?.timestamp;
  return session.turns.map((turn, index) => ({
    id: turnUnitId(scope, conversation.id, session.id, turn),
    kind: 'turn' as const,
    scope: sessionScope,
    text: turnText(turn),
    speaker: turn.speaker,
    ...(turn.role === undefined ? {} : { role: turn.role }),
    index,
    context: {
      mentionTimes: [],
      participants: [turn.speaker, ...[...speakers].filter((name) => name !== turn.speaker)],
      entities: [],
      ...(date === undefined ? {} : { session: { id: session.id, start: date, end: lastTimestamp ?? date } }),
    },
    sources: [{ sessionId: session.id, turnId: turn.id }],
  }));
}
