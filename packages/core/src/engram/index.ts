export { createEngram, type Engram, type EngramOptions, type AddOptions } from './create-engram.js';
export { parseAddInput, type AddInput, type MessageInput } from './add-input.js';
export { ingestSession, type AddCounts } from './ingest-session.js';
export { storeMemoryView } from './store-memory-view.js';
