/**
 * Word-level access to compromise's English lexicon and inflection rules. Running compromise's
 * full pipeline costs about 3 ms per short message, far over the ingest budget, so the offline
 * distiller uses its data — the lexicon (~25k words with part-of-speech tags), the ambiguity
 * "switches", the suffix rules for unknown words and the noun/verb transforms — with a cache per
 * word, and does the sentence-level work itself (see `tagged-text.ts`).
 */

/** Coarse part of speech of a token. */
export type Pos =
  | 'noun'
  | 'plural'
  | 'proper'
  | 'person'
  | 'place'
  | 'org'
  | 'verb'
  | 'past'
  | 'gerund'
  | 'adjective'
  | 'adverb'
  | 'pronoun'
  | 'possessive'
  | 'determiner'
  | 'preposition'
  | 'conjunction'
  | 'copula'
  | 'aux'
  | 'modal'
  | 'negative'
  | 'value'
  | 'date'
  | 'expression'
  | 'question'
  | 'punct';

/** What the lexicon says about a lower-case word. */
export interface WordInfo {
  /** Part of speech out of context. */
  pos: Pos;
  /** Ambiguity class (`Noun|Verb`, `Person|Noun`, …) when compromise lists one. */
  ambiguity: string | undefined;
  /** Gender of a first name, when the lexicon says. */
  gender: 'female' | 'male' | undefined;
  /** True when the lexicon knows the word. */
  known: boolean;
}

interface CompromiseModel {
  one: { lexicon: Record<string, string | string[]> };
  two: {
    switches: Record<string, string>;
    suffixPatterns: Array<Record<string, string> | number | null>;
    orgWords: Record<string, unknown>;
    placeWords: Record<string, unknown>;
  };
}
interface CompromiseTransforms {
  verb: {
    toInfinitive(word: string, model: CompromiseModel, tense?: string): string;
    conjugate(word: string, model: CompromiseModel): Record<string, string | undefined>;
  };
  noun: { toSingular(word: string, model: CompromiseModel): string };
}
type LooksPlural = (word: string) => boolean;

/** Chat interjections compromise does not list. */
const INTERJECTIONS = new Set([
  'aww', 'awww', 'aw', 'congrats', 'congratulations', 'omg', 'lol', 'lmao', 'haha', 'hahaha', 'hehe', 'yay', 'ooh', 'oh',
  'ahh', 'hmm', 'yikes', 'woah', 'whoa', 'ugh', 'oops', 'phew', 'yep', 'nope', 'gosh', 'wow', 'hey', 'hi', 'hello',
  'thx', 'ty', 'btw', 'tbh', 'imo', 'omw', 'yup', 'cheers', 'bye', 'ok', 'okay', 'yeah',
]);
const AUX = new Set(['have', 'has', 'had', 'having', 'do', 'does', 'did', "'ve", "'d"]);
const tagOrder: ReadonlyArray<[string, Pos]> = [
  ['Possessive', 'possessive'],
  ['Pronoun', 'pronoun'],
  ['Reflexive', 'pronoun'],
  ['Determiner', 'determiner'],
  ['Preposition', 'preposition'],
  ['Conjunction', 'conjunction'],
  ['Copula', 'copula'],
  ['Modal', 'modal'],
  ['Negative', 'negative'],
  ['QuestionWord', 'question'],
  ['Expression', 'expression'],
  ['Emoticon', 'expression'],
  ['Month', 'date'],
  ['WeekDay', 'date'],
  ['Date', 'date'],
  ['Duration', 'date'],
  ['Cardinal', 'value'],
  ['Ordinal', 'value'],
  ['Value', 'value'],
  ['FemaleName', 'person'],
  ['MaleName', 'person'],
  ['FirstName', 'person'],
  ['LastName', 'person'],
  ['Person', 'person'],
  ['Honorific', 'person'],
  ['City', 'place'],
  ['Country', 'place'],
  ['Region', 'place'],
  ['Place', 'place'],
  ['Organization', 'org'],
  ['SportsTeam', 'org'],
  ['Gerund', 'gerund'],
  ['PastTense', 'past'],
  ['Participle', 'past'],
  ['Infinitive', 'verb'],
  ['PresentTense', 'verb'],
  ['Imperative', 'verb'],
  ['Verb', 'verb'],
  ['PhrasalVerb', 'verb'],
  ['Adverb', 'adverb'],
  ['Comparative', 'adjective'],
  ['Superlative', 'adjective'],
  ['Adjective', 'adjective'],
  ['Demonym', 'adjective'],
  ['Plural', 'plural'],
  ['Singular', 'noun'],
  ['Uncountable', 'noun'],
  ['Actor', 'noun'],
  ['Unit', 'noun'],
  ['Noun', 'noun'],
  ['ProperNoun', 'proper'],
];
const suffixTagPos: Readonly<Record<string, Pos>> = {
  Noun: 'noun', Singular: 'noun', Plural: 'plural', Adjective: 'adjective', Adverb: 'adverb', Verb: 'verb',
  Infinitive: 'verb', PresentTense: 'verb', PastTense: 'past', Gerund: 'gerund', Actor: 'noun',
  Person: 'proper', LastName: 'proper', Place: 'place', Organization: 'org', Modal: 'modal', Copula: 'copula',
};

/**
 * compromise's ambiguity classes as literals of this module. Its own strings are built when it
 * unpacks its model (not interned), while tagging compares classes with literals: the first
 * class string of the other kind to arrive would throw away the optimised tagging code.
 */
const ambiguityLiterals: ReadonlyMap<string, string> = new Map(
  ['Unit|Noun', 'Plural|Verb', 'Noun|Verb', 'Person|Noun', 'Adj|Noun', 'Adj|Past', 'Actor|Verb', 'Noun|Gerund', 'Person|Place', 'Adj|Gerund', 'Adj|Present', 'Person|Adj', 'Person|Verb', 'Person|Date'].map((kind) => [kind, kind]),
);
const asLiteral = (kind: string): string => ambiguityLiterals.get(kind) ?? kind;

/** The cached word-level view of compromise's model. */
export class Lexicon {
  private readonly words = new Map<string, WordInfo>();
  private readonly singulars = new Map<string, string>();
  private readonly thirdPersons = new Map<string, string>();
  private readonly infinitives = new Map<string, string>();

  constructor(
    private readonly model: CompromiseModel,
    private readonly transforms: CompromiseTransforms,
    private readonly looksPlural: LooksPlural,
  ) {}

  /** Part of speech and gender of a lower-case word, out of context. */
  info(lower: string): WordInfo {
    let info = this.words.get(lower);
    if (info === undefined) {
      info = this.lookUp(lower);
      this.words.set(lower, info);
    }
    return info;
  }

  private lookUp(lower: string): WordInfo {
    const ambiguity = Object.hasOwn(this.model.two.switches, lower) ? asLiteral(this.model.two.switches[lower] as string) : undefined;
    const raw = Object.hasOwn(this.model.one.lexicon, lower) ? this.model.one.lexicon[lower] : undefined;
    if (AUX.has(lower)) return { pos: 'aux', ambiguity, gender: undefined, known: true };
    if (INTERJECTIONS.has(lower)) return { pos: 'expression', ambiguity, gender: undefined, known: true };
    if (raw !== undefined) {
      const tags = typeof raw === 'string' ? [raw] : raw;
      const gender = tags.includes('FemaleName') ? 'female' : tags.includes('MaleName') ? 'male' : undefined;
      for (const [tag, pos] of tagOrder) if (tags.includes(tag)) return { pos, ambiguity, gender, known: true };
      return { pos: 'noun', ambiguity, gender, known: true };
    }
    if (/^\d/.test(lower)) return { pos: 'value', ambiguity, gender: undefined, known: false };
    if (/[^aeiou][ai]ble$/.test(lower)) return { pos: 'adjective', ambiguity, gender: undefined, known: false };
    if (lower.length > 3 && /[^su]s$/.test(lower) && this.looksPlural(lower)) return { pos: 'plural', ambiguity, gender: undefined, known: false };
    const patterns = this.model.two.suffixPatterns;
    for (let length = Math.min(lower.length - 1, patterns.length - 1); length >= 2; length--) {
      const table = patterns[length];
      if (table === null || typeof table !== 'object') continue;
      const suffix = lower.slice(-length);
      const tag = Object.hasOwn(table, suffix) ? table[suffix] : undefined;
      const pos = tag === undefined || !Object.hasOwn(suffixTagPos, tag) ? undefined : suffixTagPos[tag];
      if (pos !== undefined) return { pos, ambiguity, gender: undefined, known: false };
    }
    if (lower.length > 4 && /[^e]ed$/.test(lower)) return { pos: 'past', ambiguity, gender: undefined, known: false };
    return { pos: lower.endsWith('ing') ? 'gerund' : 'noun', ambiguity, gender: undefined, known: false };
  }

  /** The singular of a plural noun (`kids` → `kid`, `puppies` → `puppy`). */
  singular(lower: string): string {
    let out = this.singulars.get(lower);
    if (out === undefined) {
      out = this.transforms.noun.toSingular(lower, this.model) || lower;
      this.singulars.set(lower, out);
    }
    return out;
  }

  /** The third-person present of a base-form verb (`love` → `loves`, `go` → `goes`). */
  thirdPerson(lower: string): string {
    let out = this.thirdPersons.get(lower);
    if (out === undefined) {
      out = this.transforms.verb.conjugate(lower, this.model)['PresentTense'] ?? lower;
      this.thirdPersons.set(lower, out);
    }
    return out;
  }

  /** The infinitive of a verb form (`went` → `go`). */
  infinitive(lower: string): string {
    let out = this.infinitives.get(lower);
    if (out === undefined) {
      const pos = this.info(lower).pos;
      const tense = pos === 'past' ? 'PastTense' : pos === 'gerund' ? 'Gerund' : 'PresentTense';
      out = this.transforms.verb.toInfinitive(lower, this.model, tense) || lower;
      this.infinitives.set(lower, out);
    }
    return out;
  }

  /** True for a word the lexicon lists as a role or occupation (`teacher`, `nurse`, `mom`). */
  isActor(lower: string): boolean {
    const raw = Object.hasOwn(this.model.one.lexicon, lower) ? this.model.one.lexicon[lower] : undefined;
    return raw === 'Actor' || (Array.isArray(raw) && raw.includes('Actor'));
  }

  /** True for a word that ends organisation names (`bank`, `university`, …). */
  isOrgWord(lower: string): boolean {
    return Object.hasOwn(this.model.two.orgWords, lower);
  }

  /** True for a word that ends place names (`park`, `beach`, …). */
  isPlaceWord(lower: string): boolean {
    return Object.hasOwn(this.model.two.placeWords, lower);
  }
}

let loading: Promise<Lexicon> | undefined;

/**
 * Loads compromise once per process (about a second and a half: it expands its lexicon on load)
 * and returns the shared {@link Lexicon}. Later calls return the same instance.
 */
export function loadLexicon(): Promise<Lexicon> {
  loading ??= import('compromise/two').then((module) => {
    const nlp = module.default as unknown as {
      model(): CompromiseModel;
      methods(): { two: { transform: CompromiseTransforms; looksPlural: LooksPlural } };
    };
    const methods = nlp.methods().two;
    return new Lexicon(nlp.model(), methods.transform, (word) => methods.looksPlural(word));
  });
  return loading;
}
