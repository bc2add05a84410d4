#!/usr/bin/env node
// Measures the playground on a real conversation file: ingest, the graph index, API latencies, and
// in headless Chromium the time to a drawn graph, to a re-filtered graph and to an answer.
// Usage: node apps/playground/scripts/bench-playground.mjs --data <file> [--user <id>] [--json]
// Needs `pnpm build` (the CLI and the app) and Debian's chromium at /usr/bin/chromium.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPlayground } from '@engram/cli';
import { chromium } from 'playwright-core';

const { values } = parseArgs({ options: { data: { type: 'string' }, user: { type: 'string' }, json: { type: 'boolean' }, question: { type: 'string' } } });
if (!values.data) {
  console.error('usage: bench-playground.mjs --data <conversation file> [--user <id>] [--question <text>] [--json]');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const directory = await mkdtemp(join(tmpdir(), 'engram-playground-bench-'));
const playground = await startPlayground({ store: join(directory, 'store'), port: 0, appDir: resolve(here, '../dist'), sampleFiles: [resolve(values.data)] });
const numbers = {};
const timed = async (name, task) => {
  const started = performance.now();
  const value = await task();
  numbers[name] = Math.round(performance.now() - started);
  return value;
};
const json = async (path, init) => {
  const response = await fetch(new URL(path, playground.url), init);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
let browser;
try {
  const status = await json('/api/status');
  const sample = status.samples[1];
  let job = await json('/api/load', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sample: sample.id }) });
  const started = performance.now();
  while (job.status === 'reading' || job.status === 'ingesting') {
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    job = await json(`/api/jobs/${job.id}`);
  }
  if (job.status !== 'done') throw new Error(job.error);
  numbers.ingestMs = Math.round(performance.now() - started);
  numbers.turns = job.turns;
  const user = values.user ?? job.users[0];
  const base = `/api/memories/${encodeURIComponent(user)}`;
  const summary = await timed('summaryFirstMs (reads the graph)', () => json(`${base}/summary`));
  numbers.memory = summary.counts;
  const graph = await timed('graphMs (limit 250)', () => json(`${base}/graph?limit=250`));
  numbers.graphNodes = graph.nodes.length;
  numbers.graphEdges = graph.edges.length;
  await timed('graphMs (limit 1000)', () => json(`${base}/graph?limit=1000`));
  await timed('timelineMs (page of 40)', () => json(`${base}/timeline?limit=40`));
  const entity = summary.entities[0]?.name ?? '';
  await timed('graphEntityMs', () => json(`${base}/graph?limit=250&entity=${encodeURIComponent(entity)}`));
  const questions = await json(`${base}/questions`);
  const question = values.question ?? questions[0]?.question ?? 'What happened?';
  await timed('askMs (similarity, ramem, active)', () =>
    json('/api/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user, question }) }),
  );

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(120_000);
  await timed('browserFirstGraphMs (page load → graph drawn)', async () => {
    await page.goto(playground.url);
    await page.getByLabel('memory', { exact: true }).selectOption(user);
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-canvas"]')?.getAttribute('data-laid-out') === document.querySelector('[data-testid="graph-canvas"]')?.getAttribute('data-graph') && !document.querySelector('[data-testid="graph-count"]')?.textContent?.startsWith('loading'));
  });
  await timed('browserEntityFilterMs (type → graph redrawn)', async () => {
    const before = await page.locator('[data-testid="graph-count"]').textContent();
    await page.getByLabel('entity filter').fill(entity);
    await page.waitForFunction((previous) => {
      const text = document.querySelector('[data-testid="graph-count"]')?.textContent ?? '';
      return !text.startsWith('loading') && text !== previous;
    }, before);
  });
  await timed('browserTimelinePageMs (next page)', async () => {
    const first = await page.locator('.episodes li').first().textContent();
    await page.locator('.pager button').last().click();
    await page.waitForFunction((previous) => document.querySelector('.episodes li')?.textContent !== previous, first);
  });
  await timed('browserAskMs (3 strategies → columns)', async () => {
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('question', { exact: true }).fill(question);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('[data-strategy="active"] .evidence li').first().waitFor();
  });
  if (process.env.BENCH_SCREENSHOT) {
    await page.getByRole('tab', { name: 'Explore' }).click();
    await page.getByLabel('entity filter').fill('');
    await page.waitForFunction(() => !document.querySelector('[data-testid="graph-count"]')?.textContent?.startsWith('loading'));
    await page.screenshot({ path: process.env.BENCH_SCREENSHOT });
  }
} finally {
  await browser?.close();
  await playground.close();
  await rm(directory, { recursive: true, force: true });
}
console.log(values.json ? JSON.stringify(numbers) : Object.entries(numbers).map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : value}`).join('\n'));
