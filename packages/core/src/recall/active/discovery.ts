import type { Cue } from '../../model/graph.js';
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
  const namesOf = leaders.map((candidate) => candidateNames(candidate.unit.text));
  const allNames = [...new Set(namesOf.flat())];
  if (allNames.length > 0) {
    // Two store calls for all leaders: the cues they name, and the cues already their own.
    const [named, own] = await Promise.all([
      environment.store.findCues(environment.scope, allNames),
      environment.store.relationsOfContents(environment.scope, leaders.map((candidate) => candidate.unit.id)),
    ]);
    const ownPairs = new Set(own.map((relation) => `${relation.contentId}\u0000${relation.cueId}`));
    const byName = new Map<string, Cue[]>();
    for (const cue of named) {
      for (const name of [cue.name, ...cue.aliases]) {
        const list = byName.get(name) ?? [];
        list.push(cue);
        byName.set(name, list);
      }
    }
    leaders.forEach((candidate, index) => {
      for (const name of namesOf[index] ?? []) {
        for (const cue of byName.get(name) ?? []) {
          if (known.has(cue.id) || ownPairs.has(`${candidate.unit.id}\u0000${cue.id}`)) continue;
          known.add(cue.id);
          state.discovered.cues.push({ id: cue.id, name: cue.name, from: candidate.unit.id });
        }
      }
    });
  }
  state.discovered.times = [...new Set(top.map((candidate) => candidate.unit.context.eventTime?.start).filter((value): value is string => value !== undefined))];
}
