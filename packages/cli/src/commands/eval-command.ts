import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, UsageError } from '../cli-errors.js';

/** The evaluation harness's own command line script, shipped in @engram/core's `dist/bench`. */
export function evalScriptPath(): string {
  const core = import.meta.resolve('@engram/core');
  const path = fileURLToPath(new URL('./bench/eval-cli.js', core));
  if (!existsSync(path)) throw new CliError(`cannot find the evaluation harness at ${path}; build @engram/core (pnpm --filter @engram/core build)`);
  return path;
}

/**
 * `engram eval …`: runs @engram/core's evaluation harness in a child process with the same
 * arguments as `pnpm -s run eval`, passing its output and exit code (0 / 1 / 2) through.
 */
export async function runEvalCommand(args: string[]): Promise<number> {
  const script = evalScriptPath();
  // Usage errors are reported here, on one line like every other command's; `--help` is left to the harness.
  const core = await import('@engram/core');
  try {
    core.parseEvalArguments(args);
  } catch (error) {
    if (!(error instanceof core.UsageError)) throw error;
    if (error.message !== '') throw new UsageError(`${error.message} (see engram eval --help)`);
  }
  // Core does not depend on @engram/llm; the CLI does, so it tells the harness where its copy is (for --answer, --judge, …).
  const env = { ...process.env, ENGRAM_LLM_MODULE: import.meta.resolve('@engram/llm') };
  const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit', env });
  // Ctrl-C reaches the child through the terminal's process group; the parent just waits for it.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', (error) => reject(new CliError(`cannot run the evaluation harness: ${error.message}`)));
      child.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    process.off('SIGINT', ignore);
  }
}

