import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnvironment, fixture, parseJson, runEngram, type EngramRun } from './__fixtures__/run-engram.js';

// Every bad input ends with exit code 1 (or 2 for a bad command line), one line on stderr naming
// what is wrong and where, and a store that holds exactly what it held before.

let cwd: string;
let store: string;
let before: { stats: unknown; users: string; evidence: unknown };

async function snapshot(): Promise<typeof before> {
  const stats = parseJson(await runEngram(['stats', '--json'], { cwd })).users;
  const evidence = parseJson(await runEngram(['ask', 'marathon', '--user', 'bob', '--json', '--strategy', 'similarity'], { cwd })).evidence.map((item: { id: string }) => item.id);
  return { stats, users: await readFile(join(store, 'users.json'), 'utf8'), evidence };
}

function expectOneLineError(run: EngramRun, codes: number[], ...fragments: string[]): void {
  expect(codes, `exit code ${run.code}; stderr: ${run.stderr}`).toContain(run.code);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^engram ingest: /);
  for (const fragment of fragments) expect(lines[0]).toContain(fragment);
  expect(run.stdout).toBe('');
}

beforeAll(async () => {
  assertBuilt();
  cwd = await mkdtemp(join(tmpdir(), 'engram-errors-'));
  store = join(cwd, '.engram');
  const ingest = await runEngram(['ingest', fixture('bob-chat.jsonl'), '--user', 'bob'], { cwd });
  expect(ingest.code, ingest.stderr).toBe(0);
  await writeFile(join(cwd, 'broken.jsonl'), '{"role":"user","content":"fine"}\n{"role":"user","content":"unterminated}\n');
  await writeFile(join(cwd, 'broken.json'), '[\n  {"role": "user", "content": "a"},\n  {"role": "user" "content": "b"}\n]\n');
  await writeFile(join(cwd, 'shapeless.json'), '{"hello": "world"}\n');
  await writeFile(join(cwd, 'bad-field.jsonl'), '{"role":"user","content":"fine"}\n{"role":"user","content":42}\n');
  await writeFile(join(cwd, 'plain-file'), 'not a directory\n');
  before = await snapshot();
});

afterAll(async () => {
  if (cwd !== undefined) await rm(cwd, { recursive: true, force: true });
});

describe('bad input leaves the store unchanged', () => {
  it('a missing file', async () => {
    const run = await runEngram(['ingest', fixture('alice-chat.jsonl'), 'nowhere.jsonl', '--user', 'alice'], { cwd });
    expectOneLineError(run, [1], 'nowhere.jsonl', 'cannot read file (ENOENT)');
  });

  it('malformed JSON Lines: the error names the line', async () => {
    const run = await runEngram(['ingest', fixture('alice-chat.jsonl'), 'broken.jsonl', '--user', 'alice'], { cwd });
    expectOneLineError(run, [1], 'broken.jsonl:2:', 'malformed JSON');
  });

  it('malformed JSON: the error names the line and column', async () => {
    const run = await runEngram(['ingest', 'broken.json', '--user', 'alice'], { cwd });
    expectOneLineError(run, [1], 'broken.json:3:', 'malformed JSON');
  });

  it('a record with a bad field: the error names the line and the field', async () => {
    const run = await runEngram(['ingest', 'bad-field.jsonl', '--user', 'alice'], { cwd });
    expectOneLineError(run, [1], 'bad-field.jsonl:2', 'content');
  });

  it('a file in no known format', async () => {
    const run = await runEngram(['ingest', 'shapeless.json', '--user', 'alice'], { cwd });
    expectOneLineError(run, [1], 'shapeless.json', 'unknown conversation format');
  });

  it('an unknown --format', async () => {
    const run = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--format', 'xml', '--user', 'alice'], { cwd });
    expectOneLineError(run, [2], '--format', '"xml"', 'locomo');
  });

  it('a store path under a regular file', async () => {
    const run = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--store', join(cwd, 'plain-file', 'store')], { cwd });
    expectOneLineError(run, [1], join(cwd, 'plain-file', 'store'), 'ENOTDIR');
    expect(await readFile(join(cwd, 'plain-file'), 'utf8')).toBe('not a directory\n');
  });

  it('a store another process is writing to', async () => {
    const holder = spawn(process.execPath, [fixture('hold-writer.mjs'), store], { env: cleanEnvironment(), stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: holder.stdout });
      const [first] = (await once(lines, 'line')) as [string];
      expect(first).toBe('ready');
      const run = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice'], { cwd });
      expectOneLineError(run, [1], store, 'being written by another process', `pid ${holder.pid}`);
      // Readers still work beside the writer.
      const stats = await runEngram(['stats', '--json'], { cwd });
      expect(stats.code, stats.stderr).toBe(0);
    } finally {
      const exited = once(holder, 'exit');
      holder.stdin.end();
      await exited;
    }
  });

  it('after all of the above, the store holds what it held before', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
