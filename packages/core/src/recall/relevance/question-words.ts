/**
 * Words that frame a question rather than say what it is about: auxiliaries and the scaffolding of
 * "what kind of …", "has … ever …". The shared analyzer keeps them (they are not in the English
 * stop list), so in a query they match every turn that asks "how does …" or "what are you doing".
 * General English, not words of any data set.
 */
const scaffolding: ReadonlySet<string> = new Set([
  'does', 'doing', 'done', 'doesnt', 'dont', 'didnt',
  'kind', 'kinds', 'sort', 'sorts', 'type', 'types',
  'ever', 'usually', 'typically', 'currently', 'specific', 'particular',
  'mention', 'mentioned', 'mentions', 'say', 'said', 'tell', 'told', 'talk', 'talked',
]);

/** True when a (lower-cased) query word only frames the question. */
export function isQuestionScaffolding(word: string): boolean {
  return scaffolding.has(word);
}
