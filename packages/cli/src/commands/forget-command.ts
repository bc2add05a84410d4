import type { ParsedArguments } from '../cli-arguments.js';
import { CliError, UsageError, exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { countLayers } from '../memory/count-layers.js';
import { chooseUser, openMemory } from '../memory/open-memory.js';
import { readUsers, removeUser } from '../memory/user-registry.js';
import { colorsFor, plural, writeJson, writeLines, type CliIo } from '../output/terminal.js';

const warnTo = (io: CliIo) => (message: string) => io.stderr.write(`engram: warning: ${message}\n`);

/** `engram forget --user <id>`: removes everything of one user; the user must be named on the command line. */
export async function runForgetCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const user = args.strings.user;
  // Forgetting is not undoable, so the user is never taken from the environment or a config file.
  if (user === undefined) throw new UsageError('--user <id> is required: name the user to forget');
  const settings = resolveSettings({ store: args.strings.store, user }, io.env, io.cwd);
  const memory = await openMemory({ path: settings.store, readOnly: false, warn: warnTo(io) });
  let removed;
  let known: boolean;
  try {
    known = (await readUsers(settings.store)).includes(user);
    removed = await countLayers(memory.store, user);
    await memory.engram.forget({ userId: user });
    await removeUser(settings.store, user);
  } finally {
    await memory.close();
  }
  const empty = Object.values(removed).every((count) => count === 0);
  if (args.flags.json) {
    writeJson(io.stdout, { store: settings.store, user, removed });
    return exitCodes.ok;
  }
  const colors = colorsFor(io.stdout, io.env);
  if (empty && !known) writeLines(io.stdout, [`user ${user} had no memory in ${settings.store}: nothing to forget`]);
  else {
    const what = [plural(removed.turns, 'turn'), plural(removed.episodes, 'episode'), plural(removed.facts, 'fact'), plural(removed.topics, 'topic'), plural(removed.cues, 'cue'), plural(removed.tags, 'tag')].join(', ');
    writeLines(io.stdout, [`${colors.green('✔')} forgot user ${colors.bold(user)}: removed ${what} from ${settings.store}`]);
  }
  return exitCodes.ok;
}

/** `engram delete <id>`: deletes one unit with its relations (and cues and tags left without any). */
export async function runDeleteCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const id = args.positionals[0] as string;
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user }, io.env, io.cwd);
  const memory = await openMemory({ path: settings.store, readOnly: false, warn: warnTo(io) });
  let user: string;
  let deleted: boolean;
  try {
    user = await chooseUser(settings.store, settings.user);
    deleted = await memory.engram.delete(id, { userId: user });
  } finally {
    await memory.close();
  }
  if (!deleted) throw new CliError(`no unit ${id} in the memory of user ${user} (${settings.store})`);
  if (args.flags.json) writeJson(io.stdout, { store: settings.store, user, id, deleted });
  else writeLines(io.stdout, [`${colorsFor(io.stdout, io.env).green('✔')} deleted ${id} from the memory of user ${user}`]);
  return exitCodes.ok;
}
