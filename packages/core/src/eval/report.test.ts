import { describe, expect, it } from 'vitest';
import type { QuestionOutcome } from './harness.js';
import { aggregateReports, formatDumpLine, formatJsonReports, formatTableReport } from './report.js';

function outcome(strategy: string, id: string, category: string, metrics: Record<string, number>, recallMs = 1): QuestionOutcome {
  return { strategy, id, category, question: `${id}?`, turns: ['a#0', 'b#1'], sessions: ['a', 'b'], items: [{ tokens: 9, turns: ['a#0', 'b#1'] }], metrics, recallMs };
}

const metrics = ['session_all@5', 'turn_any@10', 'contextTokens@10'];
const outcomes = [
  outcome('bm25-turns', 'q1', 'single-session-user', { 'session_all@5': 1, 'turn_any@10': 1, 'contextTokens@10': 100 }, 2),
  outcome('bm25-turns', 'q2', 'single-session-assistant', { 'session_all@5': 0, 'contextTokens@10': 50 }, 4),
  outcome('orama-turns', 'q1', 'single-session-user', { 'session_all@5': 1, 'turn_any@10': 0, 'contextTokens@10': 10 }),
  outcome('orama-turns', 'q2', 'single-session-assistant', { 'session_all@5': 1, 'contextTokens@10': 20 }),
];
const reports = aggregateReports({ benchmark: 'longmemeval', strategies: ['bm25-turns', 'orama-turns'], metrics, outcomes, ingestMs: 1234.4, skipped: { abstention: 2 } });

describe('aggregateReports', () => {
  it('averages each metric over the questions it applies to, overall and by category', () => {
    const [bm25] = reports;
    expect(bm25).toMatchObject({
      benchmark: 'longmemeval',
      strategy: 'bm25-turns',
      questions: 2,
      overall: { 'session_all@5': 0.5, 'turn_any@10': 1, 'contextTokens@10': 75 },
      metricQuestions: { 'session_all@5': 2, 'turn_any@10': 1, 'contextTokens@10': 2 },
      skipped: { abstention: 2 },
      timing: { ingestMs: 1234, recallP50Ms: 2, recallP95Ms: 4 },
    });
    expect(Object.keys(bm25?.byCategory ?? {})).toEqual(['single-session-user', 'single-session-assistant']);
    expect(bm25?.byCategory['single-session-assistant']).toEqual({ questions: 1, 'session_all@5': 0, 'turn_any@10': null, 'contextTokens@10': 50 });
  });
});

describe('output formats', () => {
  it('--json prints one parseable object per strategy, one per line', () => {
    const lines = formatJsonReports(reports).split('\n');
    expect(lines).toHaveLength(2);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((report) => report.strategy)).toEqual(['bm25-turns', 'orama-turns']);
    expect(Object.keys(parsed[0] ?? {})).toEqual(expect.arrayContaining(['benchmark', 'strategy', 'questions', 'overall', 'byCategory', 'timing']));
    expect(formatJsonReports(reports.slice(0, 1))).not.toContain('\n');
  });

  it('--dump lines carry the ranked turns and sessions, with the strategy when several run', () => {
    const single = JSON.parse(formatDumpLine(outcomes[0] as QuestionOutcome, false)) as Record<string, unknown>;
    expect(single).toEqual({ id: 'q1', category: 'single-session-user', question: 'q1?', turns: ['a#0', 'b#1'], sessions: ['a', 'b'], items: [{ tokens: 9, turns: ['a#0', 'b#1'] }] });
    expect(JSON.parse(formatDumpLine(outcomes[2] as QuestionOutcome, true))).toMatchObject({ strategy: 'orama-turns', id: 'q1' });
  });

  it('the table has a row per category and strategy', () => {
    const text = formatTableReport(reports);
    expect(text).toContain('longmemeval: 2 questions scored (skipped: 2 abstention); turn_any@10 over 1');
    expect(text).toMatch(/overall\s+orama-turns\s+2\s+1\.000\s+0\.000\s+15\.0/);
    expect(text).toMatch(/single-session-assistant\s+bm25-turns\s+1\s+0\.000\s+–\s+50\.0/);
  });
});
