import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlayground, type RunningPlayground } from '@engram/cli';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
const appDir = resolve(here, '../dist');
const screenshots = resolve(here, '../test-results');
const locomoFixture = join(here, '__fixtures__', 'lena-and-sam-locomo.json');

let store: string;
let playground: RunningPlayground;
let browser: Browser;
let page: Page;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

/** Nodes the graph has drawn, per layer (read from Cytoscape once its layout has run). */
async function drawnLayers(): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const counts: Record<string, number> = {};
    window.engramGraph?.nodes().forEach((node) => {
      const layer = node.data('layer') as string;
      counts[layer] = (counts[layer] ?? 0) + 1;
    });
    return counts;
  });
}

/** Waits for the graph to be fetched and laid out again after a change. */
async function waitForGraph(previous?: string | null): Promise<void> {
  await page.waitForFunction(
    (before) => {
      const canvas = document.querySelector('[data-testid="graph-canvas"]');
      const count = document.querySelector('[data-testid="graph-count"]')?.textContent ?? '';
      const laidOut = canvas !== null && canvas !== undefined && canvas.getAttribute('data-laid-out') === canvas.getAttribute('data-graph');
      return laidOut && !count.startsWith('loading') && (before === undefined || count !== before);
    },
    previous ?? undefined,
  );
}

const graphCount = () => page.locator('[data-testid="graph-count"]').textContent();

beforeAll(async () => {
  if (!existsSync(join(appDir, 'index.html'))) throw new Error(`the playground app is not built (${appDir}): run pnpm build first`);
  await mkdir(screenshots, { recursive: true });
  store = await mkdtemp(join(tmpdir(), 'engram-playground-e2e-'));
  browser = await launchChromium();
  playground = await startPlayground({ store: join(store, 'memory'), port: 0, appDir });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(playground.url);
});

afterAll(async () => {
  await browser?.close();
  await playground?.close();
  if (store !== undefined) await rm(store, { recursive: true, force: true });
});

describe('the playground in headless Chromium', () => {
  it('loads the bundled sample with visible progress and draws the cue–tag–content graph', async () => {
    await page.getByText('No memory yet').waitFor();
    await page.locator('button[data-sample="maya-and-tom"]').click();
    await page.locator('[data-testid="ingest-job"]').waitFor();
    await page.locator('[data-testid="ingest-job"][data-status="done"]').waitFor();
    expect(await page.locator('[data-testid="ingest-job"]').textContent()).toMatch(/done — 5 sessions, 24 new turns/);
    await expect.poll(() => page.locator('[data-testid="memory-counts"]').textContent()).toMatch(/24 turns · \d+ episodes/);
    await waitForGraph();
    const layers = await drawnLayers();
    for (const layer of ['cue', 'tag', 'episode', 'fact', 'topic']) expect(layers[layer], `${layer} nodes drawn`).toBeGreaterThan(0);
    expect(await page.locator('.episodes li').count()).toBeGreaterThan(3);
    await shot('01-graph');
  });

  it('filters the graph and the timeline by layer, entity and time', async () => {
    const all = await drawnLayers();
    let before = await graphCount();
    await page.getByLabel('show tags').uncheck();
    await waitForGraph(before);
    const withoutTags = await drawnLayers();
    expect(withoutTags.tag ?? 0).toBe(0);
    expect(withoutTags.cue).toBeGreaterThan(0);

    const timelineBefore = await page.locator('[data-testid="timeline-count"]').textContent();
    before = await graphCount();
    await page.getByLabel('entity filter').fill('pepper');
    await waitForGraph(before);
    await expect.poll(() => page.locator('[data-testid="timeline-count"]').textContent()).not.toBe(timelineBefore);
    const filtered = await drawnLayers();
    expect((filtered.episode ?? 0) + (filtered.fact ?? 0)).toBeGreaterThan(0);
    expect(filtered.episode ?? 0).toBeLessThan(all.episode ?? 0);
    // Every episode left on the timeline is about Pepper.
    const texts = await page.locator('.episodes .what').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text.toLowerCase()).toMatch(/pepper|dog|she/);

    before = await graphCount();
    await page.getByLabel('entity filter').fill('');
    await page.getByLabel('from date').fill('2024-05-01');
    await page.getByLabel('to date').fill('2024-05-31');
    await waitForGraph(before);
    await expect.poll(() => page.locator('.episodes .when').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('said 2024-05-19')]));
    for (const when of await page.locator('.episodes .when').allTextContents()) expect(when).toMatch(/said 2024-05-19|happened 2024-05/);

    before = await graphCount();
    await page.getByText('clear entity and time').click();
    await page.getByLabel('show tags').check();
    await waitForGraph(before);
    expect((await drawnLayers()).tag).toBeGreaterThan(0);
  });

  it('clicking a node in the graph shows its content, coordinates and source turns', async () => {
    const target = await page.evaluate(() => {
      const graph = window.engramGraph;
      const node = graph?.nodes('[layer = "episode"]').max((candidate) => candidate.degree(false)).ele;
      if (graph === undefined || node === undefined) return undefined;
      const box = graph.container()?.getBoundingClientRect();
      const position = node.renderedPosition();
      return { id: node.id(), x: (box?.left ?? 0) + position.x, y: (box?.top ?? 0) + position.y };
    });
    expect(target).toBeDefined();
    await page.mouse.click(target!.x, target!.y);
    await expect.poll(() => page.evaluate(() => window.engramGraph?.$(':selected').map((node) => node.id()))).toEqual([target!.id]);
    await page.locator('[data-testid="node-title"]').waitFor();
    expect(await page.locator('[data-testid="node-title"]').textContent()).toMatch(/^episode/);
    expect((await page.locator('[data-testid="node-content"]').textContent())?.length).toBeGreaterThan(10);
    expect(await page.locator('.details .coordinates').first().textContent()).toMatch(/said2024-\d\d-\d\d/);
    expect(await page.locator('[data-testid="source-turns"] li').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="source-turns"]').textContent()).toMatch(/session-\d\/s\d:\d/);
    await shot('02-node');

    // An episode on the timeline opens the same way.
    await page.locator('.episodes .episode', { hasText: 'Boston' }).first().click();
    await expect.poll(() => page.locator('[data-testid="node-content"]').textContent()).toMatch(/Boston/);
  });

  it('asks one question under similarity, ramem and active side by side', async () => {
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('question', { exact: true }).fill('Where does Maya live now?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('[data-testid="strategy-columns"]').waitFor();
    const columns = page.locator('[data-testid="strategy-columns"] [data-strategy]');
    expect(await columns.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-strategy')))).toEqual(['similarity', 'ramem', 'active']);
    for (const strategy of ['similarity', 'ramem', 'active']) {
      const column = page.locator(`[data-strategy="${strategy}"]`);
      expect(await column.locator('.evidence li').count(), strategy).toBeGreaterThan(0);
      expect(await column.locator('.evidence li .coordinates').first().textContent(), strategy).toMatch(/said/);
    }
    expect(await page.locator('[data-strategy="active"] .evidence li').first().textContent()).toMatch(/Boston/);
    await shot('03-ask');
    // The Ask tab keeps its answer while an evidence item is opened in the Explore tab.
    const first = (await page.locator('[data-strategy="active"] .evidence li p').first().textContent()) ?? '';
    await page.locator('[data-strategy="active"] .evidence li').first().getByRole('button', { name: 'show' }).click();
    await expect.poll(() => page.locator('[data-testid="node-content"]').textContent()).toBe(first);
    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.locator('[data-testid="trajectory"]').waitFor();
  });

  it('steps through the active trajectory: actions, candidates kept and pruned, why it stopped', async () => {
    const indicator = page.locator('[data-testid="round-indicator"]');
    const rounds = Number(/of (\d+)/.exec((await indicator.textContent()) ?? '')?.[1]);
    expect(rounds).toBeGreaterThan(1);
    expect(await indicator.textContent()).toBe(`round 1 of ${rounds}`);
    const first = page.locator('[data-testid="trajectory"] .round');
    expect(await first.textContent()).toMatch(/select — \d+ actions? chosen/);
    expect(await first.textContent()).toMatch(/expand — /);
    expect(await first.locator('[data-testid="route-step"]').textContent()).toMatch(/route — \d+ candidates: kept \d+, pruned \d+/);
    await page.locator('[data-testid="trajectory"]').scrollIntoViewIfNeeded();
    await shot('04-trajectory-round-1');
    for (let round = 2; round <= rounds; round += 1) {
      await page.getByRole('button', { name: 'next round' }).click();
      expect(await indicator.textContent()).toBe(`round ${round} of ${rounds}`);
    }
    expect(await page.getByRole('button', { name: 'next round' }).isDisabled()).toBe(true);
    const stop = page.locator('[data-testid="stop-step"]');
    await stop.waitFor();
    expect((await stop.locator('.reason').textContent())?.length).toBeGreaterThan(5);
    await stop.scrollIntoViewIfNeeded();
    await shot('05-trajectory-stop');
    await page.getByRole('button', { name: 'previous round' }).click();
    expect(await indicator.textContent()).toBe(`round ${rounds - 1} of ${rounds}`);
  });

  it('a bad file gets a readable error naming the file, and memory is unchanged', async () => {
    await page.getByRole('tab', { name: 'Explore' }).click();
    const counts = await page.locator('[data-testid="memory-counts"]').textContent();
    await page.getByLabel('conversation file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('[{"sample_id": "x",\n  "conversation": {"speaker_a": }}]') });
    await page.locator('[data-testid="load-error"]').waitFor();
    expect(await page.locator('[data-testid="load-error"]').textContent()).toMatch(/^broken\.json:2:\d+: malformed JSON/);

    const record = JSON.parse(await readFile(locomoFixture, 'utf8')) as Array<{ conversation: Record<string, unknown> }>;
    delete record[0]!.conversation.speaker_a;
    await page.getByLabel('conversation file').setInputFiles({ name: 'no-speaker.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
    await expect.poll(() => page.locator('[data-testid="load-error"]').textContent()).toMatch(/^no-speaker\.json.*lena-and-sam.*speaker_a/);
    await shot('06-bad-file');
    expect(await page.locator('[data-testid="memory-counts"]').textContent()).toBe(counts);
    expect(await page.getByLabel('memory', { exact: true }).locator('option').allTextContents()).toEqual(['maya-and-tom']);
  });

  it('a dropped LoCoMo file is ingested, and gold evidence hits and misses are marked', async () => {
    const bytes = await readFile(locomoFixture);
    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'lena-and-sam-locomo.json', { type: 'application/json' }));
      return transfer;
    }, bytes.toString('utf8'));
    await page.locator('[data-testid="dropzone"]').dispatchEvent('drop', { dataTransfer });
    await page.locator('[data-testid="ingest-job"][data-status="done"]').waitFor();
    expect(await page.locator('[data-testid="ingest-job"]').textContent()).toMatch(/lena-and-sam-locomo\.json \(locomo\).*3 sessions, 12 new turns.*4 benchmark questions/);
    await expect.poll(() => page.getByLabel('memory', { exact: true }).inputValue()).toBe('lena-and-sam');
    await waitForGraph();

    await page.getByRole('tab', { name: 'Ask' }).click();
    await page.getByLabel('benchmark question').selectOption({ label: '[single-hop] Where did Sam go on his trip in May?' });
    expect(await page.getByLabel('question', { exact: true }).inputValue()).toBe('Where did Sam go on his trip in May?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('[data-testid="gold"]').waitFor();
    expect(await page.locator('[data-testid="gold"]').textContent()).toMatch(/Norway.*D2:2.*fjords/s);
    await page.locator('[data-strategy="active"] [data-testid="gold-score"]').waitFor();
    for (const strategy of ['similarity', 'ramem', 'active']) {
      const score = await page.locator(`[data-strategy="${strategy}"] [data-testid="gold-score"]`).textContent();
      const [, found, total] = /gold turns found: (\d+) \/ (\d+)/.exec(score ?? '') ?? [];
      expect(Number(total), strategy).toBe(2);
      const hits = await page.locator(`[data-strategy="${strategy}"] .evidence li[data-gold="hit"]`).count();
      // Every gold turn found is marked on an evidence item, and a miss is named.
      expect(hits > 0, strategy).toBe(Number(found) > 0);
      if (Number(found) < 2) expect(score).toMatch(/missed D2:\d/);
    }
    expect(await page.locator('[data-strategy="active"] .evidence li[data-gold="hit"]').count()).toBeGreaterThan(0);
    await shot('07-gold');
  });
});
