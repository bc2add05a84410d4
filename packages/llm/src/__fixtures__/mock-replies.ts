import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import type { Conversation } from '@engram/core';

/** A provider usage report. */
export function usage(input: number, output: number): LanguageModelV4GenerateResult['usage'] {
  return { inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: output, text: output, reasoning: undefined } };
}

/** A text reply (JSON replies are text too). */
export function textReply(text: string, tokens: [number, number] = [100, 20]): LanguageModelV4GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(...tokens), warnings: [] };
}

/** A JSON reply. */
export function jsonReply(value: unknown, tokens: [number, number] = [100, 20]): LanguageModelV4GenerateResult {
  return textReply(JSON.stringify(value), tokens);
}

/** A reply that calls tools. */
export function toolCallsReply(calls: Array<{ name: string; input: unknown }>, tokens: [number, number] = [100, 20]): LanguageModelV4GenerateResult {
  return {
    content: calls.map((call, index) => ({ type: 'tool-call' as const, toolCallId: `call-${index}`, toolName: call.name, input: JSON.stringify(call.input) })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(...tokens),
    warnings: [],
  };
}

/** A mock model answering each call with the next of `replies` (a function reply sees the call). */
export function scriptedModel(
  replies: Array<LanguageModelV4GenerateResult | Error | ((call: LanguageModelV4CallOptions) => LanguageModelV4GenerateResult)>,
  modelId = 'scripted',
): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    provider: 'mock',
    modelId,
    doGenerate: async (call) => {
      const reply = replies[Math.min(next++, replies.length - 1)];
      if (reply === undefined) throw new Error('no scripted reply');
      if (reply instanceof Error) throw reply;
      return typeof reply === 'function' ? reply(call) : reply;
    },
  });
}

/** The text of every user message of a call's prompt. */
export function promptText(call: LanguageModelV4CallOptions): string {
  return call.prompt
    .map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part ? part.text : '')).join('\n')))
    .join('\n');
}

/** Two sessions of two friends; Ana moves from Porto to Lyon in the second. */
export const anaAndBen: Conversation = {
  id: 'ana-and-ben',
  speakers: ['Ana', 'Ben'],
  sessions: [
    {
      id: 'session-1',
      date: '2024-03-10T10:00:00',
      turns: [
        { id: 's1:1', speaker: 'Ana', text: 'I live in Porto and I started pottery classes last week.' },
        { id: 's1:2', speaker: 'Ben', text: 'Pottery! Did you make a bowl yet?' },
        { id: 's1:3', speaker: 'Ana', text: 'Yes, a blue bowl. My teacher Rita says it is lopsided.' },
      ],
    },
    {
      id: 'session-2',
      date: '2024-06-02T18:00:00',
      turns: [
        { id: 's2:1', speaker: 'Ana', text: 'Big news: I moved to Lyon yesterday for a new job.' },
        { id: 's2:2', speaker: 'Ben', text: 'Will you keep up the pottery there?' },
        { id: 's2:3', speaker: 'Ana', text: 'I found a pottery studio near the river already.' },
      ],
    },
  ],
};

/** A valid model batch for session 1 of {@link anaAndBen}. */
export const sessionOneBatch = {
  episodes: [
    {
      turns: [0, 1, 2],
      tag: 'started pottery classes',
      text: 'Ana, who lives in Porto, started pottery classes in the week of 2024-03-03 and made a blue bowl; her teacher Rita says it is lopsided.',
      eventTime: { text: 'last week', start: '2024-03-03', end: '2024-03-09', granularity: 'week' },
      times: [{ text: 'last week', start: '2024-03-03', end: '2024-03-09', granularity: 'week', turn: 0 }],
      location: 'Porto',
      cues: [
        { name: 'Porto', kind: 'place', tag: 'lives in', turns: [0] },
        { name: 'pottery', kind: 'thing', tag: 'started classes', turns: [0, 1] },
        { name: 'Rita', kind: 'person', tag: 'pottery teacher', turns: [2] },
        { name: 'blue bowl', kind: 'thing', tag: 'made', turns: [2] },
      ],
      topic: 'pottery',
    },
  ],
  facts: [
    { entity: 'Ana', aspect: 'home', value: 'Porto', turn: 0, text: 'Ana lives in Porto.' },
    { entity: 'Ana', aspect: 'hobby', value: 'pottery', turn: 0, text: 'Ana takes pottery classes.' },
  ],
  aliases: [],
};

/** A valid model batch for session 2 of {@link anaAndBen}. */
export const sessionTwoBatch = {
  episodes: [
    {
      turns: [0],
      tag: 'moved to lyon',
      text: 'Ana moved to Lyon on 2024-06-01 for a new job.',
      eventTime: { text: 'yesterday', start: '2024-06-01', end: '2024-06-01', granularity: 'day' },
      times: [{ text: 'yesterday', start: '2024-06-01', end: '2024-06-01', granularity: 'day', turn: 0 }],
      location: 'Lyon',
      cues: [{ name: 'Lyon', kind: 'place', tag: 'moved to', turns: [0] }],
      topic: null,
    },
    {
      turns: [1, 2],
      tag: 'found pottery studio',
      text: 'Ana found a pottery studio near the river in Lyon.',
      eventTime: null,
      times: [],
      location: 'Lyon',
      cues: [{ name: 'pottery', kind: 'thing', tag: 'found studio', turns: [1, 2] }],
      topic: 'pottery',
    },
  ],
  facts: [{ entity: 'Ana', aspect: 'home', value: 'Lyon', turn: 0, text: 'Ana lives in Lyon.' }],
  aliases: [{ name: 'Ana', alias: 'Annie' }],
};
