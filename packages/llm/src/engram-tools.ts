import { tool, type Tool } from 'ai';
import { renderEvidence, type Engram } from '@engram/core';
import { z } from 'zod';

/** Options of {@link engramTools}. */
export interface EngramToolsOptions {
  /** Whose memory the tools read and write: fixed here, the model cannot name another user. */
  userId: string;
  /** Narrows the memory to one agent of the user. */
  agentId?: string;
  /** Evidence items `recall` returns. @default 8 */
  k?: number;
  /** The recall strategy. @default 'active' */
  strategy?: 'active' | 'ramem' | 'similarity' | 'graph';
}

const messageSchema = z.object({
  role: z.string().min(1).optional().describe('user / assistant'),
  speaker: z.string().min(1).optional().describe('who said it, when there are named speakers'),
  content: z.string().min(1).describe('what was said'),
  timestamp: z.string().min(1).optional().describe('when it was said (ISO date-time); now when omitted'),
  sessionId: z.string().min(1).optional().describe('groups messages into one conversation session'),
});

/**
 * AI SDK tools over an engram for a user's own agent: `remember` (messages → memory), `recall`
 * (a query → evidence, each line with its coordinates and id) and `forget` (one unit by id, or the
 * whole memory of the user). The scope is bound here, so whatever the model writes stays in it.
 *
 * @example
 * const result = await generateText({ model, tools: engramTools(engram, { userId: 'alice' }), stopWhen: stepCountIs(5), prompt });
 */
/** The tools {@link engramTools} returns. */
export type EngramTools = Record<'remember' | 'recall' | 'forget', Tool>;

export function engramTools(memory: Engram, options: EngramToolsOptions): EngramTools {
  const scope = options.agentId === undefined ? { userId: options.userId } : { userId: options.userId, agentId: options.agentId };
  const k = options.k ?? 8;
  return {
    remember: tool({
      description: 'Stores chat messages in long-term memory. Adding the same messages again stores nothing new.',
      inputSchema: z.object({ messages: z.array(messageSchema).min(1).describe('the messages, oldest first') }),
      execute: async ({ messages }) => {
        const counts = await memory.add(messages, scope);
        return { remembered: counts.turns, alreadyKnown: counts.skippedTurns, episodes: counts.episodes, facts: counts.facts };
      },
    }),
    recall: tool({
      description: 'Recalls what long-term memory holds about a question: evidence lines, each with when it was said and happened.',
      inputSchema: z.object({ query: z.string().min(1), questionDate: z.string().min(1).optional().describe('today, ISO, for "last week" and the like') }),
      execute: async ({ query, questionDate }) => {
        const result = await memory.recall(query, { scope, k, strategy: options.strategy ?? 'active', ...(questionDate ? { questionDate } : {}) });
        return { evidence: result.evidence.map((evidence) => ({ id: evidence.unit.id, text: renderEvidence(evidence) })) };
      },
    }),
    forget: tool({
      description: 'Forgets one memory by its id (from recall), or everything remembered about this user with all: true.',
      inputSchema: z.object({ id: z.string().min(1).optional(), all: z.boolean().optional() }),
      execute: async ({ id, all }) => {
        if (all === true) {
          await memory.forget(scope);
          return { forgotten: 'all' };
        }
        if (id === undefined) return { forgotten: 'nothing', error: 'give an id or all: true' };
        return { forgotten: (await memory.delete(id, scope)) ? id : 'nothing' };
      },
    }),
  };
}
