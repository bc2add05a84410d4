import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngram, type Unit } from '@engram/core';
import { createMemoryStore } from '@engram/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anaAndBen } from '../__fixtures__/mock-replies.js';
import { createModelSuite } from '../model-suite.js';

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string | null }>;
  tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name?: string; schema: { properties?: Record<string, unknown> } } };
}

/** A fake OpenAI-compatible chat completions server: it answers by the kind of request it gets. */
function fakeServer() {
  const requests: ChatRequest[] = [];
  const authorizations = new Set<string | undefined>();
  const usage = { prompt: 0, completion: 0 };
  const read = async (request: IncomingMessage) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    return JSON.parse(body) as ChatRequest;
  };
  const distill = (prompt: string) => {
    const lines = [...prompt.matchAll(/^\[(\d+)\] ([^:]+): (.*)$/gm)];
    return {
      episodes: lines.map(([, index, speaker, text]) => ({
        turns: [Number(index)],
        tag: `${speaker} said`,
        text: `${speaker} said: ${text}`,
        eventTime: null,
        times: [],
        location: null,
        cues: [...new Set((text ?? '').match(/\b[A-Z][a-z]{2,}\b/g) ?? [])].map((name) => ({ name, kind: 'entity', tag: null, turns: [Number(index)] })),
        topic: /pottery/i.test(text ?? '') ? 'pottery' : null,
      })),
      facts: [],
      aliases: [],
    };
  };
  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    requests.push(body);
    authorizations.add(request.headers.authorization);
    const prompt = body.messages.map((message) => message.content ?? '').join('\n');
    const schema = body.response_format?.json_schema?.schema.properties ?? {};
    let message: Record<string, unknown>;
    if (body.tools) {
      message = prompt.includes('Executed: nothing yet')
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: 'Ana move city' }) } }] }
        : { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'stop', arguments: JSON.stringify({ reason: 'found the move' }) } }] };
    } else if ('episodes' in schema) {
      message = { role: 'assistant', content: JSON.stringify(distill(prompt)) };
    } else if ('keep' in schema) {
      message = { role: 'assistant', content: JSON.stringify({ keep: ['c0', 'c1', 'c2'], reason: 'closest to the question' }) };
    } else {
      message = { role: 'assistant', content: 'Lyon' };
    }
    const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
    const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
    usage.prompt += promptTokens;
    usage.completion += completionTokens;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: body.tools ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    }));
  });
  return { server, requests, usage, authorizations };
}

describe('an OpenAI-compatible server over real HTTP', () => {
  const fake = fakeServer();
  let baseURL = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  it('ingests, recalls actively and answers through @ai-sdk/openai, with request bodies and tokens accounted', async () => {
    const suite = createModelSuite({ env: { ENGRAM_MODEL: 'openai-compatible:fake-model', ENGRAM_BASE_URL: baseURL, ENGRAM_API_KEY: 'test-key' }, maxRetries: 0 });
    const store = createMemoryStore();
    const engram = createEngram({ store, ...(suite.distiller ? { distiller: suite.distiller } : {}), ...(suite.navigator ? { navigator: suite.navigator } : {}) });
    await engram.add(anaAndBen, { userId: 'ana' });
    const ingestUsage = suite.meter.total();
    expect(ingestUsage.calls).toBe(2);

    const episodes = await store.listUnits({ userId: 'ana' }, { kinds: ['episode'], limit: 100 });
    expect(episodes.map((episode: Unit) => episode.text)).toContain('[2024-06-02] Ana said: Big news: I moved to Lyon yesterday for a new job.');
    const [lyon] = await store.findCues({ userId: 'ana' }, ['lyon']);
    expect(lyon).toBeDefined();

    const recall = await engram.recall('Which city did Ana move to?', { scope: { userId: 'ana' }, k: 5 });
    expect(recall.trace.map((step) => step.action)).toEqual(['induce-frame', 'select', 'expand', 'route', 'select', 'stop']);
    expect(recall.evidence.length).toBeGreaterThan(0);
    const { answer } = await suite.answerer!.answer({ question: 'Which city did Ana move to?', evidence: recall.evidence });
    expect(answer).toBe('Lyon');

    // What went over the wire: the distiller's JSON schema, the toolkit offered as tools, the bearer key.
    const [distillRequest] = fake.requests;
    expect(distillRequest?.model).toBe('fake-model');
    expect(distillRequest?.response_format?.type).toBe('json_schema');
    expect(Object.keys(distillRequest?.response_format?.json_schema?.schema.properties ?? {})).toEqual(['episodes', 'facts', 'aliases']);
    const selectRequest = fake.requests.find((request) => request.tools !== undefined);
    expect(selectRequest?.tools?.map((tool) => tool.function.name)).toEqual(['search', 'query_tag_events', 'query_conversation_time', 'query_event_context', 'query_personal_aspect', 'query_topic_events', 'cue_tags', 'pair_contents', 'content_pairs', 'stop']);
    expect(selectRequest?.tool_choice).toBe('required');
    expect([...fake.authorizations]).toEqual(['Bearer test-key']);
    const answerRequest = fake.requests.at(-1);
    expect(answerRequest?.messages.at(-1)?.content).toMatch(/\[2 June 2024/);

    // Every call and token the server reported is counted, and nothing else.
    expect(fake.requests).toHaveLength(6);
    expect(suite.meter.total()).toEqual({ calls: 6, inputTokens: fake.usage.prompt, outputTokens: fake.usage.completion });
    expect(suite.meter.of('navigate').calls).toBe(3);
    expect(suite.meter.of('answer').calls).toBe(1);
  });
});
