import { generateText, stepCountIs } from 'ai';
import { createEngram } from '@engram/core';
import { createMemoryStore } from '@engram/store-memory';
import { describe, expect, it } from 'vitest';
import { promptText, scriptedModel, textReply, toolCallsReply } from './__fixtures__/mock-replies.js';
import { engramTools } from './engram-tools.js';

describe('engramTools', () => {
  it('lets an agent remember, recall and forget within its own user only', async () => {
    const store = createMemoryStore();
    const engram = createEngram({ store });
    await engram.add([{ role: 'user', content: 'My sister Lena lives in Oslo.', timestamp: '2024-05-01T10:00:00Z' }], { userId: 'bob' });
    const tools = engramTools(engram, { userId: 'alice' });
    const model = scriptedModel([
      toolCallsReply([{ name: 'remember', input: { messages: [{ role: 'user', content: 'My dog Rex loves the beach.', timestamp: '2024-05-02T10:00:00Z' }] } }]),
      toolCallsReply([{ name: 'recall', input: { query: 'What does Rex love?' } }]),
      textReply('Rex loves the beach.'),
    ]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Remember my dog, then tell me what he loves.' });
    expect(result.text).toBe('Rex loves the beach.');
    expect(model.doGenerateCalls).toHaveLength(3);
    // The recall result reached the model as a tool result, with coordinates.
    expect(JSON.stringify(model.doGenerateCalls[2]?.prompt)).toMatch(/2 May 2024.*Rex loves the beach/);
    expect(promptText(model.doGenerateCalls[2]!)).not.toContain('Oslo');

    const recalled = (await tools.recall.execute?.({ query: 'Where does Lena live?' }, { toolCallId: 'x', messages: [], context: {} })) as { evidence: Array<{ id: string; text: string }> };
    expect(recalled.evidence.some((item) => item.text.includes('Oslo'))).toBe(false);
    const target = recalled.evidence[0]?.id as string;
    expect(await tools.forget.execute?.({ id: target }, { toolCallId: 'y', messages: [], context: {} })).toEqual({ forgotten: target });
    expect(await tools.forget.execute?.({ all: true }, { toolCallId: 'z', messages: [], context: {} })).toEqual({ forgotten: 'all' });
    expect(await store.listUnits({ userId: 'alice' }, { limit: 10 })).toHaveLength(0);
    expect((await store.listUnits({ userId: 'bob' }, { limit: 10 })).length).toBeGreaterThan(0);
  });
});
