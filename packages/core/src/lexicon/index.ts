export { nounBaseForms, nounHyponyms, nounSynonyms, isNoun } from './wordnet.js';
