export { EngramError, InvalidInputError, StoreError, ModelError } from './engram-error.js';
export { parseInput, formatPath } from './parse-input.js';
