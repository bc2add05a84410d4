// Ingest benchmark: every conversation of a file (LoCoMo, LongMemEval, chat logs) is added through
// `createEngram().add()` — offline distiller, hashed embedder — into @engram/store-memory, each
// conversation under its own userId. `--json` prints one JSON object; without it, a summary and a
// few examples of what was built. Usage:
//   node dist/bench/ingest-bench.js --data ../shared/data/locomo-dev.json [--json] [--limit N] [--examples N] [--no-read-ahead] [--no-warm-up]
// The distiller reads upcoming sessions in a worker when its entry is built (see
// `ingest/offline/session-reader.ts`); starting it is setup, like loading the lexicon.
// `--no-read-ahead` keeps all the work on the main thread.
// Setup (`setupMs`, not timed) is what a long-running service pays once: loading the file and the
// lexicon, starting the reader worker (which loads its own lexicon and reads the built-in warm-up
// sample — the demo's conversation of `demo/sample-conversation.ts` and the short session of
// `ingest/offline/warm-up-session.ts` — as every worker does when it starts),
// and one `add()` of that sample into a throwaway store — the state a service is in after its
// first ingest: code compiled, nothing of the benchmark's data seen. `--no-warm-up` skips the latter.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createEngram } from '../engram/create-engram.js';
import { emptyCounts, addCounts } from '../engram/ingest-session.js';
import { loadConversationFile } from '../ingest/loaders/index.js';
import { loadLexicon } from '../ingest/offline/lexicon.js';
import { createOfflineDistiller } from '../ingest/offline/offline-distiller.js';
import { warmUpSessionReader } from '../ingest/offline/session-reader.js';
import { sampleConversation as warmUpConversation } from '../demo/sample-conversation.js';
import type { Fact, Topic, Episode } from '../model/units.js';
import type { MemoryStore } from '../ports/memory-store.js';

/**
 * CPU time of the main thread alone (Linux: from /proc, 10 ms ticks), `undefined` elsewhere.
 * Process CPU time also counts the reader worker and V8's compiler and GC threads, which run
 * beside it; on a busy machine wall time says little.
 */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function openStore(): Promise<MemoryStore> {
  // Core does not depend on store-memory: reach it by package name, else in the workspace.
  const candidates = ['@engram/store-memory', new URL('../../../store-memory/dist/index.js', import.meta.url).href];
  const failures: string[] = [];
  for (const specifier of candidates) {
    try {
      const module = (await import(specifier)) as { createMemoryStore: () => MemoryStore };
      return module.createMemoryStore();
    } catch (error) {
      failures.push(`${specifier}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`cannot load @engram/store-memory (build it first: pnpm --filter @engram/store-memory build)\n  ${failures.join('\n  ')}`);
}

async function main(): Promise<void> {
  const data = argument('data');
  const json = process.argv.includes('--json');
  if (data === undefined) throw new Error('usage: ingest-bench --data <conversation file> [--json] [--limit N] [--examples N] [--no-read-ahead] [--no-warm-up]');
  const limit = Number(argument('limit') ?? Number.POSITIVE_INFINITY);
  const exampleCount = Number(argument('examples') ?? 3);

  const setupStart = performance.now();
  const { conversations } = await loadConversationFile(data);
  const store = await openStore();
  await loadLexicon();
  // The reader worker loads its own lexicon: one-time setup, like the line above.
  const readAhead = !process.argv.includes('--no-read-ahead') && (await warmUpSessionReader());
  const warmUp = !process.argv.includes('--no-warm-up');
  if (warmUp) {
    const warm = createEngram({ store: await openStore(), distiller: createOfflineDistiller({ readAhead }) });
    await warm.add(warmUpConversation, { userId: warmUpConversation.id });
    await warm.dispose();
  }
  const setupMs = performance.now() - setupStart;

  const engram = createEngram({ store, distiller: createOfflineDistiller({ readAhead }) });
  const selected = conversations.slice(0, limit);
  let counts = emptyCounts();
  const cpuStart = process.cpuUsage();
  const mainStart = mainThreadCpuMs();
  const start = performance.now();
  for (const conversation of selected) counts = addCounts(counts, await engram.add(conversation, { userId: conversation.id }));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const mainEnd = mainThreadCpuMs();
  const cpuMs = (cpu.user + cpu.system) / 1000;

  const result = {
    turns: counts.turns,
    episodes: counts.episodes,
    facts: counts.facts,
    topics: counts.topics,
    cues: counts.cues,
    tags: counts.tags,
    relations: counts.relations,
    ms: Math.round(ms),
    turnsPerSec: Math.round((counts.turns / ms) * 1000),
    timeExpressions: counts.timeExpressions,
    timeExpressionsResolved: counts.timeExpressionsResolved,
    cpuMs: Math.round(cpuMs),
    turnsPerCpuSec: Math.round((counts.turns / cpuMs) * 1000),
    ...(mainStart === undefined || mainEnd === undefined ? {} : { mainThreadCpuMs: mainEnd - mainStart }),
    setupMs: Math.round(setupMs),
    readAhead,
    warmUp,
    conversations: selected.length,
    supersededFacts: counts.supersededFacts,
    store: store.name,
  };
  if (json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(result);
    const first = selected[0];
    if (first !== undefined && exampleCount > 0) {
      const scope = { userId: first.id };
      const show = async <T>(kind: 'episode' | 'fact' | 'topic', render: (unit: T) => string) => {
        const units = (await store.listUnits(scope, { kinds: [kind], limit: 10_000 })) as unknown as T[];
        console.log(`\n${kind}s of ${first.id} (${units.length}):`);
        const step = Math.max(1, Math.floor(units.length / exampleCount));
        for (let index = 0; index < units.length && index / step < exampleCount; index += step) console.log(`- ${render(units[index] as T)}`);
      };
      await show<Episode>('episode', (episode) => `${episode.title ?? ''} | event ${episode.context.eventTime?.start ?? '-'} | ${episode.text}`);
      await show<Fact>('fact', (fact) => `${fact.entity} ${fact.aspect}=${fact.value} [${fact.firstSeenSession}→${fact.lastSeenSession}${fact.validTo ? `, until ${fact.validTo}` : ''}]`);
      await show<Topic>('topic', (topic) => `${topic.label} (${topic.episodeIds.length} episodes): ${topic.text.slice(0, 160)}`);
    }
  }
  await engram.dispose();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
