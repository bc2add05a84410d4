import type { Cue } from '../../model/graph.js';
import type { NavigationState } from '../../ports/navigator.js';
import { createMappingOperators } from '../../operators/mapping-operators.js';
import { isStopWord, words as tokenize } from '../../search/analyzer.js';
import { feedbackTerms, type QueryModel } from '../relevance/query-model.js';
import type { MemoryView } from '../view/memory-view.js';
import type { ToolkitEnvironment } from './toolkit.js';

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
  const operators = createMappingOperators(environment.store, environment.scope);
  const known = new Set(state.discovered.cues.map((cue) => cue.id));
  for (const candidate of state.context.slice(0, 8)) {
    const names = candidateNames(candidate.unit.text);
    if (names.length === 0) continue;
    const own = new Set((await operators.contentsToPairs([candidate.unit.id])).map((pair) => pair.cueId));
    const named: Cue[] = await environment.store.findCues(environment.scope, names);
    for (const cue of named) {
      if (own.has(cue.id) || known.has(cue.id)) continue;
      known.add(cue.id);
      state.discovered.cues.push({ id: cue.id, name: cue.name, from: candidate.unit.id });
    }
  }
  state.discovered.times = [...new Set(top.map((candidate) => candidate.unit.context.eventTime?.start).filter((value): value is string => value !== undefined))];
}
