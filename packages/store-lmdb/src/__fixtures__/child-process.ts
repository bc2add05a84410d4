import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A message a fixture child sends over IPC. */
export interface ChildMessage {
  type: 'opened' | 'writing' | 'committed' | 'done' | 'warning' | 'progress' | 'failure';
  batch?: number;
  complete?: number;
  message?: string;
  rounds?: number;
  [field: string]: unknown;
}

/** A running fixture child and how it ended. */
export interface RunningChild {
  child: ChildProcess;
  messages: ChildMessage[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Fails clearly when the package was not built (the children run `dist/`). */
export function assertBuilt(): void {
  const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  if (!existsSync(dist)) throw new Error(`store-lmdb: ${dist} is missing; run \`pnpm --filter @engram/store-lmdb build\` first (the child processes run the built package)`);
}

/** Starts `src/__fixtures__/<script>` with node; `onMessage` sees every IPC message as it arrives. */
export function startChild(
  script: string,
  args: ReadonlyArray<string | number>,
  onMessage: (message: ChildMessage, child: ChildProcess) => void = () => undefined,
  options: { uid?: number; gid?: number; fileSizeLimitBlocks?: number } = {},
): RunningChild {
  // A file size limit is set by a shell that then execs node (keeping the IPC channel).
  const limited = options.fileSizeLimitBlocks === undefined ? {} : { execPath: '/bin/sh', execArgv: ['-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$0" "$@"`, process.execPath] };
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args.map(String), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...limited,
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  const messages: ChildMessage[] = [];
  child.on('message', (message: ChildMessage) => {
    messages.push(message);
    onMessage(message, child);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, messages, exited };
}
