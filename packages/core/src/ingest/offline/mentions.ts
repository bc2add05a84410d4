import { isStopWord } from '../../search/analyzer.js';
import type { Lexicon, Pos } from './lexicon.js';
import type { TaggedText, Token } from './tagged-text.js';

/** What a mention refers to (the cue kinds the offline distiller produces). */
export type MentionKind = 'person' | 'place' | 'organisation' | 'thing' | 'entity';

/** A phrase of a message that names an entity or a salient thing. */
export interface Mention {
  /** Normalised name, head singularised (`support group`, `caroline`). */
  name: string;
  /** What it refers to. */
  kind: MentionKind;
  /** Sentence number within the message. */
  sentence: number;
  /** First token index. */
  start: number;
  /** Token index just past it. */
  end: number;
  /** Gender, for first names and kinship words. */
  gender: 'female' | 'male' | undefined;
  /** The possessor word before it (`my`, `your`, `her`, or a name written `X's`), lower case. */
  possessor: string | undefined;
  /** Normalised kinship role when the head is one (`mother`, `child`, …). */
  kin: string | undefined;
}

const KIN: Readonly<Record<string, [string, 'female' | 'male' | undefined]>> = {
  mom: ['mother', 'female'], mum: ['mother', 'female'], mommy: ['mother', 'female'], mama: ['mother', 'female'],
  mother: ['mother', 'female'], dad: ['father', 'male'], daddy: ['father', 'male'], papa: ['father', 'male'],
  father: ['father', 'male'], sister: ['sister', 'female'], sis: ['sister', 'female'], brother: ['brother', 'male'],
  bro: ['brother', 'male'], son: ['son', 'male'], daughter: ['daughter', 'female'], kid: ['child', undefined],
  kids: ['child', undefined], child: ['child', undefined], children: ['child', undefined], wife: ['wife', 'female'],
  husband: ['husband', 'male'], hubby: ['husband', 'male'], partner: ['partner', undefined],
  boyfriend: ['boyfriend', 'male'], girlfriend: ['girlfriend', 'female'], fiance: ['fiance', undefined],
  fiancé: ['fiance', undefined], fiancee: ['fiance', 'female'], grandma: ['grandmother', 'female'],
  granny: ['grandmother', 'female'], grandmother: ['grandmother', 'female'], nana: ['grandmother', 'female'],
  grandpa: ['grandfather', 'male'], grandfather: ['grandfather', 'male'], aunt: ['aunt', 'female'],
  uncle: ['uncle', 'male'], cousin: ['cousin', undefined], niece: ['niece', 'female'], nephew: ['nephew', 'male'],
  parents: ['parent', undefined], parent: ['parent', undefined], siblings: ['sibling', undefined],
  grandkids: ['grandchild', undefined], grandchildren: ['grandchild', undefined], friend: ['friend', undefined],
  friends: ['friend', undefined], bestie: ['friend', undefined], family: ['family', undefined],
};

/** Nouns too general to be a cue on their own. */
const GENERIC = new Set(
  ('thing things stuff lot lots bit way ways time times day days week weeks month months year years today tonight ' +
    'moment moments kind sort type part something anything everything nothing someone anyone everyone somebody ' +
    'anybody everybody one ones people person guy guys folks idea ideas life world place places reason question ' +
    'answer news update chat talk hey wow yeah omg lol haha hi hello bye thanks thank pic pics picture pictures photo ' +
    'photos end start deal point situation feeling feelings mind word words tip tips luck care sense matter fun ' +
    'journey experience experiences lots yes no ok okay sure congrats congratulations glad proud happy hard ' +
    'morning evening night weekend awesome amazing cool great nice good love step steps effort efforts ' +
    'example others other self lot while minute minutes hour hours bunch couple piece number reminder chance ' +
    'memory memories plan plans goal goals dream dreams hope hopes thought thoughts future past present look feel ' +
    'key check kinda sorta gonna wanna gotta forward difference sound sounds lot going doing getting having being saying ' +
    'thinking looking coming trying waiting pushing wait help back blast').split(' '),
);

const PROPER: ReadonlySet<Pos> = new Set(['person', 'place', 'org', 'proper']);
const COMMON: ReadonlySet<Pos> = new Set(['noun', 'plural']);
const GERUND_AFTER: ReadonlySet<Pos> = new Set(['verb', 'past', 'preposition', 'determiner', 'possessive']);
const OBJECT_START: ReadonlySet<Pos> = new Set(['noun', 'plural', 'determiner', 'possessive', 'proper']);
const BEING: ReadonlySet<string> = new Set(['been', 'be', 'am', 'is', 'are', 'was', 'were', "i'm", "you're", "we're", "they're"]);

const LETTER = /\p{L}/u;

function inSentence(tokens: ReadonlyArray<Token>, at: number, sentence: number): boolean {
  const token = tokens[at];
  return token !== undefined && token.sentence === sentence;
}

const NOT_IN_NAME: ReadonlySet<Pos> = new Set([
  'pronoun', 'possessive', 'determiner', 'preposition', 'conjunction', 'copula', 'aux', 'modal', 'negative', 'question', 'punct', 'expression', 'date', 'value',
]);

function inName(token: Token): boolean {
  return token.capital && !NOT_IN_NAME.has(token.pos) && token.text !== 'I';
}

// A name starts at a capitalised proper noun, or at any capitalised word inside a sentence that
// another capitalised word follows ("Red Cross", "Bright Futures Academy").
function startsName(tokens: Token[], index: number): boolean {
  const token = tokens[index] as Token;
  if (!inName(token)) return false;
  if (PROPER.has(token.pos)) return true;
  const next = tokens[index + 1];
  return !token.initial && !token.possessive && next !== undefined && next.sentence === token.sentence && inName(next);
}

/** The normalised kinship role of a word, with its gender, or `undefined`. */
export function kinOf(word: string): [string, 'female' | 'male' | undefined] | undefined {
  return Object.hasOwn(KIN, word) ? KIN[word] : undefined;
}

/** True for a noun too general to be a cue on its own (`thing`, `time`, `people`). */
export function isGenericNoun(word: string): boolean {
  return GENERIC.has(word) || isStopWord(word);
}

function possessorBefore(tokens: Token[], index: number, sentence: number): string | undefined {
  const before = tokens[index - 1];
  if (before === undefined || before.sentence !== sentence) return undefined;
  if (before.pos === 'possessive') return before.lower;
  if (before.possessive && PROPER.has(before.pos)) return before.lower;
  return undefined;
}

function properKind(tokens: Token[], lexicon: Lexicon): MentionKind {
  const last = tokens[tokens.length - 1] as Token;
  if (tokens.some((token) => token.pos === 'org') || lexicon.isOrgWord(last.lower)) return 'organisation';
  if (tokens.some((token) => token.pos === 'place') || lexicon.isPlaceWord(last.lower)) return 'place';
  const first = tokens[0] as Token;
  if (first.pos === 'person' && tokens.length <= 3 && tokens.every((token) => token.pos === 'person' || token.pos === 'proper')) return 'person';
  return 'entity';
}

/**
 * Finds the entities and salient things of a message: runs of capitalised names (people,
 * places, organisations, other proper names), compounds of common nouns (head singularised,
 * at most three words, generic nouns dropped), gerund activities (`went camping`) and kinship
 * phrases (`my sister` — kept with its possessor for pronoun resolution).
 */
export function findMentions(tagged: TaggedText, lexicon: Lexicon): Mention[] {
  const tokens = tagged.tokens;
  const mentions: Mention[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index] as Token;
    const sentence = token.sentence;
    const sameSentence = (at: number) => inSentence(tokens, at, sentence);
    if (startsName(tokens, index)) {
      let end = index + 1;
      while (end < tokens.length && sameSentence(end) && !(tokens[end - 1] as Token).possessive && inName(tokens[end] as Token)) end += 1;
      const run = tokens.slice(index, end);
      let name = token.lower;
      for (let at = index + 1; at < end; at++) name += ` ${(tokens[at] as Token).lower}`;
      const kind = properKind(run, lexicon);
      mentions.push({
        name, kind, sentence, start: index, end,
        gender: run.length === 1 ? token.gender : undefined,
        possessor: possessorBefore(tokens, index, sentence), kin: undefined,
      });
      // "LGBTQ support group": the name also modifies the common-noun compound that follows.
      let compoundEnd = end;
      while (!(tokens[end - 1] as Token).possessive && compoundEnd < tokens.length && sameSentence(compoundEnd)
        && COMMON.has((tokens[compoundEnd] as Token).pos) && !(tokens[compoundEnd] as Token).capital) {
        compoundEnd += 1;
      }
      if (compoundEnd > end) {
        pushCommon(mentions, tokens, Math.max(index, compoundEnd - 3), compoundEnd, possessorBefore(tokens, index, sentence), lexicon);
        index = compoundEnd;
        continue;
      }
      index = end;
      continue;
    }
    const previous = tokens[index - 1];
    const following = tokens[index + 1];
    // "went camping" is an activity; in "doing pottery" the object is the thing.
    const takesObject = following !== undefined && following.sentence === sentence && OBJECT_START.has(following.pos);
    const gerundActivity = token.pos === 'gerund' && !takesObject && previous !== undefined && previous.sentence === sentence
      && GERUND_AFTER.has(previous.pos) && !BEING.has(previous.lower);
    if (COMMON.has(token.pos) || gerundActivity) {
      let end = index + 1;
      while (end < tokens.length && sameSentence(end) && COMMON.has((tokens[end] as Token).pos) && !(tokens[end - 1] as Token).possessive) end += 1;
      pushCommon(mentions, tokens, Math.max(index, end - 3), end, possessorBefore(tokens, index, sentence), lexicon);
      index = end;
      continue;
    }
    index += 1;
  }
  return mentions;
}

function pushCommon(
  mentions: Mention[],
  tokens: Token[],
  from: number,
  to: number,
  possessor: string | undefined,
  lexicon: Lexicon,
): void {
  const head = tokens[to - 1] as Token;
  const sentence = head.sentence;
  const kin = to - from === 1 ? kinOf(head.lower) : undefined;
  if (kin !== undefined) {
    mentions.push({ name: kin[0], kind: 'person', sentence, start: from, end: to, gender: kin[1], possessor, kin: kin[0] });
    return;
  }
  const headWord = head.pos === 'plural' ? lexicon.singular(head.lower) : head.lower;
  // The words of the run, head singular, leading generic ones dropped (built by index: see `objectAfter`).
  const last = to - 1;
  let first = from;
  while (first < last && isGenericNoun((tokens[first] as Token).lower)) first += 1;
  if (first === last && (isGenericNoun(headWord) || isGenericNoun(head.lower) || headWord.length < 3)) return;
  let name = '';
  for (let at = first; at < last; at++) name += `${(tokens[at] as Token).lower} `;
  name += headWord;
  if (!LETTER.test(name)) return;
  mentions.push({ name, kind: 'thing', sentence, start: from, end: to, gender: undefined, possessor, kin: undefined });
}
