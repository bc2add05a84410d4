import { distillResultSchema, relationKey, type Cue, type DistillResult, type DistillResultInput } from '@engram/core';

/** An empty distill result. */
export function emptyResult(): DistillResult {
  return { turns: [], episodes: [], facts: [], topics: [], cues: [], tags: [], relations: [], supersessions: [] };
}

/**
 * Merges the results of the batches of one session (model-distilled and fallen back): units by id
 * (a later one replaces an earlier one, a topic keeps the episodes of both), cues by id with the
 * union of their aliases, relations once per triple.
 */
export function mergeResults(parts: ReadonlyArray<DistillResultInput>): DistillResult {
  const merged = emptyResult();
  const units = { turns: new Map(), episodes: new Map(), facts: new Map(), topics: new Map() } as Record<'turns' | 'episodes' | 'facts' | 'topics', Map<string, unknown>>;
  const cues = new Map<string, Cue>();
  const tags = new Map<string, DistillResult['tags'][number]>();
  const relations = new Map<string, DistillResult['relations'][number]>();
  let diagnostics: DistillResult['diagnostics'];
  for (const input of parts) {
    const part = distillResultSchema.parse(input);
    for (const kind of ['turns', 'episodes', 'facts'] as const) for (const unit of part[kind]) units[kind].set(unit.id, unit);
    for (const topic of part.topics) {
      const previous = units.topics.get(topic.id) as typeof topic | undefined;
      units.topics.set(topic.id, previous === undefined ? topic : { ...topic, episodeIds: [...new Set([...previous.episodeIds, ...topic.episodeIds])] });
    }
    for (const cue of part.cues) {
      const previous = cues.get(cue.id);
      cues.set(cue.id, previous === undefined ? cue : { ...previous, aliases: [...new Set([...previous.aliases, ...cue.aliases])].sort() });
    }
    for (const tag of part.tags) tags.set(tag.id, tag);
    for (const relation of part.relations) relations.set(relationKey(relation), relation);
    merged.supersessions.push(...part.supersessions);
    if (part.diagnostics) {
      diagnostics = {
        timeExpressions: (diagnostics?.timeExpressions ?? 0) + part.diagnostics.timeExpressions,
        timeExpressionsResolved: (diagnostics?.timeExpressionsResolved ?? 0) + part.diagnostics.timeExpressionsResolved,
      };
    }
  }
  merged.turns = [...units.turns.values()] as DistillResult['turns'];
  merged.episodes = [...units.episodes.values()] as DistillResult['episodes'];
  merged.facts = [...units.facts.values()] as DistillResult['facts'];
  merged.topics = [...units.topics.values()] as DistillResult['topics'];
  merged.cues = [...cues.values()];
  merged.tags = [...tags.values()];
  merged.relations = [...relations.values()];
  if (diagnostics) merged.diagnostics = diagnostics;
  return merged;
}
