export { createMemoryStore, type MemoryStoreInstance, type MemoryStoreOptions, type MemoryStoreWithInstance } from './memory-store.js';
export type { Owners, TenantState } from './tenant-state.js';
