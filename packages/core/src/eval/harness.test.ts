import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../ingest/conversation.js';
import { loadConversationFile } from '../ingest/loaders/index.js';
import { sessionTurnUnits } from '../ingest/turn-units.js';
import type { Scope } from '../model/scope.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { createTinyStore } from './__fixtures__/tiny-store.js';
import { createEvalIngestion } from './eval-ingestion.js';
import { runEval, type QuestionOutcome } from './harness.js';
import { recallAt } from './metrics.js';
import { formatDumpLine, formatJsonReports } from './report.js';
import { selectStrategies } from './strategies.js';

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

function turnIngest(store: MemoryStore) {
  return async (conversation: Conversation, scope: Scope) => {
    for (const session of conversation.sessions) await store.write({ units: sessionTurnUnits(scope, conversation, session) });
  };
}

const embed = async (texts: string[]) => texts.map(() => new Float32Array([1]));

describe('runEval on a tiny LoCoMo file ingested by createEngram, with bm25-turns', async () => {
  const { conversations, questions } = await loadConversationFile(fixture('tiny-locomo.json'), { format: 'locomo' });
  const store = createTinyStore();
  const ingestion = createEvalIngestion(store);
  const seenScopes: string[] = [];
  const lexicalSearch = store.lexicalSearch.bind(store);
  store.lexicalSearch = async (scope, query, options) => {
    const hits = await lexicalSearch(scope, query, options);
    for (const hit of hits) seenScopes.push(`${scope.userId}→${hit.unit.scope.userId}`);
    return hits;
  };
  const streamed: QuestionOutcome[] = [];
  const progress: string[] = [];
  const run = await runEval({
    benchmark: 'locomo',
    conversations,
    questions,
    store,
    ingest: ingestion.ingest,
    embed: ingestion.embed,
    strategies: selectStrategies('bm25-turns'),
    onOutcome: (outcome) => streamed.push(outcome),
    onProgress: (event) => progress.push(`${event.phase}:${event.conversation}`),
  });
  const [report] = run.reports;

  it('scores categories 1–4 with evidence and skips adversarial and evidence-less items', () => {
    expect(run.reports).toHaveLength(1);
    expect(report).toMatchObject({ benchmark: 'locomo', strategy: 'bm25-turns', questions: 4, skipped: { adversarial: 1, 'no evidence': 1 } });
    expect(Object.keys(report?.byCategory ?? {})).toEqual(['multi-hop', 'temporal', 'single-hop']);
    expect(report?.byCategory['single-hop']?.questions).toBe(2);
    expect(Object.keys(report?.overall ?? {})).toEqual(['R@1', 'R@5', 'R@10', 'R@20', 'R@400tok', 'contextTokens@10']);
  });

  it('finds the evidence of these easy questions within ten turns', () => {
    expect(report?.overall['R@10']).toBe(1);
    expect(report?.overall['R@400tok']).toBe(1);
    expect(report?.overall['contextTokens@10']).toBeGreaterThan(0);
  });

  it('keeps each sample in its own scope and forgets it afterwards', () => {
    expect(seenScopes.length).toBeGreaterThan(0);
    expect(seenScopes.every((pair) => pair.split('→')[0] === pair.split('→')[1])).toBe(true);
    expect(store.forgotten).toEqual(['tiny-1', 'tiny-2']);
    expect(progress).toEqual(['ingest:tiny-1', 'recall:tiny-1', 'ingest:tiny-2', 'recall:tiny-2']);
  });

  it('streams outcomes whose dump lines let anyone recompute the metrics', () => {
    expect(streamed).toEqual(run.outcomes);
    const marathon = run.outcomes.find((outcome) => outcome.category === 'multi-hop');
    const line = JSON.parse(formatDumpLine(marathon as QuestionOutcome, false)) as { id: string; turns: string[]; sessions: string[] };
    expect(line.id).toBe('tiny-1#1');
    expect(line.turns).toEqual(expect.arrayContaining(['D2:2', 'D2:4']));
    expect(line.sessions[0]).toMatch(/^session_\d$/);
    for (const k of [1, 5, 10, 20]) expect(recallAt(line.turns, ['D2:2', 'D2:4'], k)).toBe(marathon?.metrics[`R@${k}`]);
    const json = JSON.parse(formatJsonReports(run.reports)) as { timing: Record<string, number> };
    expect(Object.keys(json.timing)).toEqual(['ingestMs', 'recallP50Ms', 'recallP95Ms']);
  });
});

describe('runEval on a tiny LongMemEval file', async () => {
  const { conversations, questions } = await loadConversationFile(fixture('tiny-longmemeval.json'), { format: 'longmemeval' });
  const store = createTinyStore();
  const run = await runEval({ benchmark: 'longmemeval', conversations, questions, store, ingest: turnIngest(store), embed, strategies: selectStrategies('bm25-turns,orama-turns') });

  it('skips abstention items without ingesting their history and scores sessions and user turns', () => {
    expect(run.reports.map((report) => report.strategy)).toEqual(['bm25-turns', 'orama-turns']);
    for (const report of run.reports) {
      expect(report).toMatchObject({ questions: 1, skipped: { abstention: 1 }, metricQuestions: { 'turn_any@10': 1 } });
      expect(report.overall).toMatchObject({ 'session_any@5': 1, 'session_all@5': 1, 'turn_any@10': 1 });
    }
    expect(store.forgotten).toEqual(['q-bike']);
    const outcome = run.outcomes[0];
    expect(outcome?.turns[0]).toBe('answer_bike_1#0');
    expect(outcome?.sessions).toContain('answer_bike_1');
  });
});

describe('selectStrategies', () => {
  it('names unknown strategies and the known ones', () => {
    expect(() => selectStrategies('bm25-turns,no-such')).toThrow(/unknown strategy no-such; known: .*bm25-turns, orama-turns/);
    expect(Object.keys(selectStrategies('orama-turns, bm25-turns'))).toEqual(['orama-turns', 'bm25-turns']);
  });
});

describe('runEval with an answerer and a judge', async () => {
  const { conversations, questions } = await loadConversationFile(fixture('tiny-locomo.json'), { format: 'locomo' });
  const store = createTinyStore();
  const ingestion = createEvalIngestion(store);
  const usage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const spend = (calls: number, input: number, output: number) => {
    usage.calls += calls;
    usage.inputTokens += input;
    usage.outputTokens += output;
  };
  const seen: number[] = [];
  const run = await runEval({
    benchmark: 'locomo',
    conversations,
    questions,
    store,
    ingest: async (conversation, scope) => {
      spend(2, 1000, 200);
      await ingestion.ingest(conversation, scope);
    },
    embed: ingestion.embed,
    strategies: selectStrategies('bm25-turns'),
    answerK: 3,
    // Answers with the gold answer of the question whose evidence text it was given, so F1 is 1
    // exactly when the evidence reached the answerer; otherwise says it does not know.
    answerer: {
      specificationVersion: 'v1',
      name: 'echo',
      answer: async (request) => {
        spend(1, 100, 5);
        seen.push(request.evidence.length);
        const gold = questions.find((question) => question.question === request.question)?.answer ?? '';
        return { answer: request.evidence.length > 0 ? gold : 'unknown' };
      },
    },
    judge: {
      specificationVersion: 'v1',
      name: 'strict',
      judge: async (request) => {
        spend(1, 50, 1);
        return { correct: request.answer === request.gold };
      },
    },
    modelUsage: () => usage,
  });
  const [report] = run.reports;

  it('reports F1, BLEU-1 and J next to the retrieval metrics, from at most answerK items', () => {
    expect(Object.keys(report?.overall ?? {})).toEqual(['R@1', 'R@5', 'R@10', 'R@20', 'R@400tok', 'contextTokens@10', 'F1', 'BLEU-1', 'J']);
    expect(report?.overall.F1).toBe(1);
    expect(report?.overall.J).toBe(1);
    expect(Math.max(...seen)).toBeLessThanOrEqual(3);
    expect(run.outcomes.every((outcome) => outcome.answer === outcome.gold)).toBe(true);
  });

  it('reports model calls and tokens for ingest, per question (recall + answer) and for the judge', () => {
    const conversationsWithQuestions = new Set(run.outcomes.map((outcome) => outcome.id.split('#')[0])).size;
    expect(report?.model?.ingest).toEqual({ calls: 2 * conversationsWithQuestions, inputTokens: 1000 * conversationsWithQuestions, outputTokens: 200 * conversationsWithQuestions });
    expect(report?.model?.perQuestion).toEqual({ calls: 1, inputTokens: 100, outputTokens: 5 });
    expect(report?.model?.judge).toEqual({ calls: 4, inputTokens: 200, outputTokens: 4 });
    expect(JSON.parse(formatDumpLine(run.outcomes[0]!, false))).toMatchObject({ answer: run.outcomes[0]?.gold, correct: true, modelUsage: { calls: 1 } });
  });
});
