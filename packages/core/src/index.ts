export * from './errors/index.js';
export * from './model/index.js';
export * from './ports/index.js';
export * from './search/index.js';
export * from './store-kit/index.js';
