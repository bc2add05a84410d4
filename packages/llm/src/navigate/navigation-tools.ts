import { tool, type Tool } from 'ai';
import { z } from 'zod';
import type { NavigationAction } from '@engram/core';

const text = z.string().min(1).max(200);

/** The names of the navigation tools: the toolkit's actions and `stop`. */
export type NavigationToolName = NavigationAction['type'] | 'stop';

/**
 * The toolkit as the model sees it: one tool per action of the core Navigator port, plus `stop`.
 * None has an `execute`: the model only proposes calls; the active-reconstruction loop of core runs
 * them inside the recall's scope, at most `K` per turn, for at most `T` turns.
 */
export const navigationTools: Record<NavigationToolName, Tool> = {
  search: tool({
    description: 'Fused dense + lexical search over the memory. `expansions`: extra terms (weighted lower) learned from what was found.',
    inputSchema: z.object({ query: text, expansions: z.array(text).max(12).optional() }),
  }),
  query_tag_events: tool({
    description: 'Query tag events: a cue (entity name or cue id) → its tags → the events. Optionally only some tags (labels or ids).',
    inputSchema: z.object({ cue: text, tags: z.array(text).max(12).optional() }),
  }),
  query_conversation_time: tool({
    description: 'Query conversation time: events whose time overlaps [start, end] (YYYY-MM-DD).',
    inputSchema: z.object({ start: text, end: text, field: z.enum(['event', 'session', 'any']).optional() }),
  }),
  query_event_context: tool({
    description: 'Query event context: the (cue, tag) pairs around a content id and its neighbouring messages.',
    inputSchema: z.object({ contentId: text }),
  }),
  query_personal_aspect: tool({
    description: 'Query personal aspect: the facts of a person for an aspect (job, hobby, home, pet, family, relationship, preference, …), current and superseded.',
    inputSchema: z.object({ entity: text, aspect: text }),
  }),
  query_topic_events: tool({
    description: 'Query topic events: the episodes of a topic (topic id).',
    inputSchema: z.object({ topicId: text }),
  }),
  cue_tags: tool({ description: 'Forward operator φ c→g: the tags of a cue id.', inputSchema: z.object({ cueId: text }) }),
  pair_contents: tool({ description: 'Forward operator φ (c,g)→v: the contents of a (cue id, tag id) pair.', inputSchema: z.object({ cueId: text, tagId: text }) }),
  content_pairs: tool({ description: 'Reverse operator φ v→(c,g): the (cue, tag) pairs of a content id.', inputSchema: z.object({ contentId: text }) }),
  stop: tool({ description: 'Stop navigating: the context gathered so far is enough to answer (or nothing more can be found).', inputSchema: z.object({ reason: text }) }),
};

/** The tool names the model is offered. */
export const navigationToolNames = Object.keys(navigationTools) as NavigationToolName[];

/** A validated tool call as a toolkit action; `undefined` for `stop` and anything not in the toolkit. */
export function toAction(toolName: string, input: unknown): NavigationAction | undefined {
  if (toolName === 'stop' || !Object.hasOwn(navigationTools, toolName)) return undefined;
  const schema = navigationTools[toolName as NavigationToolName].inputSchema as z.ZodType;
  const parsed = schema.safeParse(input);
  if (!parsed.success) return undefined;
  const value = parsed.data as Record<string, unknown>;
  const clean = Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
  return { type: toolName, ...clean } as NavigationAction;
}
