export { createOfflineDistiller, type OfflineDistillerOptions } from './offline-distiller.js';
export { loadLexicon } from './lexicon.js';
export { renderInterval } from './restate.js';
export { timeCueName } from './analyse-session.js';
export { cueId, tagId } from './graph-draft.js';
export { topicIdOf } from './build-topics.js';
export { kinOf } from './mentions.js';
export { singleValuedAspects } from './fact-patterns.js';
