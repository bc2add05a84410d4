import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, binPath, cleanEnvironment, fixture, parseJson, runEngram, type EngramRun } from './__fixtures__/run-engram.js';

let directory: string;
let firstIngest: EngramRun;
let bobIngest: EngramRun;

beforeAll(async () => {
  assertBuilt();
  directory = await mkdtemp(join(tmpdir(), 'engram-cli-'));
  firstIngest = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice', '--json'], { cwd: directory });
  bobIngest = await runEngram(['ingest', fixture('bob-chat.jsonl'), '--json'], { cwd: directory, env: { ENGRAM_USER: 'bob' } });
});

afterAll(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

describe('engram ingest', () => {
  it('writes a chat log into ./.engram and summarises what it wrote', () => {
    expect(firstIngest.code, firstIngest.stderr).toBe(0);
    const summary = parseJson(firstIngest);
    expect(summary.store).toBe(join(directory, '.engram'));
    expect(summary.files).toEqual([expect.objectContaining({ format: 'jsonl', conversations: 1 })]);
    expect(summary.total).toMatchObject({ turns: 6, skippedTurns: 0 });
    expect(summary.total.episodes).toBeGreaterThan(0);
    expect(Object.keys(summary.users)).toEqual(['alice']);
  });

  it('takes the user from ENGRAM_USER', () => {
    expect(bobIngest.code, bobIngest.stderr).toBe(0);
    expect(Object.keys(parseJson(bobIngest).users)).toEqual(['bob']);
  });

  it('is harmless to re-run: the same file again writes nothing', async () => {
    const again = await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice'], { cwd: directory });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('alice: 0 turns');
    expect(again.stdout).toContain('6 turns already stored');
    expect(again.stdout).toMatch(/total: 0 turns, 0 episodes, 0 facts, 0 topics in [\d.]+ m?s — nothing new/);
  });
});

describe('engram stats', () => {
  it('counts every layer of every user', async () => {
    const run = await runEngram(['stats', '--json'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const stats = parseJson(run);
    expect(Object.keys(stats.users)).toEqual(['alice', 'bob']);
    expect(stats.users.alice).toMatchObject({ turns: 6 });
    expect(stats.users.bob).toMatchObject({ turns: 3 });
    for (const counts of Object.values(stats.users) as Array<Record<string, number>>) {
      expect(Object.keys(counts)).toEqual(['turns', 'episodes', 'facts', 'topics', 'cues', 'tags']);
      expect(counts.episodes).toBeGreaterThan(0);
      expect(counts.cues).toBeGreaterThan(0);
    }
    const table = await runEngram(['stats'], { cwd: directory });
    expect(table.stdout).toMatch(/^user\s+turns\s+episodes\s+facts\s+topics\s+cues\s+tags$/m);
    expect(table.stdout).toMatch(/^alice\s+6\s/m);
  });
});

describe('engram ask', () => {
  it('shows evidence with its coordinates and why it was chosen, and says once that no model is configured', async () => {
    const run = await runEngram(['ask', 'What is my cat called?', '--user', 'alice', '--k', '3'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/no model configured: showing evidence only/g)).toHaveLength(1);
    expect(run.stdout).toContain('? What is my cat called?');
    expect(run.stdout).toMatch(/ 1\. \[3 February 2024[^\]]*\] Alice: I just adopted a grey cat called Miso/);
    expect(run.stdout).toMatch(/why: search/);
    expect(run.stdout).not.toContain('reconstruction trace');
  });

  it('--trace shows each step of the reconstruction with its actions and counts', async () => {
    const run = await runEngram(['ask', 'What is my cat called?', '--user', 'alice', '--trace'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/reconstruction trace \(\d+ steps\):/);
    expect(run.stdout).toMatch(/step 0 {2}select +navigator=offline → actions=search "What is my cat called\?"/);
    expect(run.stdout).toMatch(/step 0 {2}expand +search .* → contents=\d+ cues=\d+ tags=\d+/);
    expect(run.stdout).toMatch(/step \d+ {2}route +candidates=\d+ kept=\d+/);
  });

  it('--json gives the evidence, its coordinates and the trace to machines', async () => {
    const run = await runEngram(['ask', 'What is my cat called?', '--user', 'alice', '--k', '2', '--strategy', 'active', '--json', '--trace'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const result = parseJson(run);
    expect(result).toMatchObject({ query: 'What is my cat called?', user: 'alice', strategy: 'active', k: 2, answer: null });
    expect(result.evidence).toHaveLength(2);
    const [top] = result.evidence;
    expect(top.rendered).toMatch(/^\[3 February 2024.*Miso/);
    expect(top.coordinates.session.start).toBe('2024-02-03T10:00:00Z');
    expect(top.sources).toEqual([{ sessionId: 's1', turnId: 's1#0' }]);
    expect(top.reasons.length).toBeGreaterThan(0);
    const actions = result.trace.map((step: { action: string }) => step.action);
    expect(actions).toEqual(expect.arrayContaining(['select', 'expand', 'route']));
  });

  it('other strategies answer from the same memory', async () => {
    const run = await runEngram(['ask', 'swimming', '--user', 'alice', '--strategy', 'similarity', '--json'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const result = parseJson(run);
    expect(result.strategy).toBe('similarity');
    expect(result.evidence.some((item: { text: string }) => item.text.includes('swimming'))).toBe(true);
  });

  it('asks for --user when the store holds several users and none is chosen', async () => {
    const run = await runEngram(['ask', 'What is my cat called?'], { cwd: directory });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['engram ask: the store ' + join(directory, '.engram') + ' holds several users (alice, bob): choose one with --user or ENGRAM_USER']);
    expect(run.stdout).toBe('');
  });

  it('reads settings with the precedence flags > environment > engram.config.json', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'engram-config-'));
    try {
      await writeFile(join(cwd, 'engram.config.json'), JSON.stringify({ store: join(directory, '.engram'), user: 'alice', strategy: 'similarity', k: 1 }));
      const fromConfig = parseJson(await runEngram(['ask', 'cat', '--json'], { cwd }));
      expect(fromConfig).toMatchObject({ user: 'alice', strategy: 'similarity', k: 1 });
      expect(fromConfig.evidence).toHaveLength(1);
      const fromEnvironment = parseJson(await runEngram(['ask', 'marathon', '--json'], { cwd, env: { ENGRAM_USER: 'bob', ENGRAM_K: '2' } }));
      expect(fromEnvironment).toMatchObject({ user: 'bob', strategy: 'similarity', k: 2 });
      const fromFlags = parseJson(await runEngram(['ask', 'marathon', '--json', '--user', 'alice', '--k', '3', '--strategy', 'active'], { cwd, env: { ENGRAM_USER: 'bob' } }));
      expect(fromFlags).toMatchObject({ user: 'alice', strategy: 'active', k: 3 });

      await writeFile(join(cwd, 'engram.config.json'), '{\n  "user": "alice",\n  "k": "many"\n}\n');
      const badConfig = await runEngram(['ask', 'cat'], { cwd });
      expect(badConfig.code).toBe(2);
      expect(badConfig.stderr.trim().split('\n')).toHaveLength(1);
      expect(badConfig.stderr).toContain('engram.config.json: invalid k');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('engram inspect', () => {
  it('shows a cue with its tags and the contents behind each', async () => {
    const run = await runEngram(['inspect', 'cue', 'cat', '--user', 'alice', '--json'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const [cue] = parseJson(run).results;
    expect(cue.cue.name).toBe('cat');
    const contents = cue.tags.flatMap((tag: { contents: Array<{ text: string }> }) => tag.contents.map((content) => content.text));
    expect(contents.some((text: string) => text.includes('Miso'))).toBe(true);
    const text = await runEngram(['inspect', 'cue', 'cat', '--user', 'alice'], { cwd: directory });
    expect(text.stdout).toMatch(/^cue cat /);
    expect(text.stdout).toMatch(/\n {2}→ .+\n {6}→ (episode|turn) /);
  });

  it('shows a fact, found by name, with its (cue, tag) pairs, source turns and coordinates', async () => {
    const run = await runEngram(['inspect', 'fact', 'nurse', '--user', 'alice', '--json'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const [fact] = parseJson(run).results;
    expect(fact.unit).toMatchObject({ kind: 'fact', entity: 'alice', aspect: 'job', value: 'nurse' });
    expect(fact.unit.vector).toBeUndefined();
    expect(fact.unit.rendered).toContain('alice · job');
    expect(fact.pairs.map((pair: { tag: { label: string } }) => pair.tag.label)).toContain('job');
    expect(fact.sources[0].turn.text).toContain('nurse at the children');
  });

  it('shows an episode with its topic, and the topic with its episodes', async () => {
    const cue = parseJson(await runEngram(['inspect', 'cue', 'cat', '--user', 'alice', '--json'], { cwd: directory })).results[0];
    const episode = cue.tags.flatMap((tag: { contents: Array<{ kind: string; id: string }> }) => tag.contents).find((content: { kind: string }) => content.kind === 'episode');
    const run = await runEngram(['inspect', 'episode', episode.id, '--user', 'alice', '--json'], { cwd: directory });
    expect(run.code, run.stderr).toBe(0);
    const [view] = parseJson(run).results;
    expect(view.unit.id).toBe(episode.id);
    expect(view.sources.length).toBeGreaterThan(0);
    expect(view.topic.label.length).toBeGreaterThan(0);
    const topic = parseJson(await runEngram(['inspect', 'topic', view.topic.id, '--user', 'alice', '--json'], { cwd: directory })).results[0];
    expect(topic.episodes.map((item: { id: string }) => item.id)).toContain(episode.id);
  });

  it('says what is missing, and of which user', async () => {
    const run = await runEngram(['inspect', 'topic', 'no such topic', '--user', 'alice'], { cwd: directory });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([`engram inspect: no topic "no such topic" in the memory of user alice (${join(directory, '.engram')})`]);
  });
});

describe('engram forget and delete', () => {
  it('forget removes one user and leaves the others intact; delete removes one unit', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'engram-forget-'));
    try {
      expect((await runEngram(['ingest', fixture('alice-chat.jsonl'), '--user', 'alice'], { cwd })).code).toBe(0);
      expect((await runEngram(['ingest', fixture('bob-chat.jsonl'), '--user', 'bob'], { cwd })).code).toBe(0);

      const refused = await runEngram(['forget'], { cwd, env: { ENGRAM_USER: 'bob' } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--user <id> is required');

      const forget = await runEngram(['forget', '--user', 'bob', '--json'], { cwd });
      expect(forget.code, forget.stderr).toBe(0);
      expect(parseJson(forget).removed).toMatchObject({ turns: 3 });
      const stats = parseJson(await runEngram(['stats', '--json'], { cwd }));
      expect(Object.keys(stats.users)).toEqual(['alice']);
      expect(stats.users.alice).toMatchObject({ turns: 6 });
      const bob = parseJson(await runEngram(['stats', '--json', '--user', 'bob'], { cwd }));
      expect(bob.users.bob).toEqual({ turns: 0, episodes: 0, facts: 0, topics: 0, cues: 0, tags: 0 });
      const stillThere = parseJson(await runEngram(['ask', 'cat', '--json'], { cwd }));
      expect(stillThere.user).toBe('alice');
      expect(stillThere.evidence[0].text).toContain('Miso');

      const factsBefore = parseJson(await runEngram(['stats', '--json'], { cwd })).users.alice.facts;
      const fact = parseJson(await runEngram(['inspect', 'fact', 'nurse', '--json'], { cwd })).results[0];
      const deleted = await runEngram(['delete', fact.unit.id, '--user', 'alice'], { cwd });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout).toContain(`deleted ${fact.unit.id}`);
      const again = await runEngram(['delete', fact.unit.id, '--user', 'alice'], { cwd });
      expect(again.code).toBe(1);
      expect(again.stderr.trim().split('\n')).toEqual([`engram delete: no unit ${fact.unit.id} in the memory of user alice (${join(cwd, '.engram')})`]);
      expect(parseJson(await runEngram(['stats', '--json'], { cwd })).users.alice.facts).toBe(factsBefore - 1);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('benchmark files', () => {
  it('puts each LoCoMo conversation in its own user unless --user is given', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'engram-locomo-'));
    try {
      const perConversation = await runEngram(['ingest', fixture('two-friends-locomo.json'), '--json'], { cwd });
      expect(perConversation.code, perConversation.stderr).toBe(0);
      expect(parseJson(perConversation).files[0]).toMatchObject({ format: 'locomo', conversations: 2, questions: 2 });
      expect(Object.keys(parseJson(perConversation).users)).toEqual(['june-and-omar', 'rita-and-ken']);
      const oneUser = await runEngram(['ingest', fixture('two-friends-locomo.json'), '--format', 'locomo', '--user', 'everyone', '--json'], { cwd });
      expect(Object.keys(parseJson(oneUser).users)).toEqual(['everyone']);
      const stats = parseJson(await runEngram(['stats', '--json'], { cwd }));
      expect(stats.users).toMatchObject({ everyone: { turns: 4 }, 'june-and-omar': { turns: 2 }, 'rita-and-ken': { turns: 2 } });
      const answer = parseJson(await runEngram(['ask', 'Where is Rita travelling?', '--user', 'rita-and-ken', '--json'], { cwd }));
      expect(answer.evidence[0].text).toContain('Japan');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('engram demo', () => {
  it('ingests the sample conversation into a store it names, then asks three questions with evidence and trace', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'engram-demo-test-'));
    try {
      const store = join(cwd, 'demo-store');
      const run = await runEngram(['demo', '--store', store], { cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`store: ${store} (LMDB)`);
      expect(run.stdout).toMatch(/ingested 1 conversation \(5 sessions\) for 1 user/);
      expect(run.stdout).toContain('maya-and-tom: 24 turns');
      for (const question of ['Where does Maya live now?', 'When did Tom sign the lease for the bakery?', 'What did Maya do after moving to Boston, and where did she climb before?']) {
        expect(run.stdout).toContain(`? ${question}`);
      }
      expect(run.stdout.match(/reconstruction trace \(\d+ steps\):/g)).toHaveLength(3);
      expect(run.stdout).toContain('[2 March 2024; event 1 March; at elm street] Tom: Maya! I signed the lease for the bakery yesterday.');
      expect(run.stderr.match(/no model configured/g)).toHaveLength(1);
      const stats = parseJson(await runEngram(['stats', '--json', '--store', store], { cwd }));
      expect(stats.users['maya-and-tom']).toMatchObject({ turns: 24 });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('a reader that goes away', () => {
  it('`engram demo | head` ends quietly with exit 0 and leaves the store usable', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'engram-pipe-test-'));
    try {
      const store = join(cwd, 'demo-store');
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [binPath, 'demo', '--store', store], { cwd, env: cleanEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
        let errors = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
        // Like `head -1`: read the first chunk, then close the pipe.
        child.stdout.once('data', () => child.stdout.destroy());
        child.once('error', reject);
        child.once('close', (exit) => resolve({ code: exit, stderr: errors }));
      });
      expect(stderr).not.toMatch(/EPIPE|Error/);
      expect(code).toBe(0);
      const stats = parseJson(await runEngram(['stats', '--json', '--store', store], { cwd }));
      expect(stats.users['maya-and-tom']).toMatchObject({ turns: 24 });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('engram eval', () => {
  it('runs the evaluation harness with the arguments of pnpm run eval', async () => {
    const run = await runEngram(['eval', 'locomo', '--data', fixture('two-friends-locomo.json'), '--strategy', 'similarity', '--store', 'lmdb', '--json'], { cwd: tmpdir() });
    expect(run.code, run.stderr).toBe(0);
    const report = parseJson(run);
    expect(report).toMatchObject({ benchmark: 'locomo', strategy: 'similarity', questions: 2 });
    expect(report.overall['R@10']).toBe(1);
    const usage = await runEngram(['eval', 'locomo', '--strategy', 'similarity'], { cwd: tmpdir() });
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    expect(usage.stderr).toMatch(/^engram eval: .*--data/);
  });
});

describe('help and usage', () => {
  it('every command has --help; unknown commands and options are usage errors (exit 2) on one line', async () => {
    const cwd = tmpdir();
    for (const command of ['ingest', 'ask', 'inspect', 'stats', 'forget', 'delete', 'mcp', 'demo']) {
      const run = await runEngram([command, '--help'], { cwd });
      expect(run.code, command).toBe(0);
      expect(run.stdout).toContain(`engram ${command} — `);
      expect(run.stdout).toContain('Usage:');
    }
    const evalHelp = await runEngram(['eval', '--help'], { cwd });
    expect(evalHelp.code).toBe(0);
    expect(evalHelp.stdout).toMatch(/locomo|longmemeval/);
    const colored = await runEngram(['recollect'], { cwd, env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(colored.stderr).toContain('\u001b[31mengram:');
    const plain = await runEngram(['recollect'], { cwd, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stderr).not.toContain('\u001b[');
    const main = await runEngram(['--help'], { cwd });
    expect(main.stdout).toContain('flags > environment');
    for (const [args, message] of [
      [['recollect'], 'engram: unknown command "recollect" (see engram --help)'],
      [['ask', 'x', '--colour'], 'engram ask: unknown option --colour (see engram ask --help)'],
      [['ask', 'x', '--k'], 'engram ask: option --k needs a value (see engram ask --help)'],
      [['ask', 'x', '--k', 'ten'], 'engram ask: --k: must be a whole number from 1 to 1000, got "ten"'],
      [['inspect', 'cue'], 'engram inspect: missing what to inspect (a kind and an id or name) (see engram inspect --help)'],
    ] as const) {
      const run = await runEngram([...args], { cwd });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toEqual([message]);
    }
  });
});
