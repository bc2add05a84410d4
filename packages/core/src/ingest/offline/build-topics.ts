import type { CueKind } from '../../model/graph.js';
import { stableId } from '../../model/ids.js';
import type { Scope } from '../../model/scope.js';
import type { Topic, Unit } from '../../model/units.js';
import { analyze } from '../../search/analyzer.js';
import type { GraphDraft } from './graph-draft.js';

/** What topic assignment needs to know about an episode. */
export interface TopicEpisode {
  /** Episode id. */
  id: string;
  /** Its short label. */
  title: string | undefined;
  /** Its speakers. */
  participants: ReadonlyArray<string>;
  /** Canonical cue names with their kind, count and first position in the episode. */
  cues: ReadonlyMap<string, CueStats>;
}

/** How an episode names a cue. */
interface CueStats {
  kind: CueKind;
  count: number;
  first: number;
}

const TOPIC_KINDS: ReadonlySet<CueKind> = new Set(['thing', 'entity', 'organisation', 'place']);
const MAX_TITLES = 40;

/** The stable id of the topic a cue name stands for (names with the same stems share it). */
export function topicIdOf(tenant: Scope, name: string): string | undefined {
  const key = analyze(name).join(' ');
  return key.length === 0 ? undefined : stableId('topic', tenant, key);
}

/** Orders an episode's candidate cues: by count, things first, longer names first, then by position. */
function bySalience([nameA, a]: [string, CueStats], [nameB, b]: [string, CueStats]): number {
  return b.count - a.count
    || Number(b.kind === 'thing') - Number(a.kind === 'thing')
    || nameB.split(' ').length - nameA.split(' ').length
    || a.first - b.first;
}

// Plain loops rather than chains of array methods, here and in `rankTopics`: these run for every
// episode, and the arrays such chains make change shape between tiers and cost re-optimisations.
function candidates(episode: TopicEpisode, recurring: (name: string) => boolean): string[] {
  const kept: Array<[string, CueStats]> = [];
  for (const [name, cue] of episode.cues) if (TOPIC_KINDS.has(cue.kind) && (cue.count >= 2 || recurring(name))) kept.push([name, cue]);
  kept.sort(bySalience);
  const out: string[] = [];
  for (let index = 0; index < kept.length && index < 3; index++) out.push((kept[index] as [string, CueStats])[0]);
  return out;
}

function topicText(label: string, titles: ReadonlyArray<string>): string {
  return `Topic: ${label}. Episodes: ${titles.join('; ')}`;
}

function titlesOf(topic: Topic): string[] {
  const at = topic.text.indexOf('Episodes: ');
  return at === -1 ? [] : topic.text.slice(at + 'Episodes: '.length).split('; ').filter((title) => title.length > 0);
}

/**
 * Groups episodes into topics by their most salient recurring thing: each episode joins the topic
 * of its first top cue (by count, things before names) that is already a topic — stored or made
 * earlier in this session — else founds a topic on its top cue. Only recurring cues count (named
 * twice in the episode, in two episodes of the session, or known from an earlier session). Topic ids come from the cue's stems, so a
 * later session extends the same topic. Returns the topics to write and each episode's topic.
 */
export async function assignTopics(
  episodes: ReadonlyArray<TopicEpisode>,
  tenant: Scope,
  getUnits: (ids: ReadonlyArray<string>) => Promise<Array<Unit | undefined>>,
  graph: GraphDraft,
): Promise<{ topics: Topic[]; topicOf: Map<string, string> }> {
  const ranked = rankTopics(episodes, tenant, graph);
  const unique = new Set<string>();
  for (const options of ranked) for (const option of options) unique.add(option.id);
  const ids = [...unique];
  const stored = new Map<string, Topic>();
  if (ids.length > 0) {
    for (const unit of await getUnits(ids)) if (unit?.kind === 'topic') stored.set(unit.id, unit);
  }
  return fileEpisodes(episodes, ranked, stored, tenant, graph);
}

/** Each episode's candidate topics, best first. */
function rankTopics(episodes: ReadonlyArray<TopicEpisode>, tenant: Scope, graph: GraphDraft): Array<Array<{ id: string; name: string }>> {
  // A theme is something that recurs: named twice in the episode, in two episodes of the session,
  // or already in memory from an earlier session. One-off mentions found no topic.
  const episodesWith = new Map<string, number>();
  for (const episode of episodes) for (const name of episode.cues.keys()) episodesWith.set(name, (episodesWith.get(name) ?? 0) + 1);
  const recurring = (name: string) => (episodesWith.get(name) ?? 0) >= 2 || graph.wasStored(name);
  const ranked: Array<Array<{ id: string; name: string }>> = [];
  for (const episode of episodes) {
    const options: Array<{ id: string; name: string }> = [];
    for (const name of candidates(episode, recurring)) {
      const id = graph.stableId('topic', name, () => topicIdOf(tenant, name) ?? '');
      if (id !== '') options.push({ id, name });
    }
    ranked.push(options);
  }
  return ranked;
}

interface TopicDraft {
  label: string;
  episodeIds: string[];
  titles: string[];
  participants: Set<string>;
  base?: Topic;
}

/** Files each episode under its first candidate already a topic (stored or drafted), else its best. */
function fileEpisodes(
  episodes: ReadonlyArray<TopicEpisode>,
  ranked: ReadonlyArray<ReadonlyArray<{ id: string; name: string }>>,
  stored: ReadonlyMap<string, Topic>,
  tenant: Scope,
  graph: GraphDraft,
): { topics: Topic[]; topicOf: Map<string, string> } {
  const drafts = new Map<string, TopicDraft>();
  const topicOf = new Map<string, string>();
  episodes.forEach((episode, index) => {
    const options = ranked[index] ?? [];
    const chosen = options.find((option) => drafts.has(option.id) || stored.has(option.id)) ?? options[0];
    if (chosen === undefined) return;
    let draft = drafts.get(chosen.id);
    if (draft === undefined) {
      const base = stored.get(chosen.id);
      draft = base === undefined
        ? { label: chosen.name, episodeIds: [], titles: [], participants: new Set() }
        : { label: base.label, episodeIds: [...base.episodeIds], titles: titlesOf(base), participants: new Set(base.context.participants), base };
      drafts.set(chosen.id, draft);
    }
    if (!draft.episodeIds.includes(episode.id)) draft.episodeIds.push(episode.id);
    if (episode.title !== undefined && !draft.titles.includes(episode.title) && draft.titles.length < MAX_TITLES) draft.titles.push(episode.title);
    for (const participant of episode.participants) draft.participants.add(participant);
    topicOf.set(episode.id, chosen.id);
  });
  const topics: Topic[] = [];
  for (const [id, draft] of drafts) topics.push(topicUnit(id, draft, tenant, graph));
  return { topics, topicOf };
}

/** The topic unit of a draft, relating its label to it. */
function topicUnit(id: string, draft: TopicDraft, tenant: Scope, graph: GraphDraft): Topic {
  graph.relate(graph.cue(draft.label, 'thing'), graph.tag('topic'), id, tenant);
  return {
    ...(draft.base ?? {}),
    id,
    kind: 'topic',
    scope: tenant,
    label: draft.label,
    episodeIds: draft.episodeIds,
    text: topicText(draft.label, draft.titles),
    context: {
      ...(draft.base?.context ?? {}),
      mentionTimes: draft.base?.context.mentionTimes ?? [],
      participants: [...draft.participants],
      entities: [draft.label],
    },
    sources: draft.base?.sources ?? [],
  };
}
