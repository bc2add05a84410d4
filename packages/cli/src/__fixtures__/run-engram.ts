import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built command, run as a user would run it. */
export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** What one run printed and how it ended. */
export interface EngramRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Fails early, with the fix, when the package has not been built. */
export function assertBuilt(): void {
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing: build the CLI first (pnpm --filter @engram/cli build)`);
}

/** The environment of a test run: no colours, and none of the caller's ENGRAM_* settings. */
export function cleanEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('ENGRAM_') && key !== 'FORCE_COLOR') env[key] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs `node dist/bin.js …args` in `cwd` and waits for it to exit. */
export function runEngram(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<EngramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd: options.cwd, env: cleanEnvironment(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Parses the JSON a `--json` run printed, with the output in the error when it is not JSON. */
export function parseJson<T = Record<string, any>>(run: EngramRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`expected JSON on stdout (exit ${run.code}); stdout: ${run.stdout}; stderr: ${run.stderr}`);
  }
}

/** Fixture files of these tests. */
export const fixture = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
