export type { Conversation, ConversationSession, ConversationTurn, BenchmarkQuestion } from './conversation.js';
export { sessionTurnUnits, turnText, turnUnitId } from './turn-units.js';
export * from './offline/index.js';
export * from './time/index.js';
export * from './loaders/index.js';
