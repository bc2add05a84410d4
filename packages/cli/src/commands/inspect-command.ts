import { choiceOption, type ParsedArguments } from '../cli-arguments.js';
import { CliError, exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import {
  cueNeighbourhood,
  findCues,
  findUnits,
  inspectKinds,
  kindOf,
  unitNeighbourhood,
  type CueNeighbourhood,
  type Neighbourhood,
  type UnitNeighbourhood,
  type UnitView,
} from '../memory/neighbourhood.js';
import { chooseUser, openMemory } from '../memory/open-memory.js';
import { colorsFor, truncate, writeJson, writeLines, type CliIo, type Colors } from '../output/terminal.js';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** Most matches of a name shown in full. */
const maxMatches = 5;

function unitLine(unit: UnitView, indent: string): string {
  return `${indent}${unit.kind} ${unit.id}: ${truncate(unit.rendered.replace(/\n/g, ' / '), 160)}`;
}

function renderCue(view: CueNeighbourhood, colors: Colors): string[] {
  const { cue } = view;
  const aliases = cue.aliases.length > 0 ? ` · aliases ${cue.aliases.join(', ')}` : '';
  const lines = [`${colors.bold(`cue ${cue.name}`)} ${colors.dim(`(${cue.kind} · ${cue.id}${aliases})`)}`];
  if (view.tags.length === 0) lines.push('  no relations');
  for (const tag of view.tags) {
    lines.push(`  ${colors.cyan(`→ ${tag.label}`)} ${colors.dim(tag.id)}`);
    for (const content of tag.contents) lines.push(unitLine(content, '      → '));
  }
  return lines;
}

function renderUnit(view: UnitNeighbourhood, colors: Colors): string[] {
  const { unit } = view;
  const lines = [colors.bold(`${unit.kind} ${unit.id}`), `  ${unit.rendered.split('\n').join('\n  ')}`];
  const fields: Array<[string, unknown]> = [['scope', unit.scope]];
  for (const key of ['title', 'label', 'entity', 'aspect', 'value', 'validFrom', 'validTo', 'speaker', 'role', 'index']) if (unit[key] !== undefined) fields.push([key, unit[key]]);
  fields.push(['coordinates', unit.context]);
  for (const [key, value] of fields) lines.push(colors.dim(`  ${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`));
  lines.push(colors.cyan(`  (cue, tag) pairs: ${view.pairs.length}`));
  for (const pair of view.pairs) lines.push(`    ${pair.cue.name} → ${pair.tag.label}`);
  if (view.topic !== undefined) lines.push(colors.cyan(`  topic: ${view.topic.label}`) + colors.dim(` (${view.topic.id})`));
  if (view.supersededBy !== undefined) lines.push(colors.cyan('  superseded by:'), unitLine(view.supersededBy, '    '));
  if (view.episodes !== undefined) {
    lines.push(colors.cyan(`  episodes: ${view.episodes.length}`));
    for (const episode of view.episodes) lines.push(unitLine(episode, '    '));
  }
  if (unit.kind !== 'turn') {
    lines.push(colors.cyan(`  source turns: ${view.sources.length}`));
    for (const source of view.sources) {
      lines.push(source.turn === undefined ? `    ${source.sessionId}/${source.turnId} (not stored)` : `    ${source.sessionId}/${source.turnId}: ${truncate(source.turn.rendered, 160)}`);
    }
  } else for (const source of view.sources) lines.push(colors.dim(`  source: session ${source.sessionId}, turn ${source.turnId}`));
  return lines;
}

/** `engram inspect <kind> <id or name>`: a cue or content unit and its neighbourhood in the memory graph. */
export async function runInspectCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const kind = choiceOption(args.positionals[0], 'kind', inspectKinds) as (typeof inspectKinds)[number];
  const idOrName = args.positionals.slice(1).join(' ');
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user }, io.env, io.cwd);
  const memory = await openMemory({ path: settings.store, readOnly: true, warn: (message) => io.stderr.write(`engram: warning: ${message}\n`) });
  const views: Neighbourhood[] = [];
  let user: string;
  let found = 0;
  try {
    user = await chooseUser(settings.store, settings.user);
    if (kind === 'cue') {
      const cues = await findCues(memory.store, user, idOrName);
      found = cues.length;
      for (const cue of cues.slice(0, maxMatches)) views.push(await cueNeighbourhood(memory.store, user, cue));
    } else {
      const units = await findUnits(memory.store, user, kind, idOrName);
      found = units.length;
      if (found === 0) {
        const actual = await kindOf(memory.store, user, idOrName);
        if (actual !== undefined) throw new CliError(`${idOrName} is ${article(actual)} ${actual}, not ${article(kind)} ${kind}: try engram inspect ${actual} ${idOrName}`);
      }
      for (const unit of units.slice(0, maxMatches)) views.push(await unitNeighbourhood(memory.store, user, unit));
    }
  } finally {
    await memory.close();
  }
  if (found === 0) throw new CliError(`no ${kind} ${JSON.stringify(idOrName)} in the memory of user ${user} (${settings.store})`);
  if (args.flags.json) {
    writeJson(io.stdout, { store: settings.store, user, query: { kind, idOrName }, matches: found, results: views });
    return exitCodes.ok;
  }
  const colors = colorsFor(io.stdout, io.env);
  const lines: string[] = [];
  if (found > 1) lines.push(colors.dim(`${found} ${kind}s match ${JSON.stringify(idOrName)}${found > maxMatches ? `; showing ${maxMatches}` : ''}`), '');
  views.forEach((view, index) => {
    if (index > 0) lines.push('');
    lines.push(...(view.kind === 'cue' ? renderCue(view as CueNeighbourhood, colors) : renderUnit(view as UnitNeighbourhood, colors)));
  });
  writeLines(io.stdout, lines);
  return exitCodes.ok;
}
