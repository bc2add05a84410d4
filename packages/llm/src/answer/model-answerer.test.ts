import { createEngram } from '@engram/core';
import { createMemoryStore } from '@engram/store-memory';
import { describe, expect, it } from 'vitest';
import { anaAndBen, jsonReply, promptText, scriptedModel, textReply } from '../__fixtures__/mock-replies.js';
import { createUsageMeter } from '../usage-meter.js';
import { createModelAnswerer, createModelJudge } from './model-answerer.js';

describe('answerer', () => {
  it('gives the model the evidence with its coordinates under the LoCoMo prompt, and counts the call', async () => {
    const store = createMemoryStore();
    const engram = createEngram({ store });
    await engram.add(anaAndBen, { userId: 'ana' });
    const { evidence } = await engram.recall('Where did Ana move?', { scope: { userId: 'ana' }, k: 5 });
    const model = scriptedModel([textReply('Answer: Lyon', [900, 3])]);
    const meter = createUsageMeter();
    const answerer = createModelAnswerer({ model, meter, style: 'locomo' });
    const { answer } = await answerer.answer({ question: 'Where did Ana move?', evidence });
    expect(answer).toBe('Lyon');
    const prompt = promptText(model.doGenerateCalls[0]!);
    expect(prompt).toContain('The answer should be less than 5-6 words.');
    expect(prompt).toMatch(/\[2 June 2024[^\]]*\] .*Lyon/);
    expect(meter.of('answer')).toEqual({ calls: 1, inputTokens: 900, outputTokens: 3 });
  });

  it('uses the LongMemEval template with the question date', async () => {
    const model = scriptedModel([textReply('Lyon')]);
    await createModelAnswerer({ model, style: 'longmemeval' }).answer({ question: 'Where do I live?', evidence: [], questionDate: '2024/07/01 (Mon) 10:00' });
    const prompt = promptText(model.doGenerateCalls[0]!);
    expect(prompt).toContain('History Chats:');
    expect(prompt).toContain('Current Date: 2024/07/01 (Mon) 10:00');
  });
});

describe('judge', () => {
  it('grades with LoCoMo\'s CORRECT/WRONG prompt and its JSON label', async () => {
    const model = scriptedModel([jsonReply({ label: 'CORRECT' }), jsonReply({ label: 'WRONG' }), textReply('The answer is about the same city. CORRECT')]);
    const judge = createModelJudge({ model, benchmark: 'locomo' });
    const request = { question: 'Where did Ana move?', gold: 'Lyon', answer: 'to Lyon, France', category: 'single-hop' };
    expect(await judge.judge(request)).toEqual({ correct: true });
    expect(await judge.judge({ ...request, answer: 'Porto' })).toEqual({ correct: false });
    // A reply that is not the JSON asked for is read for its label, as LoCoMo's script does.
    expect(await judge.judge(request)).toEqual({ correct: true });
    expect(promptText(model.doGenerateCalls[0]!)).toContain('Gold answer: Lyon');
    expect(model.doGenerateCalls[0]?.responseFormat?.type).toBe('json');
  });

  it('uses LongMemEval\'s prompt for the question type and reads yes / no', async () => {
    const model = scriptedModel([textReply('yes'), textReply('No.'), textReply('yes'), textReply('yes')]);
    const judge = createModelJudge({ model, benchmark: 'longmemeval' });
    const base = { question: 'How many days?', gold: '18', answer: '19 days' };
    expect(await judge.judge({ ...base, category: 'temporal-reasoning' })).toEqual({ correct: true });
    expect(await judge.judge({ ...base, category: 'knowledge-update' })).toEqual({ correct: false });
    await judge.judge({ ...base, category: 'single-session-preference' });
    await judge.judge({ ...base, category: 'multi-session', abstention: true });
    const prompts = model.doGenerateCalls.map(promptText);
    expect(prompts[0]).toContain('do not penalize off-by-one errors');
    expect(prompts[1]).toContain('as long as the updated answer is the required answer');
    expect(prompts[2]).toContain('Rubric: 18');
    expect(prompts[3]).toContain('correctly identifies the question as unanswerable');
  });
});
