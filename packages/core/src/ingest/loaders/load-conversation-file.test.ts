import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddInput } from '../../engram/add-input.js';
import { catchInputErrorAsync } from './__fixtures__/catch-input-error.js';
import { detectConversationFormat, loadConversationFile, type LoadConversationFileOptions } from './load-conversation-file.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'engram-loaders-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function writeTemp(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}

describe('loadConversationFile', () => {
  it.each([
    ['locomo-mini.json', 'locomo', 2, 8],
    ['longmemeval-mini.json', 'longmemeval', 2, 2],
    ['chat-messages.json', 'json', 1, 0],
    ['chat-sessions.json', 'json', 1, 0],
    ['chat.jsonl', 'jsonl', 1, 0],
  ])('detects %s as %s', async (name, format, conversations, questions) => {
    const loaded = await loadConversationFile(fixture(name));
    expect(loaded.format).toBe(format);
    expect(loaded.conversations).toHaveLength(conversations);
    expect(loaded.questions).toHaveLength(questions);
  });

  it('gives engram.add only what it accepts, blank benchmark turns left out', async () => {
    const locomo = JSON.parse(readFileSync(fixture('locomo-mini.json'), 'utf8')) as Array<{ conversation: Record<string, unknown[]> }>;
    locomo[0]?.conversation.session_1?.push({ speaker: 'Bob', dia_id: 'D1:9', text: '' });
    const longMemEval = JSON.parse(readFileSync(fixture('longmemeval-mini.json'), 'utf8')) as Array<{ haystack_sessions: unknown[][] }>;
    longMemEval[0]?.haystack_sessions[0]?.push({ role: 'user', content: '' });
    const paths = [
      await writeTemp('blank-locomo.json', JSON.stringify(locomo)),
      await writeTemp('blank-longmemeval.json.gz', gzipSync(JSON.stringify(longMemEval))),
      fixture('chat-messages.json'),
      fixture('chat-sessions.json'),
      fixture('chat.jsonl'),
    ];
    for (const path of paths) {
      for (const conversation of (await loadConversationFile(path)).conversations) {
        expect(() => parseAddInput(conversation, { now: () => new Date('2024-01-01T00:00:00Z') })).not.toThrow();
      }
    }
  });

  it('names a chat conversation after its file', async () => {
    const loaded = await loadConversationFile(fixture('chat.jsonl'));
    expect(loaded.conversations[0]?.id).toBe('chat');
    const named = await loadConversationFile(fixture('chat.jsonl'), { conversationId: 'alice' });
    expect(named.conversations[0]?.id).toBe('alice');
  });

  it('reads gzip files, by extension or by their magic bytes', async () => {
    const compressed = gzipSync(readFileSync(fixture('locomo-mini.json')));
    const expected = await loadConversationFile(fixture('locomo-mini.json'));
    for (const name of ['locomo.json.gz', 'locomo.data']) {
      const loaded = await loadConversationFile(await writeTemp(name, compressed));
      expect(loaded).toEqual(expected);
    }
    const jsonl = await loadConversationFile(await writeTemp('chat.jsonl.gz', gzipSync(readFileSync(fixture('chat.jsonl')))));
    expect(jsonl.format).toBe('jsonl');
  });

  it('reads JSON lines whatever the extension, and a lone message as a one-line log', async () => {
    const lines = await loadConversationFile(await writeTemp('chat.log', readFileSync(fixture('chat.jsonl'))));
    expect(lines.format).toBe('jsonl');
    expect(lines.conversations[0]?.sessions.map((session) => session.turns.length)).toEqual([2, 1]);
    const lone = await loadConversationFile(await writeTemp('one.json', '{"role": "user", "content": "Hi"}\n'));
    expect(lone.format).toBe('jsonl');
  });

  it('honours an explicit format', async () => {
    const path = fixture('longmemeval-mini.json');
    const error = await catchInputErrorAsync(() => loadConversationFile(path, { format: 'locomo' }));
    expect(error.message).toBe(`${path}: record 1: invalid sample_id: missing (expected string) (and 3 more issues)`);
  });

  it('reports the line and column of malformed JSON', async () => {
    const path = fixture('bad-malformed.json');
    const error = await catchInputErrorAsync(() => loadConversationFile(path));
    expect(error.message).toBe(`${path}:8:5: malformed JSON: unexpected character "\\"": expected ',' or '}' after a property value`);
  });

  it('reports the record and field path of an invalid record, and returns nothing', async () => {
    const locomo = fixture('bad-locomo.json');
    const error = await catchInputErrorAsync(() => loadConversationFile(locomo));
    expect(error.message).toBe(
      `${locomo}: record 3 (broken-3): invalid conversation.session_2[1].text: expected string, received number`,
    );
    const longMemEval = fixture('bad-longmemeval.json');
    expect((await catchInputErrorAsync(() => loadConversationFile(longMemEval))).message).toBe(
      `${longMemEval}: record 1 (q-missing-dates): invalid haystack_dates: missing (expected array)`,
    );
  });

  it('reports the line of a bad JSONL message', async () => {
    const path = fixture('bad-chat.jsonl');
    const error = await catchInputErrorAsync(() => loadConversationFile(path));
    expect(error.message).toBe(`${path}:3: invalid content: expected string, received number (and 2 more issues)`);
  });

  it('rejects unknown formats, unreadable files and fake gzip clearly', async () => {
    const unknown = fixture('bad-unknown-format.json');
    expect((await catchInputErrorAsync(() => loadConversationFile(unknown))).message).toBe(
      `${unknown}: unknown conversation format: expected LoCoMo samples (sample_id + conversation), ` +
        'LongMemEval records (haystack_sessions), or a chat log (messages with role/speaker and content/text)',
    );
    const options = { format: 'xml' } as unknown as LoadConversationFileOptions;
    const badFormat = await catchInputErrorAsync(() => loadConversationFile(unknown, options));
    expect(badFormat.message).toBe(`${unknown}: unknown format "xml": expected one of auto, locomo, longmemeval, json, jsonl`);
    expect(badFormat.path).toBe('format');
    const missing = join(directory, 'missing.json');
    expect((await catchInputErrorAsync(() => loadConversationFile(missing))).message).toBe(`${missing}: cannot read file (ENOENT)`);
    const fake = await writeTemp('fake.json.gz', '[]');
    expect((await catchInputErrorAsync(() => loadConversationFile(fake))).message).toBe(
      `${fake}: not gzip data (the file name ends in .gz)`,
    );
  });
});

describe('detectConversationFormat', () => {
  it('tells the formats apart by their keys', () => {
    expect(detectConversationFormat([{ sample_id: 'a', conversation: {} }])).toBe('locomo');
    expect(detectConversationFormat({ haystack_sessions: [] })).toBe('longmemeval');
    expect(detectConversationFormat([{ role: 'user', content: 'hi' }])).toBe('json');
    expect(detectConversationFormat({ sessions: [] })).toBe('json');
    expect(detectConversationFormat([])).toBe('json');
    expect(detectConversationFormat({ speaker: 'Ann', text: 'hi' })).toBe('jsonl');
    expect(detectConversationFormat([1, 2])).toBeUndefined();
    expect(detectConversationFormat('text')).toBeUndefined();
  });
});
