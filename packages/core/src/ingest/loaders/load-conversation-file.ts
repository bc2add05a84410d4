import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { isPlainObject, type LoadedConversations } from './loaded-conversations.js';
import { throwInputError } from './loader-issues.js';
import { parseChatJson, parseChatJsonl } from './parse-chat.js';
import { parseJsonText, tryParseJson } from './parse-json-text.js';
import { parseLocomo } from './parse-locomo.js';
import { parseLongMemEval } from './parse-longmemeval.js';

const gunzipAsync = promisify(gunzip);

/** The conversation formats Engram reads. */
export type ConversationFormat = 'locomo' | 'longmemeval' | 'json' | 'jsonl';

/** The formats `loadConversationFile` accepts; `auto` detects one of the others. */
export const conversationFormats = ['auto', 'locomo', 'longmemeval', 'json', 'jsonl'] as const;

/** Options of {@link loadConversationFile}. */
export interface LoadConversationFileOptions {
  /** Input format; @default 'auto' */
  format?: ConversationFormat | 'auto';
  /** Conversation id for chat logs; @default the file name without extensions */
  conversationId?: string;
}

/** A loaded file: its detected format, conversations and benchmark questions. */
export interface LoadedConversationFile extends LoadedConversations {
  /** The format the file was read as. */
  format: ConversationFormat;
}

/**
 * Decides the format of a parsed JSON value: LoCoMo samples (`sample_id` + `conversation`),
 * LongMemEval records (`haystack_sessions`), a JSON chat log (an array of messages with
 * `role`/`speaker`/`content`/`text`, or `{ messages }` / `{ sessions }`), `jsonl` for a lone message
 * object, else `undefined`.
 */
export function detectConversationFormat(value: unknown): ConversationFormat | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (Array.isArray(value) && value.length === 0) return 'json';
  if (!isPlainObject(first)) return undefined;
  if ('sample_id' in first && 'conversation' in first) return 'locomo';
  if ('haystack_sessions' in first) return 'longmemeval';
  if (!Array.isArray(value) && (Array.isArray(first.messages) || Array.isArray(first.sessions))) return 'json';
  const isMessage = ['role', 'speaker', 'content', 'text'].some((key) => key in first);
  // A lone message object is a one-line JSONL log.
  if (isMessage) return Array.isArray(value) ? 'json' : 'jsonl';
  return undefined;
}

/**
 * Reads a conversation file — LoCoMo, LongMemEval, a JSON chat log or a JSONL chat log, optionally
 * gzip-compressed (`.gz` or gzip magic bytes) — and parses it with the matching parser.
 *
 * With `format: 'auto'`, a `.jsonl` / `.ndjson` name (before `.gz`) means JSONL; otherwise the text is
 * parsed as JSON and the shape decides (see {@link detectConversationFormat}); text that is not one
 * JSON value but whose first line is, is read as JSONL.
 *
 * Every failure (unreadable file, malformed JSON with its line and column, unknown format, invalid
 * record) raises an InvalidInputError whose message starts with the path; nothing is returned then.
 */
export async function loadConversationFile(
  path: string,
  options: LoadConversationFileOptions = {},
): Promise<LoadedConversationFile> {
  const format = options.format ?? 'auto';
  if (!(conversationFormats as ReadonlyArray<string>).includes(format)) {
    throwInputError(path, `unknown format "${String(format)}": expected one of ${conversationFormats.join(', ')}`, {
      path: 'format',
    });
  }
  const text = await readText(path);
  const chatOptions = { source: path, ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }) };
  const name = path.replace(/\.gz$/i, '');

  if (format === 'jsonl' || (format === 'auto' && /\.(jsonl|ndjson)$/i.test(name))) {
    return { format: 'jsonl', ...parseChatJsonl(text, chatOptions) };
  }
  if (format === 'auto') {
    const parsed = tryParseJson(text);
    if (!('value' in parsed)) {
      if (looksLikeJsonLines(text)) return { format: 'jsonl', ...parseChatJsonl(text, chatOptions) };
      return throwInputError(`${path}:${parsed.error.line}:${parsed.error.column}`, `malformed JSON: ${parsed.error.reason}`, {
        cause: parsed.cause,
      });
    }
    const detected = detectConversationFormat(parsed.value);
    if (detected === undefined) {
      return throwInputError(
        path,
        'unknown conversation format: expected LoCoMo samples (sample_id + conversation), LongMemEval records ' +
          '(haystack_sessions), or a chat log (messages with role/speaker and content/text)',
      );
    }
    if (detected === 'jsonl') return { format: 'jsonl', ...parseChatJsonl(text, chatOptions) };
    return { format: detected, ...parseAs(detected, parsed.value, chatOptions) };
  }
  return { format, ...parseAs(format, parseJsonText(text, { source: path }), chatOptions) };
}

function parseAs(
  format: Exclude<ConversationFormat, 'jsonl'>,
  value: unknown,
  options: { source: string; conversationId?: string },
): LoadedConversations {
  if (format === 'locomo') return parseLocomo(value, { source: options.source });
  if (format === 'longmemeval') return parseLongMemEval(value, { source: options.source });
  return parseChatJson(value, options);
}

/** Several non-blank lines, the first of which is a JSON object on its own. */
function looksLikeJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  const first = lines[0];
  if (lines.length < 2 || first === undefined) return false;
  const parsed = tryParseJson(first);
  return 'value' in parsed && isPlainObject(parsed.value);
}

async function readText(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    return throwInputError(path, `cannot read file${typeof code === 'string' ? ` (${code})` : ''}`, { cause });
  }
  // Detect gzip by its magic bytes too, so a compressed file without `.gz` still loads.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // Large output chunks: the default 16 KiB makes decompressing tens of megabytes callback-bound.
      bytes = await gunzipAsync(bytes, { chunkSize: 1 << 20 });
    } catch (cause) {
      return throwInputError(path, `cannot decompress gzip data: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
      });
    }
  } else if (/\.gz$/i.test(path)) {
    return throwInputError(path, 'not gzip data (the file name ends in .gz)');
  }
  return bytes.toString('utf8');
}
