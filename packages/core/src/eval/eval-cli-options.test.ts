import { describe, expect, it } from 'vitest';
import { evalUsage, parseEvalArguments, UsageError } from './eval-cli-options.js';
import { evalStrategies } from './strategies.js';

describe('parseEvalArguments', () => {
  it('reads a full command line', () => {
    const options = parseEvalArguments(['longmemeval', '--data', 'x.json.gz', '--strategy', 'orama-turns,bm25-turns', '--json', '--dump', 'out.jsonl', '--store', 'lmdb', '--limit', '3', '--k', '20']);
    expect({ ...options, strategies: Object.keys(options.strategies) }).toEqual({
      benchmark: 'longmemeval',
      data: 'x.json.gz',
      strategies: ['orama-turns', 'bm25-turns'],
      json: true,
      dump: 'out.jsonl',
      store: 'lmdb',
      limit: 3,
      k: 20,
      models: {},
    });
  });

  it('reads the model choices of the answer, judge, distiller and navigator', () => {
    const options = parseEvalArguments(['locomo', '--data', 'l.json', '--strategy', 'active', '--answer', 'openai:gpt-4.1-mini', '--judge', 'anthropic:claude-sonnet-4-5', '--distill', 'ollama:llama3.1:8b', '--navigate', 'openai-compatible:qwen2.5']);
    expect(options.models).toEqual({ answer: 'openai:gpt-4.1-mini', judge: 'anthropic:claude-sonnet-4-5', distill: 'ollama:llama3.1:8b', navigate: 'openai-compatible:qwen2.5' });
  });

  it('defaults to the memory store, k = 50 and a table', () => {
    const options = parseEvalArguments(['locomo', '--data', 'l.json', '--strategy', 'all']);
    expect(options).toMatchObject({ store: 'memory', k: 50, json: false, dump: undefined, limit: undefined });
    expect(Object.keys(options.strategies)).toEqual(Object.keys(evalStrategies));
  });

  it.each([
    [[], /missing benchmark/],
    [['mmlu', '--data', 'x', '--strategy', 'all'], /unknown benchmark "mmlu"/],
    [['locomo', '--strategy', 'all'], /missing --data/],
    [['locomo', '--data', 'x'], /missing --strategy/],
    [['locomo', '--data', 'x', '--strategy', 'no-such'], /unknown strategy no-such; known: .*bm25-turns/],
    [['locomo', '--data', 'x', '--strategy', 'all', '--store', 'redis'], /--store must be memory or lmdb/],
    [['locomo', '--data', 'x', '--strategy', 'all', '--limit', '0'], /--limit must be a positive integer/],
    [['locomo', '--data', 'x', '--strategy', 'all', '--verbose'], /verbose/],
    [['locomo', '--data', 'x', '--strategy', 'all', '--answer', 'gpt-4'], /--answer must be <provider>:<model>/],
    [['locomo', '--data', 'x', '--strategy', 'all', '--judge', 'openai:gpt-4.1'], /--judge grades answers: give --answer/],
  ])('rejects %j with a usage error', (argv, message) => {
    expect(() => parseEvalArguments(argv)).toThrow(UsageError);
    expect(() => parseEvalArguments(argv)).toThrow(message);
  });

  it('lists the registry in the usage text', () => {
    expect(evalUsage()).toContain(`strategies: ${Object.keys(evalStrategies).join(', ')}, all`);
    expect(evalUsage()).toContain('bm25-turns, orama-turns');
  });
});
