import packageJson from '../package.json' with { type: 'json' };
import { commandHelp, parseCommandArguments, type ParsedArguments } from './cli-arguments.js';
import { describeError, exitCodes, UsageError } from './cli-errors.js';
import { commandSpecs } from './commands/command-specs.js';
import { colorsFor, type CliIo } from './output/terminal.js';

/** Runs one command; resolves to its exit code. */
export type CommandHandler = (args: ParsedArguments, io: CliIo) => Promise<number>;

// Handlers are imported on demand: loading core takes a while, and `--help` should not wait for it.
const handlers: Record<string, () => Promise<CommandHandler>> = {
  ingest: async () => (await import('./commands/ingest-command.js')).runIngestCommand,
  ask: async () => (await import('./commands/ask-command.js')).runAskCommand,
  inspect: async () => (await import('./commands/inspect-command.js')).runInspectCommand,
  stats: async () => (await import('./commands/stats-command.js')).runStatsCommand,
  forget: async () => (await import('./commands/forget-command.js')).runForgetCommand,
  delete: async () => (await import('./commands/forget-command.js')).runDeleteCommand,
  mcp: async () => (await import('./commands/mcp-command.js')).runMcpCommand,
  demo: async () => (await import('./commands/demo-command.js')).runDemoCommand,
  playground: async () => (await import('./commands/playground-command.js')).runPlaygroundCommand,
};

/** The help of `engram` itself. */
export function mainHelp(): string {
  const width = Math.max(...commandSpecs.map((spec) => spec.name.length));
  return [
    `engram ${packageJson.version} — long-term memory for LLM agents, on your disk`,
    '',
    'Usage: engram <command> [options]',
    '',
    'Commands:',
    ...commandSpecs.map((spec) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
    '',
    'Run `engram <command> --help` for its options. Start with `engram demo`.',
    '',
    'Settings: flags > environment (ENGRAM_STORE, ENGRAM_USER, ENGRAM_STRATEGY, ENGRAM_K) >',
    'engram.config.json in the working directory ({ "store", "user", "strategy", "k" }) > defaults',
    '(store ./.engram, strategy active, k 10). NO_COLOR turns colours off.',
    'Exit codes: 0 done, 1 error, 2 usage error.',
  ].join('\n');
}

/** The streams and environment of this process. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

async function runEval(args: string[]): Promise<number> {
  const { runEvalCommand } = await import('./commands/eval-command.js');
  return runEvalCommand(args);
}

/**
 * Runs `engram` with the arguments after the program name. Results go to stdout, everything else
 * to stderr; an error is reported on one line (`engram <command>: …`). Resolves to the exit code:
 * 0 done, 1 error, 2 usage error.
 */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  const report = (command: string | undefined, error: unknown): number => {
    const colors = colorsFor(io.stderr, io.env);
    const prefix = command === undefined ? 'engram' : `engram ${command}`;
    io.stderr.write(`${colors.red(`${prefix}:`)} ${describeError(error)}\n`);
    const debug = io.env.ENGRAM_DEBUG !== undefined && io.env.ENGRAM_DEBUG !== '' && io.env.ENGRAM_DEBUG !== '0';
    if (debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
    return error instanceof UsageError ? exitCodes.usage : exitCodes.error;
  };

  if (first === undefined) {
    io.stderr.write(`${mainHelp()}\n`);
    return exitCodes.usage;
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(`${mainHelp()}\n`);
    return exitCodes.ok;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${packageJson.version}\n`);
    return exitCodes.ok;
  }
  if (first === 'help') {
    const spec = commandSpecs.find((candidate) => candidate.name === rest[0]);
    if (rest[0] === undefined) io.stdout.write(`${mainHelp()}\n`);
    else if (rest[0] === 'eval') return runEval(['--help']);
    else if (spec === undefined) return report(undefined, new UsageError(`unknown command ${JSON.stringify(rest[0])} (see engram --help)`));
    else io.stdout.write(`${commandHelp(spec)}\n`);
    return exitCodes.ok;
  }
  // The evaluation harness parses its own arguments (the same as `pnpm -s run eval`).
  if (first === 'eval') {
    try {
      return await runEval(rest);
    } catch (error) {
      return report(first, error);
    }
  }
  const spec = commandSpecs.find((candidate) => candidate.name === first);
  const load = handlers[first];
  if (spec === undefined || load === undefined) {
    const hint = first.startsWith('-') ? 'put the command first' : 'see engram --help';
    return report(undefined, new UsageError(`unknown command ${JSON.stringify(first)} (${hint})`));
  }
  try {
    const args = parseCommandArguments(spec, rest);
    if (args.help) {
      io.stdout.write(`${commandHelp(spec)}\n`);
      return exitCodes.ok;
    }
    const handler = await load();
    return await handler(args, io);
  } catch (error) {
    return report(first, error);
  }
}
