export { nounBaseForms, nounCompoundKinds, nounHyponyms, nounIsA, nounSynonyms, isAdjective, isNoun } from './wordnet.js';
