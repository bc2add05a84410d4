import { isAdjective, nounBaseForms, nounCompoundKinds, nounHyponyms, nounIsA } from '../../lexicon/wordnet.js';
import { analyze, analyzeWord, isStopWord, words as tokenize } from '../../search/analyzer.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import type { MemoryView } from '../view/memory-view.js';
import { addTerms, type TermWeights } from '../view/weighted-bm25.js';
import { isQuestionScaffolding } from './question-words.js';

/** A weighted query with where each term came from. */
export interface QueryModel {
  /** Term → weight. */
  terms: TermWeights;
  /** Terms added beyond the words asked, and why. */
  expansions: Array<{ term: string; weight: number; from: string }>;
  /** The one speaker the query is about, when it names exactly one. */
  speaker: string | undefined;
}

/** Tunables of the query model. */
export const queryModelDefaults = {
  /** Weight of a WordNet hyponym of a category noun ("activities" → pottery). */
  hyponymWeight: 0.3,
  /** Levels below the category noun. */
  hyponymDepth: 3,
  /** Levels below a noun modifier's two-word nouns ("photography" → photographic equipment → camera). */
  compoundDepth: 1,
  /**
   * The WordNet noun (any sense) that a head noun must be a kind of for its modifier's compounds to
   * be the kinds asked for: "setup", "gear", "kit", "tools" are instrumentalities; "studio", "race",
   * "account" are not.
   */
  equipmentHead: 'instrumentality',
  /** A category noun with more hyponyms present in memory than this is too vague to expand. */
  maxHyponyms: 40,
  /**
   * A category noun with more kinds than this below it (WordNet lemmas, to `hyponymDepth`) is too
   * general to enumerate ("person", "activity", "event"): its tree is not even read to the end.
   */
  maxKinds: 1200,
  /** Boost of turns said by the one speaker a query is about. */
  speakerBoost: 3,
  /** Boost of turns where the speaker talks about themselves: personal memory is mostly self-report. */
  selfReportBoost: 1.4,
} as const;

// Hyponym terms per category word: WordNet is immutable, so this cache is data, not state.
const hyponymTerms = new Map<string, HyponymTerm[]>();
const hyponymCacheLimit = 20_000;
const plainWord = /^[a-z0-9]+$/;

/** An analysed kind: its term, the word forms that name it (none listed: a many-word lemma) and the compound it was found under, if any. */
interface HyponymTerm {
  term: string;
  forms: string[] | undefined;
  via?: string;
}

/** A noun and its regular plurals: the forms in which a text names it. */
function nounForms(lemma: string): string[] {
  const forms = [lemma, `${lemma}s`, `${lemma}es`];
  if (lemma.endsWith('y')) forms.push(`${lemma.slice(0, -1)}ies`);
  return forms;
}

/**
 * The analysed kinds of a query word: the hyponyms of a category noun ("accessories" → belt,
 * holster) or, for a noun modifying an equipment noun, the kinds listed under its two-word nouns
 * ("photography setup" → photographic equipment → camera, flash).
 */
function stemmedHyponyms(word: string, source: 'category' | 'modifier'): HyponymTerm[] {
  const key = source === 'modifier' ? `${word}\u0000modifier` : word;
  let terms = hyponymTerms.get(key);
  if (terms) return terms;
  const found = new Map<string, { forms: string[] | undefined; via: string | undefined }>();
  const options = { limit: queryModelDefaults.maxKinds };
  const lemmas: Map<string, number | string> =
    source === 'modifier'
      ? nounCompoundKinds(word, { ...options, depth: queryModelDefaults.compoundDepth })
      : nounHyponyms(word, { ...options, depth: queryModelDefaults.hyponymDepth });
  for (const [lemma, origin] of lemmas.size > queryModelDefaults.maxKinds ? [] : lemmas) {
    const via = typeof origin === 'string' ? origin : undefined;
    if (plainWord.test(lemma)) {
      // Most lemmas are one plain word: the analyzer's per-word path gives what `analyze` would.
      const term = analyzeWord(lemma);
      if (term === undefined) continue;
      const known = found.get(term);
      const forms = known === undefined ? [] : known.forms;
      found.set(term, { forms: forms === undefined ? undefined : [...forms, ...nounForms(lemma)], via: known?.via ?? via });
    } else if (source === 'category') for (const term of analyze(lemma)) found.set(term, { forms: undefined, via: found.get(term)?.via ?? via });
    // A modifier's compounds list many hyphenated kinds ("short-stop", "cine-film") whose words
    // alone ("short", "stop") name something else: only one-word kinds count there.
  }
  terms = [...found].map(([term, { forms, via }]) => (via === undefined ? { term, forms } : { term, forms, via }));
  if (hyponymTerms.size >= hyponymCacheLimit) hyponymTerms.clear();
  hyponymTerms.set(key, terms);
  return terms;
}

/** Words that open a noun phrase ("what instrument", "a cocktail", "her favourite band"). */
const determiners = new Set([
  'a', 'an', 'the', 'what', 'which', 'any', 'some', 'of', 'other', 'another', 'my', 'your', 'his', 'her', 'their', 'our', 'its',
  'this', 'that', 'these', 'those', 'each', 'every', 'many', 'few', 'several', 'favorite', 'favourite',
]);

/** Whether the word after a query word ends its noun phrase: nothing, a stop word or question scaffolding. */
function endsNounPhrase(next: string | undefined): boolean {
  return next === undefined || isStopWord(next) || isQuestionScaffolding(next);
}

/**
 * Whether a query word names a category whose kinds may be the answer: the head of a noun phrase
 * ("what instruments does she play", "a cocktail for the party"), that is a plural or a noun a
 * determiner opens — not a modifier of the word after it ("my current photography setup": neither
 * "current" nor "photography" is what is asked for) nor a verb ("would complement").
 */
function namesCategory(word: string, previous: string | undefined, next: string | undefined): boolean {
  if (!endsNounPhrase(next)) return false;
  return (previous !== undefined && determiners.has(previous)) || nounBaseForms(word).some((base) => base !== word);
}

/**
 * Whether a query word is a noun modifying an equipment noun after it ("my photography setup",
 * "cooking gear", "fishing kit"): then the kinds of that equipment are what is asked for. Not an
 * adjective ("my current setup"), and the head is a kind of instrumentality in WordNet.
 */
function modifiesEquipment(word: string, next: string | undefined): boolean {
  if (next === undefined || endsNounPhrase(next)) return false;
  return !isAdjective(word) && nounBaseForms(word).length > 0 && nounIsA(next, queryModelDefaults.equipmentHead);
}

/**
 * Turns a query and its frame into weighted terms: the words asked (participants' names removed —
 * they are a frame condition, not content, and so are the words of a window exactly grounded),
 * plus WordNet hyponyms of the categories it asks for that occur in this memory ("accessories" →
 * belt, holster), weighted lower.
 */
export function buildQueryModel(frame: RecallFrame, view: MemoryView): QueryModel {
  const speakerNames = new Set(frame.participants.map((participant) => participant.text.toLowerCase()));
  // A window resolved against the question's own date is exactly what its words mean ("last
  // Friday"): a condition on when, not words to find. Resolved against the memory's last date it is
  // an estimate, and turns that say the same words stay a useful hint.
  const timeWords = new Set(frame.time?.anchor === 'question-date' ? tokenize(frame.time.text) : []);
  const tokens = tokenize(frame.query);
  const keep = (word: string) => !speakerNames.has(word) && !timeWords.has(word) && !isQuestionScaffolding(word);
  const asked = tokens.filter(keep);
  const terms = addTerms(new Map(), analyze(asked.join(' ')));
  const expansions: QueryModel['expansions'] = [];
  for (const [index, word] of tokens.entries()) {
    if (!keep(word) || isStopWord(word) || word.length < 3) continue;
    const next = tokens[index + 1];
    const source = namesCategory(word, tokens[index - 1], next) ? 'category' : modifiesEquipment(word, next) ? 'modifier' : undefined;
    if (source === undefined) continue;
    let present = 0;
    const named: HyponymTerm[] = [];
    for (const kind of stemmedHyponyms(word, source)) {
      if (!view.turnIndex.has(kind.term) || terms.has(kind.term)) continue;
      present++;
      // A kind counts when the memory names it, not when a word merely shares its stem ("fitting"
      // as an accessory is not "it fits").
      if (kind.forms === undefined || kind.forms.some((form) => view.words.has(form))) named.push(kind);
    }
    // How many kinds share a stem with the memory's words says how vague the category is.
    if (present > queryModelDefaults.maxHyponyms) continue;
    for (const { term, via } of named) {
      terms.set(term, (terms.get(term) ?? 0) + queryModelDefaults.hyponymWeight);
      expansions.push({ term, weight: queryModelDefaults.hyponymWeight, from: source === 'modifier' ? `kind of ${via ?? word}, for "${word} ${next}"` : `hyponym of ${word}` });
    }
  }
  const speakers = frame.participants.map((participant) => participant.value).filter((name) => view.speakers.includes(name));
  const unique = [...new Set(speakers)];
  return { terms, expansions, speaker: unique.length === 1 ? unique[0] : undefined };
}

/**
 * Scores every turn sharing a term with the query: contextual BM25 × speaker and self-report
 * boosts (the speaker boost skips the speaker's questions about the listener). Keys are turn positions.
 */
export function scoreTurns(view: MemoryView, query: Pick<QueryModel, 'terms' | 'speaker'>): Map<number, number> {
  const scores = view.turnIndex.scoreAll(query.terms);
  for (const [position, score] of scores) {
    let boosted = score;
    // A question the speaker puts to the other person is about the listener, not the speaker.
    if (query.speaker !== undefined && view.turns[position]?.speaker === query.speaker && view.asksOther[position] === 0) boosted *= queryModelDefaults.speakerBoost;
    if (view.selfReport[position] === 1) boosted *= queryModelDefaults.selfReportBoost;
    scores.set(position, boosted);
  }
  return scores;
}

/**
 * Pseudo-relevance feedback: the terms that characterise the best turns found so far (weighted by
 * their idf and the turns' scores), as new cues to search with. This is what makes the offline
 * navigator state-dependent: what it searches next depends on what it has retrieved.
 */
export function feedbackTerms(
  view: MemoryView,
  ranked: ReadonlyArray<[number, number]>,
  query: Pick<QueryModel, 'terms'>,
  options: { documents?: number; terms?: number; weight?: number } = {},
): Array<{ term: string; weight: number }> {
  const gathered = new Map<string, number>();
  for (const [position, score] of ranked.slice(0, options.documents ?? 5)) {
    for (const [term, frequency] of view.turnIndex.terms(position)) {
      // A term only one turn contains can re-find that turn, never another: no use as a lead.
      if (query.terms.has(term) || view.turnIndex.documentCount(term) < 2) continue;
      gathered.set(term, (gathered.get(term) ?? 0) + frequency * view.turnIndex.idf(term) * score);
    }
  }
  const best = [...gathered].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.terms ?? 10);
  const top = best[0]?.[1] ?? 1;
  return best.map(([term, value]) => ({ term, weight: ((options.weight ?? 0.3) * value) / top }));
}

/** Positions sorted by score descending, then position. */
export function rankPositions(scores: Map<number, number>): Array<[number, number]> {
  return [...scores].filter(([, score]) => score > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}
