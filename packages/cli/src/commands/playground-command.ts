import { integerOption, type ParsedArguments } from '../cli-arguments.js';
import { CliError, exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { startPlayground } from '../playground/start-playground.js';
import { colorsFor, writeLines, type CliIo } from '../output/terminal.js';

/**
 * `engram playground`: serves the web app and its API over the store on 127.0.0.1 until Ctrl-C.
 * It holds the store's write lock (it ingests); `engram ask` and friends still read beside it.
 */
export async function runPlaygroundCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const settings = resolveSettings({ store: args.strings.store }, io.env, io.cwd);
  const port = integerOption(args.strings.port, '--port', { min: 0, max: 65535 }) ?? 4173;
  const sampleFiles = args.strings.sample === undefined ? [] : [args.strings.sample];
  let playground;
  try {
    playground = await startPlayground({ store: settings.store, port, sampleFiles, warn: (message) => io.stderr.write(`engram: warning: ${message}\n`) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`port ${port} on 127.0.0.1 is in use: pick another with --port (0 for any free one)`);
    throw error;
  }
  const out = colorsFor(io.stdout, io.env);
  writeLines(io.stdout, [
    `${out.bold('Engram playground')} at ${playground.url}`,
    `store: ${playground.store}`,
    playground.app.built ? `app: ${playground.app.dir}` : out.yellow(`the web app is not built (${playground.app.dir}): run pnpm build, then reload`),
    'Ctrl-C stops it.',
  ]);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await playground.close();
  return exitCodes.ok;
}
