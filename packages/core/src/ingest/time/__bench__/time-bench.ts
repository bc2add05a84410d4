/**
 * Benchmark of temporal extraction (a script, not a test): throughput over ~5,000 realistic chat
 * sentences, and — when the LoCoMo dev file is present — agreement with LoCoMo's temporal
 * (category 2) gold answers: the gold answer ("7 May 2023", "The week before 9 June 2023") is
 * resolved against the evidence turn's session date and compared with what the extractor finds
 * in that turn.
 *
 * Bundle and run from packages/core (no build step needed):
 *   node -e "require('esbuild').buildSync({entryPoints:['src/ingest/time/__bench__/time-bench.ts'],bundle:true,platform:'node',format:'esm',outfile:'/tmp/time-bench.mjs'})"
 *   node /tmp/time-bench.mjs [path/to/locomo-dev.json] [--json]
 * (esbuild is the one tsup ships; the default data path is ../../../shared/data/locomo-dev.json.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { extractTimeMentions, parseSessionDate, resolveTimeExpression } from '../index.js';
import { intervalsOverlap } from '../../../model/time.js';

interface Turn {
  text: string;
  date: string;
}

interface LocomoSample {
  conversation: Record<string, unknown>;
  qa: Array<{ question: string; answer?: unknown; evidence?: string[]; category?: number }>;
}

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const dataPath = args.find((a) => !a.startsWith('--')) ?? '../../../shared/data/locomo-dev.json';

const SYNTHETIC = [
  'I went to a grief support group yesterday and it helped a lot.',
  'Hey! Good to see you, how have you been?',
  "Work has me buried this month. What's new with you?",
  'We went camping last August and the kids loved roasting marshmallows.',
  'That painting is beautiful, did you make it yourself?',
  'My sister visited two weekends ago and we baked cookies together.',
  'Thank you, I am glad somebody noticed the new shelves.',
  "I'm planning a trip to Portugal in October with my cousin.",
  'Honestly I think art is a great way to express yourself.',
  'I have 2 kids and they keep me busy all day long.',
];

function loadTurns(): { turns: Turn[]; samples: LocomoSample[] } {
  if (!existsSync(dataPath)) {
    const turns: Turn[] = [];
    for (let i = 0; turns.length < 5000; i += 1) turns.push({ text: SYNTHETIC[i % SYNTHETIC.length] ?? '', date: '2023-05-08T13:56:00' });
    return { turns, samples: [] };
  }
  const samples = JSON.parse(readFileSync(dataPath, 'utf8')) as LocomoSample[];
  const turns: Turn[] = [];
  for (const sample of samples) {
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      const date = parseSessionDate(String(sample.conversation[`${key}_date_time`] ?? ''));
      if (date === undefined) continue;
      for (const turn of value as Array<{ text: string }>) turns.push({ text: turn.text, date });
    }
  }
  return { turns, samples };
}

function sentences(turns: readonly Turn[], limit: number): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    for (const sentence of turn.text.split(/(?<=[.!?])\s+/)) {
      if (sentence.trim().length > 0) out.push({ text: sentence, date: turn.date });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

function perSecond(items: readonly Turn[]): number {
  const runs: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const start = performance.now();
    for (const item of items) extractTimeMentions(item.text, item.date);
    runs.push((items.length * 1000) / (performance.now() - start));
  }
  runs.sort((a, b) => a - b);
  return runs[2] ?? 0;
}

function agreement(samples: readonly LocomoSample[]): Record<string, number> {
  let gradable = 0;
  let exact = 0;
  let overlap = 0;
  for (const sample of samples) {
    const turns = new Map<string, Turn>();
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      const date = parseSessionDate(String(sample.conversation[`${key}_date_time`] ?? ''));
      if (date === undefined) continue;
      for (const turn of value as Array<{ text: string; dia_id: string }>) turns.set(turn.dia_id, { text: turn.text, date });
    }
    for (const qa of sample.qa) {
      if (qa.category !== 2 || qa.answer === undefined) continue;
      const evidence = (qa.evidence ?? []).map((id) => turns.get(id)).filter((t): t is Turn => t !== undefined);
      const first = evidence[0];
      if (first === undefined) continue;
      const gold = resolveTimeExpression(String(qa.answer), first.date);
      if (gold === undefined) continue;
      gradable += 1;
      const found = evidence.flatMap((turn) => extractTimeMentions(turn.text, turn.date).map((m) => m.interval));
      if (found.some((i) => i.start === gold.start && i.end === gold.end)) exact += 1;
      if (found.some((i) => intervalsOverlap(i, gold))) overlap += 1;
    }
  }
  return { gradable, exact, overlap };
}

const { turns, samples } = loadTurns();
const bench = sentences(turns, 5000);
perSecond(bench.slice(0, 500));
const sentencesPerSecond = perSecond(bench);
const turnsPerSecond = perSecond(turns.slice(0, 5000));
const withMention = turns.filter((t) => extractTimeMentions(t.text, t.date).length > 0).length;
const result = {
  source: samples.length > 0 ? dataPath : 'synthetic',
  sentences: bench.length,
  sentencesPerSecond: Math.round(sentencesPerSecond),
  turns: Math.min(turns.length, 5000),
  turnsPerSecond: Math.round(turnsPerSecond),
  turnsWithMention: `${withMention}/${turns.length}`,
  ...(samples.length > 0 ? { locomoTemporal: agreement(samples) } : {}),
};
if (asJson) console.log(JSON.stringify(result));
else {
  console.log(`temporal extraction: ${result.sentencesPerSecond} sentences/s over ${result.sentences} sentences (${result.source})`);
  console.log(`temporal extraction: ${result.turnsPerSecond} turns/s over ${result.turns} turns; turns with a mention ${result.turnsWithMention}`);
  if (result.locomoTemporal !== undefined) {
    const { gradable, exact, overlap } = result.locomoTemporal;
    console.log(`LoCoMo temporal gold answers grounded: ${gradable}; evidence turn gives the exact interval: ${exact}; an overlapping one: ${overlap}`);
  }
}
