export * from './memory-store.js';
