import type { CommandSpec, OptionSpec } from '../cli-arguments.js';

const store: OptionSpec = { type: 'string', value: 'path', description: 'store directory (default: $ENGRAM_STORE, engram.config.json, ./.engram)' };
const user: OptionSpec = { type: 'string', value: 'id', description: 'user whose memory to use (default: $ENGRAM_USER, engram.config.json)' };
const json: OptionSpec = { type: 'boolean', description: 'print JSON on stdout' };
const strategy: OptionSpec = { type: 'string', value: 'name', description: 'active | ramem | similarity | graph (also bm25-turns, orama-turns); default active' };
const k: OptionSpec = { type: 'string', value: 'n', description: 'evidence items per question (default 10)' };

export const ingestSpec: CommandSpec = {
  name: 'ingest',
  summary: 'add conversation files to memory',
  usage: ['ingest <file…> [--format locomo|longmemeval|jsonl|json|auto] [--user <id>] [--store <path>] [--json]'],
  details: [
    'Reads LoCoMo, LongMemEval, JSON or JSONL chat logs (gzip too), checks every file first, then',
    'writes. Re-running is harmless: turns already stored are skipped. Without --user, each LoCoMo /',
    'LongMemEval conversation goes to a user named after its id, and chat logs go to "default".',
    'A progress bar is shown on a terminal; the summary goes to stdout. With a distilling model configured',
    '(ENGRAM_DISTILL_MODEL or ENGRAM_MODEL=<provider>:<model>, or "models" in engram.config.json) the model',
    'builds the memory graph; a batch it gets wrong twice falls back to the offline distiller (a warning says so).',
  ].join('\n'),
  positionals: { min: 1, max: undefined, name: 'file' },
  options: {
    format: { type: 'string', value: 'format', description: 'locomo | longmemeval | jsonl | json | auto (default auto)' },
    user,
    store,
    json: { type: 'boolean', description: 'print the summary as JSON' },
  },
  examples: ['engram ingest chat.jsonl --user alice', 'engram ingest locomo10.json --store ./locomo-memory'],
};

export const askSpec: CommandSpec = {
  name: 'ask',
  summary: 'answer a question from memory (evidence only without a model)',
  usage: ['ask "<question>" [--user <id>] [--strategy <name>] [--k <n>] [--trace] [--json]'],
  details: [
    'Shows the evidence found in memory, each item with its coordinates (when it was said, when it',
    'happened, about what) and why it was chosen. With a model configured, an answer is written from',
    'that evidence first: ENGRAM_MODEL=<provider>:<model> (openai, anthropic, ollama, openai-compatible),',
    'or per role ENGRAM_ANSWER_MODEL / ENGRAM_NAVIGATE_MODEL (the model navigator for active recall), or',
    '"models" in engram.config.json. Keys: OPENAI_API_KEY, ANTHROPIC_API_KEY; OLLAMA_BASE_URL;',
    'ENGRAM_BASE_URL and ENGRAM_API_KEY for openai-compatible. Without one it stays offline.',
  ].join('\n'),
  positionals: { min: 1, max: undefined, name: 'question' },
  options: {
    user,
    strategy,
    k,
    date: { type: 'string', value: 'iso', description: 'when the question is asked, for "last week" and the like' },
    trace: { type: 'boolean', description: 'show each step of the reconstruction (select, expand, route, stop)' },
    store,
    json,
  },
  examples: [
    'engram ask "Where does Maya live now?" --user maya-and-tom --trace',
    'engram ask "What is my dog called?" --json | jq .evidence[0].rendered',
    'ENGRAM_MODEL=openai:gpt-4.1-mini engram ask "Where does Maya live now?" --user maya-and-tom',
  ],
};

export const inspectSpec: CommandSpec = {
  name: 'inspect',
  summary: 'show a cue, episode, fact, topic or turn and its neighbourhood',
  usage: ['inspect <cue|episode|fact|topic|turn> <id or name> [--user <id>] [--json]'],
  details: [
    'A cue is shown with its tags and the contents behind each (cue → tag → content). A content unit',
    'is shown with its coordinates, its (cue, tag) pairs, its source turns and its topic. Names: a',
    'cue name or alias, a topic label, an episode title, a fact entity or value.',
  ].join('\n'),
  positionals: { min: 2, max: undefined, name: 'what to inspect (a kind and an id or name)' },
  options: { user, store, json },
  examples: ['engram inspect cue boston --user maya-and-tom', 'engram inspect topic climbing'],
};

export const statsSpec: CommandSpec = {
  name: 'stats',
  summary: 'count what memory holds, per user and layer',
  usage: ['stats [--user <id>] [--store <path>] [--json]'],
  details: 'Counts turns, episodes, facts, topics, cues and tags of every user the CLI has written to (or of --user).',
  positionals: { min: 0, max: 0, name: '' },
  options: { user, store, json },
  examples: ['engram stats', 'engram stats --json'],
};

export const forgetSpec: CommandSpec = {
  name: 'forget',
  summary: "remove everything of one user",
  usage: ['forget --user <id> [--store <path>] [--json]'],
  details: 'Removes every unit, cue, tag and relation of the user. --user must be given on the command line.',
  positionals: { min: 0, max: 0, name: '' },
  options: { user: { type: 'string', value: 'id', description: 'the user to forget (required)' }, store, json },
  examples: ['engram forget --user alice'],
};

export const deleteSpec: CommandSpec = {
  name: 'delete',
  summary: 'delete one unit with its relations',
  usage: ['delete <id> [--user <id>] [--store <path>] [--json]'],
  positionals: { min: 1, max: 1, name: 'the id of the unit to delete' },
  options: { user, store, json },
  examples: ['engram delete fact_wRXMzLfg58CnnWuaDdV5-3 --user maya-and-tom'],
};

export const evalSpec: CommandSpec = {
  name: 'eval',
  summary: 'run the retrieval evaluation on LoCoMo or LongMemEval',
  usage: ['eval <locomo|longmemeval> --data <path> --strategy <name>[,<name>…|all] [--json] [--k <n>] [--answer <provider:model>] [--judge <provider:model>] …'],
  details: [
    'Runs @engram/core\'s evaluation harness with the same arguments as `pnpm -s run eval`; `engram eval --help` prints its own help.',
    'With --answer <provider:model> it also writes answers and reports F1 and BLEU-1; --judge <provider:model> adds J;',
    '--distill / --navigate use the model distiller and navigator. Model calls and tokens are reported for ingest and per question.',
  ].join('\n'),
  positionals: { min: 0, max: undefined, name: '' },
  options: {},
  examples: [
    'engram eval locomo --data ../shared/data/locomo10.json --strategy all --json',
    'engram eval locomo --data ../shared/data/locomo10.json --strategy active --limit 1 --answer openai:gpt-4.1-mini --judge openai:gpt-4.1-mini',
  ],
};

export const mcpSpec: CommandSpec = {
  name: 'mcp',
  summary: 'serve memory to agents over the Model Context Protocol (stdio)',
  usage: ['mcp [--store <path>] [--user <id>]'],
  details: [
    'Tools: remember (messages → memory), recall (query → evidence with coordinates), forget (a user).',
    'The server holds the store\'s write lock while it runs; engram ask / stats / inspect still work beside it.',
  ].join('\n'),
  positionals: { min: 0, max: 0, name: '' },
  options: { store, user: { type: 'string', value: 'id', description: 'default user of the tools (default: $ENGRAM_USER, config, "default")' } },
  examples: ['engram mcp --store ~/.engram'],
};

export const demoSpec: CommandSpec = {
  name: 'demo',
  summary: 'ingest a sample conversation and ask it three questions, offline',
  usage: ['demo [--store <path>] [--user <id>] [--k <n>] [--json]'],
  details: 'Uses a fresh temporary store unless --store is given, and says where it is so you can explore it afterwards.',
  positionals: { min: 0, max: 0, name: '' },
  options: {
    store: { type: 'string', value: 'path', description: 'store directory (default: a fresh temporary directory)' },
    user: { type: 'string', value: 'id', description: 'user to ingest the sample for (default maya-and-tom)' },
    k: { type: 'string', value: 'n', description: 'evidence items per question (default 5)' },
    json,
  },
  examples: ['engram demo', 'engram demo --store ./demo-memory'],
};

export const playgroundSpec: CommandSpec = {
  name: 'playground',
  summary: 'explore memory in the browser: load, browse the graph, replay recall',
  usage: ['playground [--store <path>] [--port <n>] [--sample <file>]'],
  details: [
    'Serves the playground web app and a small JSON API over the store, on 127.0.0.1 only: load the',
    'sample or drop a LoCoMo / LongMemEval / JSON / JSONL file, explore the cue–tag–content graph and',
    'the timeline, and ask one question under several strategies side by side. Holds the store\'s write',
    'lock while it runs. Build the app first (pnpm build).',
  ].join('\n'),
  positionals: { min: 0, max: 0, name: '' },
  options: {
    store,
    port: { type: 'string', value: 'n', description: 'port on 127.0.0.1 (default 4173; 0 picks a free one)' },
    sample: { type: 'string', value: 'file', description: 'a conversation file (e.g. LoCoMo) offered as a sample besides the bundled one' },
  },
  examples: ['engram playground', 'engram playground --store ./locomo-memory --sample ../shared/data/locomo10.json'],
};

/** Every command, in the order `engram --help` lists them. */
export const commandSpecs: ReadonlyArray<CommandSpec> = [demoSpec, ingestSpec, askSpec, inspectSpec, statsSpec, forgetSpec, deleteSpec, evalSpec, mcpSpec, playgroundSpec];
