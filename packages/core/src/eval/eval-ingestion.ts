import { createEngram, type Engram, type EngramOptions } from '../engram/create-engram.js';
import type { Conversation } from '../ingest/conversation.js';
import type { Scope } from '../model/scope.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { RecallContext } from '../recall/strategy.js';

/** How the eval writes conversations and embeds queries. */
export interface EvalIngestion {
  /** The engram that writes the memory. */
  engram: Engram;
  /** Writes one conversation into the store under `scope`. */
  ingest: (conversation: Conversation, scope: Scope) => Promise<void>;
  /** Embeds query texts with the embedder that wrote the vectors. */
  embed: RecallContext['embed'];
}

/**
 * The conversation without turns whose text is blank (LongMemEval_S has five, none of them
 * evidence): `add` rejects them, and they carry nothing to remember. Turn ids are kept as given.
 */
export function withoutEmptyTurns(conversation: Conversation): Conversation {
  const blank = (text: string) => text.trim().length === 0;
  if (!conversation.sessions.some((session) => session.turns.some((turn) => blank(turn.text) && !turn.imageCaption))) return conversation;
  return {
    ...conversation,
    sessions: conversation.sessions.map((session) => ({ ...session, turns: session.turns.filter((turn) => !blank(turn.text) || Boolean(turn.imageCaption)) })),
  };
}

/**
 * Ingestion as a user gets it: `createEngram({ store })` with the offline distiller and the offline
 * embedder unless others are given; queries are embedded by the same embedder.
 */
export function createEvalIngestion(store: MemoryStore, options: Omit<EngramOptions, 'store'> = {}): EvalIngestion {
  const engram = createEngram({ ...options, store });
  return {
    engram,
    ingest: async (conversation, scope) => {
      await engram.add(withoutEmptyTurns(conversation), scope);
    },
    embed: (texts) => engram.embedder.embed(texts),
  };
}
