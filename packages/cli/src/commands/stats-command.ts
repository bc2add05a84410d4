import type { ParsedArguments } from '../cli-arguments.js';
import { exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { countLayers, type LayerCounts } from '../memory/count-layers.js';
import { openMemory } from '../memory/open-memory.js';
import { readUsers, userRegistryFile } from '../memory/user-registry.js';
import { colorsFor, writeJson, writeLines, type CliIo } from '../output/terminal.js';

const columns: ReadonlyArray<keyof LayerCounts> = ['turns', 'episodes', 'facts', 'topics', 'cues', 'tags'];

function renderTable(rows: ReadonlyArray<[string, LayerCounts]>): string[] {
  const header = ['user', ...columns];
  const cells = rows.map(([user, counts]) => [user, ...columns.map((column) => String(counts[column]))]);
  const widths = header.map((title, index) => Math.max(title.length, ...cells.map((row) => (row[index] ?? '').length)));
  const line = (row: ReadonlyArray<string>) => row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
  return [line(header), ...cells.map(line)];
}

/** `engram stats`: counts per layer and user, read from a reader of the store. */
export async function runStatsCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user }, io.env, io.cwd);
  const memory = await openMemory({ path: settings.store, readOnly: true, warn: (message) => io.stderr.write(`engram: warning: ${message}\n`) });
  const rows: Array<[string, LayerCounts]> = [];
  try {
    const users = settings.user === undefined ? await readUsers(settings.store) : [settings.user];
    for (const user of users) rows.push([user, await countLayers(memory.store, user)]);
  } finally {
    await memory.close();
  }
  if (args.flags.json) {
    writeJson(io.stdout, { store: settings.store, users: Object.fromEntries(rows) });
    return exitCodes.ok;
  }
  const colors = colorsFor(io.stdout, io.env);
  const lines = [colors.bold(`store ${settings.store}`)];
  if (rows.length === 0) lines.push(`no users recorded (the CLI lists users it wrote to in ${userRegistryFile}); ask for one with --user <id>`);
  else lines.push(...renderTable(rows));
  writeLines(io.stdout, lines);
  return exitCodes.ok;
}
