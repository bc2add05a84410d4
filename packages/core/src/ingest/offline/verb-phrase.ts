import type { Lexicon } from './lexicon.js';
import { isGenericNoun } from './mentions.js';
import type { Token } from './tagged-text.js';

/** Verbs that frame another clause ("I think I'll go camping"): the next verb is the main one. */
const FRAMING = new Set([
  'think', 'thought', 'know', 'knew', 'guess', 'mean', 'hope', 'bet', 'suppose', 'believe', 'feel', 'felt', 'wish',
  'say', 'said', 'tell', 'told', 'sound', 'sounds', 'seem', 'seems', 'look', 'looks', 'want', 'wanted', 'need', 'needed',
  'try', 'tried', 'decide', 'decided', 'get', 'got', 'gotta', 'gonna', 'wanna', 'let', 'keep', 'kept', 'start',
  'started', 'begin', 'began', 'love', 'like', 'loved', 'liked', 'glad', 'thank', 'thanks', 'appreciate', 'remember',
  'imagine', 'see', 'saw', 'hear', 'heard', 'can\'t', 'wait', 'manage', 'managed', 'plan', 'planned', 'going',
]);
const NOT_A_VERB = new Set(['thanks', 'thank', 'congrats', 'please', 'gonna', 'wanna', 'gotta', 'agree', 'bye', 'hope']);
const VERBS = new Set(['verb', 'past', 'gerund']);
const PARTICLES = new Set(['to', 'at', 'in', 'on', 'with', 'for', 'into', 'about', 'up', 'out', 'off', 'from', 'by', 'over', 'through', 'around']);
const SKIPPABLE = new Set(['determiner', 'possessive', 'adjective', 'adverb', 'value']);
const NOUNISH = new Set(['noun', 'plural', 'proper', 'person', 'place', 'org', 'gerund']);
const COPULA_FORMS: Readonly<Record<string, string>> = {
  am: 'is', is: 'is', are: 'is', "'m": 'is', was: 'was', were: 'was', been: 'been', be: 'be',
};

function objectAfter(tokens: Token[], from: number, lexicon: Lexicon): { particle: string | undefined; object: string | undefined } {
  let particle: string | undefined;
  let index = from;
  const limit = Math.min(tokens.length, from + 6);
  while (index < limit) {
    const token = tokens[index] as Token;
    if ((token.pos === 'preposition' || token.pos === 'conjunction') && PARTICLES.has(token.lower) && particle === undefined) {
      particle = token.lower;
      index += 1;
      continue;
    }
    if (SKIPPABLE.has(token.pos) || (token.pos === 'pronoun' && token.lower.endsWith("'s"))) {
      index += 1;
      continue;
    }
    if (NOUNISH.has(token.pos)) {
      let end = index;
      while (end < tokens.length && NOUNISH.has((tokens[end] as Token).pos) && end - index < 3) {
        end += 1;
        if ((tokens[end - 1] as Token).possessive) break;
      }
      // The last two nouns, singular, leading generic ones dropped (built by index: arrays made by
      // `map` and trimmed by `shift` change shape and cost re-optimisations here).
      const wordAt = (at: number) => {
        const part = tokens[at] as Token;
        return part.pos === 'plural' ? lexicon.singular(part.lower) : part.lower;
      };
      let first = Math.max(index, end - 2);
      while (end - first > 1 && isGenericNoun(wordAt(first))) first += 1;
      let object = wordAt(first);
      for (let at = first + 1; at < end; at++) object += ` ${wordAt(at)}`;
      return { particle, object: end - first === 1 && isGenericNoun(object) ? undefined : object };
    }
    break;
  }
  return { particle, object: undefined };
}

const CONTRACTED_COPULA = /^(?:i|you|we|they|he|she|it|that)'(m|re|s)$/;
/** Words after which a gerund is the main verb ("been painting", "started running"). */
const GERUND_FRAMES = new Set(['been', 'be', 'am', 'keep', 'kept', 'started', 'start', 'love', 'like', 'enjoy', 'go', 'went']);

/** True when a verb other than a framing one follows `from`. */
function framesVerb(tokens: ReadonlyArray<Token>, from: number): boolean {
  for (let index = from; index < tokens.length; index++) {
    const next = tokens[index] as Token;
    if (VERBS.has(next.pos) && !FRAMING.has(next.lower)) return true;
  }
  return false;
}

/**
 * The short associative label of a sentence: its main verb as said plus the head of its object
 * ("went to support group", "adopted puppy", "is counselor"). Framing verbs ("I think …",
 * "I want to …") give way to the verb they frame; a copula counts only when nothing else does.
 * Returns `undefined` for a sentence without a verb phrase.
 */
export function verbPhraseTag(tokens: ReadonlyArray<Token>, lexicon: Lexicon): string | undefined {
  const list = tokens as Token[];
  let copula: string | undefined;
  let fallback: string | undefined;
  for (let index = 0; index < list.length; index++) {
    const token = list[index] as Token;
    const contracted = token.lower.includes("'") ? CONTRACTED_COPULA.exec(token.lower) : null;
    if (copula === undefined && (token.pos === 'copula' || contracted !== null)) {
      const form = contracted !== null ? (contracted[1] === 's' ? 'is' : 'is') : (COPULA_FORMS[token.lower] ?? token.lower);
      const { object } = objectAfter(list, index + 1, lexicon);
      const adjective = list.slice(index + 1, index + 4).find((next) => next.pos === 'adjective' && !isGenericNoun(next.lower));
      if (object !== undefined) copula = `${form} ${object}`;
      else if (adjective !== undefined) copula = `${form} ${adjective.lower}`;
      continue;
    }
    if (!VERBS.has(token.pos) || NOT_A_VERB.has(token.lower)) continue;
    const previous = list[index - 1];
    if (token.pos === 'gerund' && previous !== undefined && previous.pos !== 'copula' && previous.pos !== 'pronoun' && !GERUND_FRAMES.has(previous.lower)) continue;
    const negated = previous !== undefined && (previous.pos === 'negative' || /n't$/.test(previous.lower));
    const { particle, object } = objectAfter(list, index + 1, lexicon);
    const phrase = [negated ? 'not' : undefined, token.lower, particle, object].filter((part) => part !== undefined).join(' ');
    if (FRAMING.has(token.lower) && framesVerb(list, index + 1)) {
      fallback ??= phrase;
      continue;
    }
    if (object === undefined && fallback === undefined) {
      fallback = phrase;
      continue;
    }
    return phrase;
  }
  return copula ?? fallback;
}
