import type { Cue } from '../../model/graph.js';
import type { Unit } from '../../model/units.js';
import type { NavigationState } from '../../ports/navigator.js';
import { isStopWord, words as tokenize } from '../../search/analyzer.js';
import { feedbackTerms, type QueryModel } from '../relevance/query-model.js';
import type { MemoryView } from '../view/memory-view.js';
import type { ToolkitEnvironment } from './toolkit.js';

const graphOperators = new Set(['query_tag_events', 'query_personal_aspect', 'query_topic_events', 'pair_contents']);

/** Word n-grams (1–2 words, no stop words) of a text: the names it may be calling a cue by. */
function candidateNames(text: string): string[] {
  const words = tokenize(text).filter((word) => !isStopWord(word) && word.length > 1);
  const names = new Set(words);
  for (let index = 0; index + 1 < words.length; index++) names.add(`${words[index]} ${words[index + 1]}`);
  return [...names];
}

// The cues each content names, per view: a function of the content and the memory, which a view
// holds unchanged (it is rebuilt after a write), so each content is looked up once.
const namedCues = new WeakMap<MemoryView, Map<string, Cue[]>>();

/** The cues each unit's text names (by name or alias, 1–2 word n-grams), in the order of its names. */
async function cuesNamedBy(environment: ToolkitEnvironment, view: MemoryView, units: ReadonlyArray<Unit>): Promise<Cue[][]> {
  let memo = namedCues.get(view);
  if (!memo) namedCues.set(view, (memo = new Map()));
  const missing = units.filter((unit) => !memo.has(unit.id));
  if (missing.length > 0) {
    const namesOf = missing.map((unit) => candidateNames(unit.text));
    const allNames = [...new Set(namesOf.flat())];
    const cues = allNames.length === 0 ? [] : await environment.store.findCues(environment.scope, allNames);
    const byName = new Map<string, Cue[]>();
    for (const cue of cues) {
      for (const name of new Set([cue.name, ...cue.aliases])) {
        const list = byName.get(name) ?? [];
        list.push(cue);
        byName.set(name, list);
      }
    }
    missing.forEach((unit, index) => {
      const out: Cue[] = [];
      const seen = new Set<string>();
      for (const name of namesOf[index] ?? []) {
        for (const cue of byName.get(name) ?? []) {
          if (seen.has(cue.id)) continue;
          seen.add(cue.id);
          out.push(cue);
        }
      }
      memo.set(unit.id, out);
    });
  }
  return units.map((unit) => memo.get(unit.id) ?? []);
}

/**
 * What the best of the context reveals, written into the state for the navigator: the terms that
 * characterise it (pseudo-relevance feedback), the cues it names that are not its own (new leads,
 * each with the content that named it), and the event times it carries.
 */
export async function discover(state: NavigationState, environment: ToolkitEnvironment, view: MemoryView, model: Pick<QueryModel, 'terms'>): Promise<void> {
  const top = state.context.slice(0, 5);
  const ranked = top.map((candidate) => [view.turnPosition.get(candidate.unit.id) ?? -1, candidate.score] as [number, number]).filter(([position]) => position >= 0);
  state.discovered.terms = feedbackTerms(view, ranked, model).map((entry) => entry.term);
  const known = new Set(state.discovered.cues.map((cue) => cue.id));
  // Leads come from the best of the context and from whatever the graph reached this round.
  const graphReached = state.context.filter((candidate) => candidate.step === state.step && candidate.reasons.some((reason) => graphOperators.has(reason.operator)));
  const leaders = [...new Set([...state.context.slice(0, 5), ...graphReached.slice(0, 5)])];
  const named = await cuesNamedBy(environment, view, leaders.map((candidate) => candidate.unit));
  const own = leaders.length === 0 ? [] : await environment.store.relationsOfContents(environment.scope, leaders.map((candidate) => candidate.unit.id));
  const ownPairs = new Set(own.map((relation) => `${relation.contentId}\u0000${relation.cueId}`));
  leaders.forEach((candidate, index) => {
    for (const cue of named[index] ?? []) {
      if (known.has(cue.id) || ownPairs.has(`${candidate.unit.id}\u0000${cue.id}`)) continue;
      known.add(cue.id);
      state.discovered.cues.push({ id: cue.id, name: cue.name, from: candidate.unit.id });
    }
  });
  state.discovered.times = [...new Set(top.map((candidate) => candidate.unit.context.eventTime?.start).filter((value): value is string => value !== undefined))];
}
