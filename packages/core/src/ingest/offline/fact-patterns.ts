import type { Lexicon } from './lexicon.js';
import { isGenericNoun, kinOf } from './mentions.js';
import type { Token } from './tagged-text.js';

/** Aspects whose value replaces the previous one (a person has one home at a time). */
export const singleValuedAspects: ReadonlySet<string> = new Set(['home', 'origin', 'job', 'workplace', 'relationship']);

/** A fact read from one sentence said by the speaker about themself. */
export interface FactCandidate {
  /** The aspect: identity, job, workplace, hobby, family, pet, home, origin, preference, goal, health, education, relationship. */
  aspect: string;
  /** The value as said, lower case (`pottery`, `boston`, `husband john`). */
  value: string;
  /** The value normalised for comparison (head singularised, kinship normalised). */
  key: string;
  /** Sentence number within the message. */
  sentence: number;
}

type Mode = 'phrase' | 'activity' | 'clause' | 'group';
interface Pattern {
  pattern: RegExp;
  aspect: string | 'classify';
  mode: Mode;
  prefix?: string;
  list?: boolean;
}

const A = '(?:(?:really|also|just|now|recently|finally|actually|still|currently|totally|absolutely|always|even|so|officially|already) )*';
const I_AM = "(?:i'm|i am)";
const PETS = 'dogs?|cats?|pupp(?:y|ies)|pups?|kittens?|bunn(?:y|ies)|rabbits?|hamsters?|parrots?|birds?|turtles?|fish|horses?|guinea pigs?|snakes?|lizards?';
const KIN = 'husband|wife|sons?|daughters?|kids|children|child|sisters?|brothers?|mom|mum|mother|dad|father|parents|grandma|grandpa|grandmother|grandfather|boyfriend|girlfriend|partner|fiance|fiancée|fiancé|siblings|cousins?|aunt|uncle|niece|nephew|grandkids|grandchildren|stepmom|stepdad|twins';
const HEALTH = 'injury|allergy|allergies|condition|disease|cancer|diabetes|asthma|anxiety|depression|adhd|migraines?|surgery|flu|covid|arthritis|insomnia';
const IDENTITY_WORDS = 'transgender|trans|gay|lesbian|bisexual|bi|queer|nonbinary|non-binary|vegan|vegetarian|christian|muslim|jewish|buddhist|hindu|atheist|introverted|introvert|extroverted|extrovert|pregnant|retired|sober|adopted|autistic|deaf|blind|disabled';

// Sticky: every pattern is tried only where a first-person word starts (see `findFacts`).
const rx = (source: string) => new RegExp(source, 'y');
const PATTERNS: readonly Pattern[] = [
  { pattern: rx(`\\bi ${A}(?:moved|relocated|'ve moved|have moved) (?:back |over |here )?to `), aspect: 'home', mode: 'phrase' },
  { pattern: rx(`\\bi've ${A}(?:moved|relocated) (?:back )?to `), aspect: 'home', mode: 'phrase' },
  { pattern: rx(`\\b(?:i ${A}live|${I_AM} ${A}(?:living|based)) in `), aspect: 'home', mode: 'phrase' },
  { pattern: rx(`\\b${I_AM} ${A}(?:originally )?from `), aspect: 'origin', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:grew up|was born|was raised) in `), aspect: 'origin', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:moved|came|emigrated|immigrated) (?:here |over )?from `), aspect: 'origin', mode: 'phrase' },
  { pattern: rx(`\\bi(?:'ve| have) ${A}been (?=\\w+ing (?:a lot|lately|recently|more|regularly|every|for)\\b)`), aspect: 'hobby', mode: 'activity' },
  { pattern: rx(`\\bi ${A}(?:signed up for|joined|enrolled in) (?:a |an |the )?(?=(?:\\w+ )?(?:class|classes|course|club|team|group|league|workshop|choir|band|gym)\\b)`), aspect: 'hobby', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:volunteer|volunteered|have volunteered) (?:at|for|with) `), aspect: 'hobby', mode: 'phrase', prefix: 'volunteering at ' },
  { pattern: rx(`\\bi ${A}(?:play|practice|practise) (?:the )?`), aspect: 'hobby', mode: 'phrase', prefix: 'playing ' },
  { pattern: rx(`\\b(?:i ${A}work|${I_AM} ${A}working|i've ${A}been working) as (?:an? )?`), aspect: 'job', mode: 'phrase' },
  { pattern: rx(`\\b(?:i ${A}work|${I_AM} ${A}working|i've ${A}been working) (?:at|for) `), aspect: 'workplace', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:got|landed|started|accepted) (?:a |my |the )?(?:new )?(?:job|position|role) as (?:an? )?`), aspect: 'job', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:got|landed|started|accepted) (?:a |my |the )?(?:new )?(?:job|position|role) (?:at|with) `), aspect: 'workplace', mode: 'phrase' },
  { pattern: rx(`\\bmy (?:new )?job as (?:an? )?`), aspect: 'job', mode: 'phrase' },
  { pattern: rx(`\\b(?:i ${A}became|i've ${A}become) (?:an? )`), aspect: 'classify', mode: 'phrase' },
  { pattern: rx(`\\b${I_AM} ${A}(?:an? )(?!(?:big |huge |bit |little |lot )?(?:fan|bit|little|lot|fan)\\b)`), aspect: 'classify', mode: 'phrase' },
  { pattern: rx(`\\b${I_AM} ${A}(${IDENTITY_WORDS})\\b`), aspect: 'identity', mode: 'group' },
  { pattern: rx(`\\b${I_AM} ${A}(single|married|divorced|engaged|widowed|separated)\\b`), aspect: 'relationship', mode: 'group' },
  { pattern: rx(`\\b(?:i|we) ${A}(?:got|are|have been) ${A}(married|engaged|divorced)\\b`), aspect: 'relationship', mode: 'group' },
  { pattern: rx(`\\bwe're ${A}(married|engaged)\\b`), aspect: 'relationship', mode: 'group' },
  { pattern: rx(`\\b(?:i|we) ${A}(broke up|split up)\\b`), aspect: 'relationship', mode: 'group' },
  { pattern: rx(`\\b${I_AM} ${A}(?:dating|seeing|in a relationship with) `), aspect: 'relationship', mode: 'phrase', prefix: 'dating ' },
  { pattern: rx(`\\bmy (?:(?:new|little|older|younger|big|baby|eldest|oldest|youngest|two|three) )?(?=(?:${KIN})\\b)`), aspect: 'family', mode: 'phrase' },
  { pattern: rx(`\\bi (?:have|'ve got|got) (?=(?:an? |one |two |three |four |five |six |\\d+ )?(?:${KIN})\\b)`), aspect: 'family', mode: 'phrase' },
  { pattern: rx(`\\bmy (?:(?:pet|new|little|sweet|old|rescue|two|three) )*(?=(?:${PETS})\\b)`), aspect: 'pet', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:have|got|adopted|rescued|'ve got|bought) (?:an? |two |three |\\d+ |another )?(?:new |little |rescue )?(?=(?:${PETS})\\b)`), aspect: 'pet', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:love|enjoy|like|adore) (?=\\w+ing\\b)`), aspect: 'hobby', mode: 'activity', list: true },
  { pattern: rx(`\\b(?:i|we) ${A}(?:went|go|'ll go|will go|'re going|are going|'re off to go|are off to go) (?=\\w+ing\\b)`), aspect: 'hobby', mode: 'activity' },
  { pattern: rx(`\\b${I_AM} ${A}(?:going|off to go|heading out to go) (?=\\w+ing\\b)`), aspect: 'hobby', mode: 'activity' },
  { pattern: rx(`\\bwe ${A}(?:love|enjoy|like|adore) (?=\\w+ing\\b)`), aspect: 'hobby', mode: 'activity', list: true },
  { pattern: rx(`\\bi ${A}(?:started|began|took up|picked up|got into|'ve started|have started|tried) (?=\\w+ing\\b)`), aspect: 'hobby', mode: 'activity', list: true },
  { pattern: rx(`\\b(?:${I_AM}|i've been|i have been) ${A}(?:into|passionate about|obsessed with|hooked on) `), aspect: 'hobby', mode: 'activity', list: true },
  { pattern: rx(`\\bi ${A}(?:took up|picked up|got into) `), aspect: 'hobby', mode: 'activity' },
  { pattern: rx(`\\bmy (?:favorite |favourite )?hobb(?:y is|ies are|ies include) `), aspect: 'hobby', mode: 'activity', list: true },
  { pattern: rx(`\\bmy ${A}(?:favorite|favourite|fave) ((?:[a-z]+ ){1,2}?)(?:is|are|was|has to be|would be) `), aspect: 'preference', mode: 'phrase', prefix: 'favorite $1: ' },
  { pattern: rx(`\\bi ${A}(?:love|adore|enjoy|like) (?!\\w+ing\\b)(?!(?:you|your|his|her|their|it|that|this|them|to|how|what|when|the way|the idea)\\b)`), aspect: 'preference', mode: 'phrase', list: true },
  { pattern: rx(`\\bi ${A}(?:hate|dislike|can't stand|don't like|do not like) (?!(?:you|it|that|this|them|to|when|how)\\b)`), aspect: 'preference', mode: 'phrase', prefix: 'dislikes ' },
  { pattern: rx(`\\b${I_AM} ${A}(?:a )?(?:big |huge )?fan of `), aspect: 'preference', mode: 'phrase', prefix: 'fan of ' },
  { pattern: rx(`\\bi ${A}prefer `), aspect: 'preference', mode: 'phrase', prefix: 'prefers ' },
  { pattern: rx(`\\b(?:i ${A}(?:want|plan|hope|intend|aim)|i'd ${A}(?:love|like)|i would ${A}(?:love|like)) to `), aspect: 'goal', mode: 'clause' },
  { pattern: rx(`\\b${I_AM} ${A}(?:planning|hoping|aiming) to `), aspect: 'goal', mode: 'clause' },
  { pattern: rx(`\\bmy (?:goal|dream|plan) is to `), aspect: 'goal', mode: 'clause' },
  { pattern: rx(`\\b${I_AM} ${A}(?:studying|majoring in|minoring in|pursuing|enrolled in|taking (?:a |an )?(?:class|classes|course|courses) (?:in|on)) `), aspect: 'education', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:study|graduated from|graduated in|got (?:a |my )?degree in) `), aspect: 'education', mode: 'phrase' },
  { pattern: rx(`\\b${I_AM} ${A}allergic to `), aspect: 'health', mode: 'phrase', prefix: 'allergic to ' },
  { pattern: rx(`\\bi (?:have|had|was diagnosed with|suffer from|'ve been diagnosed with) (?:an? )?(?=(?:\\w+ ){0,2}(?:${HEALTH})\\b)`), aspect: 'health', mode: 'phrase' },
  { pattern: rx(`\\bi ${A}(?:broke|injured|hurt|sprained|twisted|fractured) my `), aspect: 'health', mode: 'phrase', prefix: 'injured ' },
];

/** One pass that tells whether any pattern can match, before trying them one by one. */
const ANY_PATTERN = new RegExp(PATTERNS.map((entry) => `(?:${entry.pattern.source})`).join('|'), 'y');
const SUBJECT_WORDS = new Set(['i', "i'm", "i've", "i'd", 'my', 'we', "we're"]);

/** Every pattern starts at a first-person word: a sentence without one holds no fact. */
function hasSubjectWord(tokens: ReadonlyArray<Token>, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (SUBJECT_WORDS.has((tokens[index] as Token).lower)) return true;
  return false;
}

const STOP_POS = new Set(['punct', 'conjunction', 'pronoun', 'copula', 'aux', 'modal', 'negative', 'question', 'date', 'expression', 'verb', 'past']);
const LEADING = new Set(['a', 'an', 'the', 'some', 'my', 'our', 'this', 'that', 'these', 'those', 'any']);
const TRAILING = new Set(['adverb', 'adjective', 'determiner', 'preposition', 'possessive', 'value']);
const NOT_A_JOB = new Set(['fan', 'lover', 'believer', 'member', 'beginner', 'person', 'bit', 'lot', 'friend', 'part', 'fighter', 'survivor', 'supporter', 'advocate', 'newbie', 'natural']);
const MAX_WORDS = 5;

function phraseAt(tokens: Token[], from: number, mode: Mode): [number, number] {
  let start = from;
  while (start < tokens.length && LEADING.has((tokens[start] as Token).lower)) start += 1;
  let end = start;
  const limit = mode === 'clause' ? 7 : MAX_WORDS;
  while (end < tokens.length && end - start < limit) {
    const token = tokens[end] as Token;
    if (token.pos === 'punct' || (token.pos === 'conjunction' && token.lower !== 'to')) break;
    if (mode !== 'clause') {
      if (token.pos === 'preposition' && !(token.lower === 'of' && end > start)) break;
      if ((token.pos === 'determiner' || token.pos === 'possessive') && end > start) break;
      if (STOP_POS.has(token.pos) && !(mode === 'activity' && end === start && token.pos === 'verb')) break;
      if (token.pos === 'adverb' && end > start) break;
    } else if (token.pos === 'date' || token.pos === 'question' || (token.pos === 'pronoun' && end > start + 1)) break;
    end += 1;
  }
  while (end > start && TRAILING.has((tokens[end - 1] as Token).pos)) end -= 1;
  return [start, end];
}

function normalise(words: string[], lexicon: Lexicon): string {
  const out = [...words];
  const last = out[out.length - 1];
  if (last !== undefined) {
    const info = lexicon.info(last);
    const plural = info.pos === 'plural' || (!info.known && /[^s]s$/.test(last));
    out[out.length - 1] = kinOf(last)?.[0] ?? (plural ? lexicon.singular(last) : last);
  }
  return out.join(' ');
}

/** Verbs too light to make a goal or a hobby of ("I want to tell you", "I love looking"). */
const LIGHT = new Set([
  'tell', 'say', 'ask', 'check', 'see', 'know', 'hear', 'thank', 'show', 'let', 'talk', 'chat', 'keep', 'try', 'go', 'get',
  'be', 'have', 'do', 'look', 'think', 'feel', 'find', 'give', 'take', 'come', 'catch', 'share', 'hang', 'meet', 'put',
  'send', 'wait', 'read', 'listen', 'watch', 'remember', 'mention', 'hope', 'need', 'want', 'use', 'stay', 'pass', 'make',
  'help', 'support', 'transition', 'connect', 'learn', 'spend',
]);

const VAGUE_ACTIVITIES = new Set(['hold', 'find', 'spend', 'play', 'practice', 'push', 'curl', 'sink', 'escape', 'break']);
const VAGUE_IDENTITIES = new Set(['mix', 'kind', 'sort', 'type', 'little', 'big', 'huge', 'shooting', 'mess', 'wreck', 'bundle']);

function acceptable(aspect: string, tokens: Token[], lexicon: Lexicon): boolean {
  const first = tokens[0];
  if (first === undefined) return false;
  const hasContent = tokens.some((token, index) => (index > 0 || aspect !== 'goal') && ['noun', 'plural', 'proper', 'person', 'place', 'org', 'gerund'].includes(token.pos));
  if (aspect === 'goal') return ['verb', 'gerund'].includes(first.pos) && !LIGHT.has(lexicon.infinitive(first.lower)) && hasContent;
  if (aspect === 'hobby') {
    if (!hasContent) return false;
    if (tokens.length > 1 || first.pos !== 'gerund') return true;
    // A lone gerund is a hobby when the lexicon also knows it as a noun ("painting", "hiking"),
    // not a general verb ("holding", "playing", "curling up").
    const lemma = lexicon.infinitive(first.lower);
    return lexicon.info(first.lower).ambiguity === 'Noun|Gerund' && !LIGHT.has(lemma) && !VAGUE_ACTIVITIES.has(lemma);
  }
  if (aspect === 'relationship') return tokens.length === 1 || tokens.some((token) => token.capital);
  if (aspect === 'identity') return !NOT_A_JOB.has(tokens[tokens.length - 1]?.lower ?? '') && !VAGUE_IDENTITIES.has(tokens[tokens.length - 1]?.lower ?? '');
  return true;
}

function classify(head: string, lexicon: Lexicon): string {
  if (kinOf(head) !== undefined) return 'family';
  if (NOT_A_JOB.has(head)) return 'identity';
  if (lexicon.isActor(head) || /(?:er|or|ist|ian|ant|ent|ee|eur)$/.test(head)) return 'job';
  return 'identity';
}

/**
 * Reads the speaker's stable facts from one message: first-person patterns ("I moved to …",
 * "I work as a …", "I love <activity>", "my husband …", "I'm allergic to …"), skipping questions
 * and conditionals. Each value is the phrase after the pattern, cut at the first clause boundary.
 */
export function findFacts(tokens: Token[], sentences: ReadonlyArray<[number, number]>, lexicon: Lexicon): FactCandidate[] {
  const found: FactCandidate[] = [];
  const seen = new Set<string>();
  sentences.forEach(([from, to], sentence) => {
    if (to <= from || tokens[to - 1]?.text.includes('?') || !hasSubjectWord(tokens, from, to)) return;
    const slice = tokens.slice(from, to);
    const offsets: number[] = [];
    let joined = '';
    for (const token of slice) {
      offsets.push(joined.length);
      joined += `${token.possessive ? `${token.lower}'s` : token.lower} `;
    }
    const starts = offsets.filter((_, index) => SUBJECT_WORDS.has((slice[index] as Token).lower)).filter((offset) => {
      ANY_PATTERN.lastIndex = offset;
      return ANY_PATTERN.test(joined);
    });
    if (starts.length === 0 || /\b(?:if|would you|do you|have you|did you)\b/.test(joined)) return;
    for (const { pattern, aspect, mode, prefix, list } of PATTERNS) {
      for (const offset of starts) {
        pattern.lastIndex = offset;
        const match = pattern.exec(joined);
        if (match === null) continue;
        if (mode === 'group') {
          push(aspect, (match[1] ?? '').trim(), sentence);
          continue;
        }
        let at = offsets.findIndex((offset) => offset >= match.index + match[0].length);
        while (at !== -1 && at < slice.length) {
          const [start, end] = phraseAt(slice, at, mode);
          if (end <= start) break;
          let stop = end;
          let keyStart = start;
          if (aspect === 'pet' || aspect === 'family') {
            // "my dog Max", "three kids": the value is the role word (a count before it and a name
            // after it are kept apart); "my daughter's birthday", "my dog bowl" are not about the role.
            while (keyStart < end - 1 && (slice[keyStart] as Token).pos === 'value') keyStart += 1;
            const role = slice[keyStart] as Token;
            const after = slice[keyStart + 1];
            if (role.possessive || (after !== undefined && !after.capital && ['noun', 'plural', 'gerund'].includes(after.pos))) break;
            stop = keyStart + 1;
          }
          const words = slice.slice(start, stop).map((token) => token.text.toLowerCase().replace(/'$/, ''));
          const keyWords = words.slice(keyStart - start);
          const head = words[words.length - 1] as string;
          if (words.length === 1 && isGenericNoun(head)) break;
          if (!acceptable(aspect, slice.slice(start, stop), lexicon)) break;
          const resolved = aspect === 'classify' ? classify(head, lexicon) : aspect;
          if (resolved === 'hobby' && mode === 'activity' && !slice.slice(start, end).some((token) => token.pos === 'gerund' || token.pos === 'noun' || token.pos === 'plural')) break;
          if (resolved === 'goal' && !['verb', 'gerund', 'past'].includes((slice[start] as Token).pos)) break;
          const named = stop < end ? slice.slice(stop, end).map((token) => token.lower).join(' ') : aspect === 'pet' || aspect === 'family' ? nameAfter(slice, end) : undefined;
          const label = (prefix ?? '').replace('$1', (match[1] ?? '').trim());
          push(resolved, `${label}${words.join(' ')}${named ? ` ${named}` : ''}`, sentence, `${label}${normalise(keyWords, lexicon)}`);
          const next = slice[end];
          if (!list || next === undefined || !(next.lower === 'and' || next.lower === ',')) break;
          at = end + 1;
        }
      }
    }
  });
  return found;

  function push(aspect: string, value: string, sentence: number, key = value): void {
    if (value.length === 0) return;
    const id = `${aspect}\u0000${key}`;
    if (seen.has(id)) return;
    seen.add(id);
    found.push({ aspect, value, key: aspect === 'preference' || aspect === 'goal' ? value : key, sentence });
  }
}

function nameAfter(tokens: Token[], index: number): string | undefined {
  let at = index;
  if (tokens[at]?.lower === 'named' || tokens[at]?.lower === 'called') at += 1;
  const token = tokens[at];
  return token !== undefined && token.capital && (token.pos === 'person' || token.pos === 'proper') ? token.lower : undefined;
}
