export * from './memory-store.js';
export * from './navigator.js';
export * from './distiller.js';
export * from './embedder.js';
export * from './answerer.js';
