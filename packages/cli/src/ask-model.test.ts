import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, fixture, parseJson, runEngram } from './__fixtures__/run-engram.js';

/** A fake OpenAI-compatible server on 127.0.0.1 that answers every chat completion with one line. */
function fakeModelServer() {
  const prompts: string[] = [];
  const server: Server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body) as { model: string; messages: Array<{ content: string }> };
    prompts.push(parsed.messages.map((message) => message.content).join('\n'));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: parsed.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Your cat is called Miso.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 321, completion_tokens: 7, total_tokens: 328 },
    }));
  });
  return { server, prompts };
}

describe('engram ask with a model', () => {
  const fake = fakeModelServer();
  let directory = '';
  let env: Record<string, string> = {};
  beforeAll(async () => {
    assertBuilt();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    env = { ENGRAM_ANSWER_MODEL: 'openai-compatible:fake-model', ENGRAM_BASE_URL: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1` };
    directory = await mkdtemp(join(tmpdir(), 'engram-ask-model-'));
    const ingest = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice'], { cwd: directory });
    expect(ingest.code).toBe(0);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
    await rm(directory, { recursive: true, force: true });
  });

  it('prints the model\'s answer above the evidence, which reached the model with its coordinates', async () => {
    const run = await runEngram(['ask', 'What is my cat called?', '--user', 'alice', '--k', '3'], { cwd: directory, env });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Answer: Your cat is called Miso.');
    expect(run.stderr).not.toMatch(/no model configured/);
    expect(run.stderr).toContain('model: 1 call, 321 input / 7 output tokens');
    expect(fake.prompts.at(-1)).toMatch(/\[\d{1,2} [A-Z][a-z]+ \d{4}[;\]]/);
  });

  it('puts the answer and the model usage in the JSON', async () => {
    const json = parseJson(await runEngram(['ask', 'What is my cat called?', '--user', 'alice', '--json'], { cwd: directory, env }));
    expect(json.answer).toBe('Your cat is called Miso.');
    expect(json.model).toEqual({ answerer: 'llm:openai-compatible.chat/fake-model', usage: { calls: 1, inputTokens: 321, outputTokens: 7 } });
    expect(json.evidence.length).toBeGreaterThan(0);
  });

  it('reads models from engram.config.json and rejects a malformed choice as a usage error', async () => {
    await writeFile(join(directory, 'engram.config.json'), JSON.stringify({ models: { answer: 'openai-compatible:fake-model' } }));
    try {
      const fromConfig = await runEngram(['ask', 'What is my cat called?', '--user', 'alice'], { cwd: directory, env: { ENGRAM_BASE_URL: env.ENGRAM_BASE_URL as string } });
      expect(fromConfig.stdout.split('\n')[0]).toBe('Answer: Your cat is called Miso.');
      const bad = await runEngram(['ask', 'cat', '--user', 'alice'], { cwd: directory, env: { ENGRAM_MODEL: 'gpt-4' } });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('ENGRAM_MODEL: expected <provider>:<model id>');
    } finally {
      await rm(join(directory, 'engram.config.json'));
    }
  });
});

describe('engram ingest with a distilling model', () => {
  const fake = fakeModelServer();
  let directory = '';
  beforeAll(async () => {
    assertBuilt();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    directory = await mkdtemp(join(tmpdir(), 'engram-ingest-model-'));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => fake.server.close(() => resolve()));
    await rm(directory, { recursive: true, force: true });
  });

  it('asks the model, repairs once, falls back to the offline distiller for output that stays invalid, and loses no turn', async () => {
    const env = { ENGRAM_DISTILL_MODEL: 'openai-compatible:fake-model', ENGRAM_BASE_URL: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1` };
    const first = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice', '--store', 'with-model', '--json'], { cwd: directory, env });
    expect(first.code, first.stderr).toBe(0);
    // The fake model answers every call with one line of prose, never the distiller's JSON: each batch is asked, repaired once, then falls back.
    expect(first.stderr).toMatch(/warning: model distiller repairing session/);
    expect(first.stderr).toMatch(/warning: model distiller fell back to the offline distiller for session/);
    expect(fake.prompts.length).toBeGreaterThanOrEqual(2);
    expect(fake.prompts.length % 2).toBe(0);
    expect(first.stderr).toContain(`model: ${fake.prompts.length} calls, ${321 * fake.prompts.length} input / ${7 * fake.prompts.length} output tokens`);
    const offline = parseJson(await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice', '--store', 'offline', '--json'], { cwd: directory }));
    expect(parseJson(first).total).toEqual(offline.total);
    // Turns already stored are not sent again.
    const calls = fake.prompts.length;
    const rerun = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice', '--store', 'with-model'], { cwd: directory, env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(fake.prompts.length).toBe(calls);
  });
});
