export { createMappingOperators, type MappingOperators, type CueTagPair } from './mapping-operators.js';
