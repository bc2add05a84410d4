export * from './scope.js';
export * from './time.js';
export * from './context.js';
export * from './units.js';
export * from './graph.js';
export * from './batch.js';
export * from './ids.js';
