import { parseArgs } from 'node:util';
import { UsageError } from './cli-errors.js';

/** One option of a command. */
export interface OptionSpec {
  /** `string` takes a value, `boolean` is a switch. */
  type: 'string' | 'boolean';
  /** One-letter alias. */
  short?: string;
  /** Name of the value in the help, e.g. `PATH`. */
  value?: string;
  /** One line of help. */
  description: string;
}

/** What `engram <command>` accepts and does. */
export interface CommandSpec {
  /** The command word. */
  name: string;
  /** One line for `engram --help`. */
  summary: string;
  /** Usage line(s) after `engram `. */
  usage: string[];
  /** Longer help text shown by `engram <command> --help`. */
  details?: string;
  /** Fewest and most positional arguments (`undefined`: no limit). */
  positionals: { min: number; max: number | undefined; name: string };
  /** Options besides `--help`. */
  options: Record<string, OptionSpec>;
  /** Runnable examples for the help. */
  examples: string[];
}

/** A parsed command line. */
export interface ParsedArguments {
  /** Positional arguments. */
  positionals: string[];
  /** String options as given (absent when not given). */
  strings: Record<string, string | undefined>;
  /** Switches (false when not given). */
  flags: Record<string, boolean>;
  /** `--help` was given. */
  help: boolean;
}

const helpOption: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

/** Parses a command's arguments strictly: an unknown option or a missing value is a {@link UsageError}. */
export function parseCommandArguments(spec: CommandSpec, args: string[]): ParsedArguments {
  const options = { ...spec.options, help: helpOption };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(options).map(([name, option]) => [name, option.short === undefined ? { type: option.type } : { type: option.type, short: option.short }]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${describeParseError(error)} (see engram ${spec.name} --help)`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const help = values.help === true;
  const strings: Record<string, string | undefined> = {};
  const flags: Record<string, boolean> = {};
  for (const [name, option] of Object.entries(spec.options)) {
    if (option.type === 'string') strings[name] = values[name] as string | undefined;
    else flags[name] = values[name] === true;
  }
  const positionals = parsed.positionals;
  if (!help) {
    const { min, max, name } = spec.positionals;
    if (positionals.length < min) throw new UsageError(`missing ${name} (see engram ${spec.name} --help)`);
    if (max !== undefined && positionals.length > max) {
      const extra = positionals.slice(max).map((value) => JSON.stringify(value)).join(', ');
      throw new UsageError(`unexpected argument${positionals.length - max === 1 ? '' : 's'} ${extra} (see engram ${spec.name} --help)`);
    }
  }
  return { positionals, strings, flags, help };
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return /argument missing/.test(message) ? `option ${option} needs a value` : `option ${option} does not take a value`;
  }
  return message.split('\n')[0] ?? message;
}

/** Reads a whole number option (`--k 5`) within bounds; `undefined` when absent. */
export function integerOption(value: string | undefined, name: string, bounds: { min: number; max: number }): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number) || number < bounds.min || number > bounds.max) {
    throw new UsageError(`${name}: must be a whole number from ${bounds.min} to ${bounds.max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

/** Reads an option that must be one of `choices`; `undefined` when absent. */
export function choiceOption<T extends string>(value: string | undefined, name: string, choices: ReadonlyArray<T>): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as ReadonlyArray<string>).includes(value)) {
    throw new UsageError(`${name}: unknown value ${JSON.stringify(value)}, expected one of ${choices.join(', ')}`);
  }
  return value as T;
}

/** Renders the help of a command. */
export function commandHelp(spec: CommandSpec): string {
  const options = { ...spec.options, help: helpOption };
  const labels = Object.entries(options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `;
    const value = option.type === 'string' ? ` <${option.value ?? 'value'}>` : '';
    return [`${short}--${name}${value}`, option.description] as const;
  });
  const width = Math.max(...labels.map(([label]) => label.length));
  const lines = [`engram ${spec.name} — ${spec.summary}`, '', 'Usage:', ...spec.usage.map((line) => `  engram ${line}`)];
  if (spec.details !== undefined) lines.push('', spec.details);
  lines.push('', 'Options:', ...labels.map(([label, description]) => `  ${label.padEnd(width)}  ${description}`));
  if (spec.examples.length > 0) lines.push('', 'Examples:', ...spec.examples.map((example) => `  ${example}`));
  return lines.join('\n');
}
