import { normalizeName, renderEvidence, type Cue, type MemoryStore, type Unit, type UnitKind } from '@engram/core';

/** What `inspect` can look at. */
export const inspectKinds = ['cue', 'episode', 'fact', 'topic', 'turn'] as const;
/** A kind `inspect` can look at. */
export type InspectKind = (typeof inspectKinds)[number];

/** A content unit as shown: its fields without the vector, and its rendered form with coordinates. */
export type UnitView = Record<string, unknown> & { id: string; kind: UnitKind; rendered: string };

/** A cue with its tags and the contents behind each (cue → tag → content). */
export interface CueNeighbourhood {
  kind: 'cue';
  cue: { id: string; name: string; kind: string; aliases: string[] };
  tags: Array<{ id: string; label: string; contents: UnitView[] }>;
}

/** A content unit with its (cue, tag) pairs, source turns, topic and related units. */
export interface UnitNeighbourhood {
  kind: UnitKind;
  unit: UnitView;
  pairs: Array<{ cue: { id: string; name: string }; tag: { id: string; label: string } }>;
  sources: Array<{ sessionId: string; turnId: string; turn?: UnitView }>;
  topic?: { id: string; label: string };
  episodes?: UnitView[];
  supersededBy?: UnitView;
}

/** What `inspect` shows. */
export type Neighbourhood = CueNeighbourhood | UnitNeighbourhood;

const pageSize = 1000;

/** A unit without its vector (long and unreadable), plus its rendered form. */
export function unitView(unit: Unit): UnitView {
  const { vector: _vector, ...rest } = unit;
  return { ...rest, rendered: renderEvidence({ unit }) };
}

async function listAll(store: MemoryStore, scope: { userId: string; sessionId?: string }, kind: UnitKind): Promise<Unit[]> {
  const all: Unit[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.listUnits(scope, { kinds: [kind], limit: pageSize, ...(after === undefined ? {} : { after }) });
    all.push(...page);
    if (page.length < pageSize) return all;
    after = page[page.length - 1]?.id;
  }
}

function nameMatches(unit: Unit, name: string): boolean {
  if (unit.kind === 'topic') return normalizeName(unit.label) === name;
  if (unit.kind === 'episode') return unit.title !== undefined && normalizeName(unit.title) === name;
  if (unit.kind === 'fact') return [unit.entity, unit.value, `${unit.entity} ${unit.aspect}`].some((value) => normalizeName(value) === name);
  return false;
}

/** Finds cues by id, else by name or alias. */
export async function findCues(store: MemoryStore, userId: string, idOrName: string): Promise<Cue[]> {
  const scope = { userId };
  const [byId] = await store.getCues(scope, [idOrName]);
  if (byId !== undefined) return [byId];
  return store.findCues(scope, [idOrName]);
}

/** Finds units of a kind by id, else by name (topic label, episode title, fact entity or value). */
export async function findUnits(store: MemoryStore, userId: string, kind: UnitKind, idOrName: string): Promise<Unit[]> {
  const scope = { userId };
  const [byId] = await store.getUnits(scope, [idOrName]);
  if (byId !== undefined) return byId.kind === kind ? [byId] : [];
  if (kind === 'turn') return [];
  const name = normalizeName(idOrName);
  return (await listAll(store, scope, kind)).filter((unit) => nameMatches(unit, name));
}

/** The kind of the unit with this id, when it exists under another kind (for a helpful error). */
export async function kindOf(store: MemoryStore, userId: string, id: string): Promise<UnitKind | undefined> {
  const [unit] = await store.getUnits({ userId }, [id]);
  return unit?.kind;
}

/** A cue's tags and the contents behind each. */
export async function cueNeighbourhood(store: MemoryStore, userId: string, cue: Cue): Promise<CueNeighbourhood> {
  const scope = { userId };
  const relations = await store.relationsOfCues(scope, [cue.id]);
  const tagIds = [...new Set(relations.map((relation) => relation.tagId))];
  const contentIds = [...new Set(relations.map((relation) => relation.contentId))];
  const [tags, contents] = await Promise.all([store.getTags(scope, tagIds), store.getUnits(scope, contentIds)]);
  const units = new Map(contents.filter((unit): unit is Unit => unit !== undefined).map((unit) => [unit.id, unit]));
  return {
    kind: 'cue',
    cue: { id: cue.id, name: cue.name, kind: cue.kind, aliases: cue.aliases },
    tags: tagIds.map((tagId, index) => ({
      id: tagId,
      label: tags[index]?.label ?? tagId,
      contents: relations
        .filter((relation) => relation.tagId === tagId)
        .map((relation) => units.get(relation.contentId))
        .filter((unit): unit is Unit => unit !== undefined)
        .map(unitView),
    })),
  };
}

/** A unit's (cue, tag) pairs, source turns, topic, and for a topic its episodes, for a fact what replaced it. */
export async function unitNeighbourhood(store: MemoryStore, userId: string, unit: Unit): Promise<UnitNeighbourhood> {
  const scope = { userId };
  const relations = await store.relationsOfContents(scope, [unit.id]);
  const cueIds = [...new Set(relations.map((relation) => relation.cueId))];
  const tagIds = [...new Set(relations.map((relation) => relation.tagId))];
  const [cues, tags] = await Promise.all([store.getCues(scope, cueIds), store.getTags(scope, tagIds)]);
  const cueNames = new Map(cueIds.map((id, index) => [id, cues[index]?.name ?? id]));
  const tagLabels = new Map(tagIds.map((id, index) => [id, tags[index]?.label ?? id]));
  const neighbourhood: UnitNeighbourhood = {
    kind: unit.kind,
    unit: unitView(unit),
    pairs: relations.map((relation) => ({
      cue: { id: relation.cueId, name: cueNames.get(relation.cueId) ?? relation.cueId },
      tag: { id: relation.tagId, label: tagLabels.get(relation.tagId) ?? relation.tagId },
    })),
    sources: [],
  };

  if (unit.kind !== 'turn') {
    // Source refs name a session and the source's turn id; the stored turn is found among that session's turns.
    const sessions = [...new Set(unit.sources.map((source) => source.sessionId))];
    const turnsBySession = new Map<string, Unit[]>();
    for (const sessionId of sessions) turnsBySession.set(sessionId, await listAll(store, { userId, sessionId }, 'turn'));
    neighbourhood.sources = unit.sources.map((source) => {
      const turn = turnsBySession.get(source.sessionId)?.find((candidate) => candidate.sources.some((ref) => ref.turnId === source.turnId));
      return turn === undefined ? { ...source } : { ...source, turn: unitView(turn) };
    });
  } else neighbourhood.sources = unit.sources.map((source) => ({ ...source }));

  const topicId = unit.context.topicId;
  if (topicId !== undefined) {
    const [topic] = await store.getUnits(scope, [topicId]);
    if (topic?.kind === 'topic') neighbourhood.topic = { id: topic.id, label: topic.label };
  }
  if (unit.kind === 'topic') {
    const pairs = await store.episodesOfTopics(scope, [unit.id]);
    const episodes = await store.getUnits(scope, pairs.map((pair) => pair.episodeId));
    neighbourhood.episodes = episodes.filter((episode): episode is Unit => episode !== undefined).map(unitView);
  }
  if (unit.kind === 'fact' && unit.supersededBy !== undefined) {
    const [newer] = await store.getUnits(scope, [unit.supersededBy]);
    if (newer !== undefined) neighbourhood.supersededBy = unitView(newer);
  }
  return neighbourhood;
}
