export { parseLocomo, normalizeLocomoEvidence, locomoCategories } from './parse-locomo.js';
export { parseLongMemEval } from './parse-longmemeval.js';
export { parseChatJson, parseChatJsonl, type ChatLoaderOptions } from './parse-chat.js';
export {
  loadConversationFile,
  detectConversationFormat,
  conversationFormats,
  type ConversationFormat,
  type LoadConversationFileOptions,
  type LoadedConversationFile,
} from './load-conversation-file.js';
export { parseSessionDateTime, normalizeTimestamp } from './parse-session-date-time.js';
export { parseJsonText, findJsonSyntaxError, type JsonSyntaxError } from './parse-json-text.js';
export type { LoadedConversations, LoaderOptions } from './loaded-conversations.js';
