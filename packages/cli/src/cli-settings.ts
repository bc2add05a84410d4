import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { choiceOption, integerOption } from './cli-arguments.js';
import { UsageError } from './cli-errors.js';

/** The recall strategies `engram ask` offers (core's `engram.recall` names). */
export const strategyNames = ['active', 'ramem', 'similarity', 'graph', 'bm25-turns', 'orama-turns'] as const;
/** A recall strategy name. */
export type StrategyName = (typeof strategyNames)[number];

/** The optional configuration file, read from the working directory. */
export const configFileName = 'engram.config.json';

/** Where the store lives when nothing says otherwise. */
export const defaultStorePath = '.engram';

/** How many evidence items `ask` shows by default. */
export const defaultK = 10;

const modelSpec = z.string().regex(/^(openai|anthropic|ollama|openai-compatible):\S+$/, 'must be <provider>:<model> with provider openai, anthropic, ollama or openai-compatible');

const configSchema = z.strictObject({
  store: z.string().min(1).optional(),
  user: z.string().min(1).max(256).optional(),
  strategy: z.enum(strategyNames).optional(),
  k: z.number().int().min(1).max(1000).optional(),
  /** Models by role (`provider:model`); `ENGRAM_<ROLE>_MODEL` / `ENGRAM_MODEL` win over them. */
  models: z
    .strictObject({ default: modelSpec, distill: modelSpec, navigate: modelSpec, answer: modelSpec, judge: modelSpec })
    .partial()
    .optional(),
});

/** Environment variables that choose a model (read by @engram/llm). */
export const modelVariables = ['ENGRAM_MODEL', 'ENGRAM_DISTILL_MODEL', 'ENGRAM_NAVIGATE_MODEL', 'ENGRAM_ANSWER_MODEL', 'ENGRAM_JUDGE_MODEL'] as const;

/** Settings after applying flags > environment > `engram.config.json` > defaults. */
export interface Settings {
  /** Absolute path of the store directory. */
  store: string;
  /** The user, when a flag, `ENGRAM_USER` or the config file names one. */
  user: string | undefined;
  /** Recall strategy. */
  strategy: StrategyName;
  /** Evidence items per question. */
  k: number;
  /** Model choices of the config file by role (`default` for every role); empty when it names none. */
  models: Partial<Record<'default' | 'distill' | 'navigate' | 'answer' | 'judge', string>>;
  /** True when the environment or the config file names any model. */
  modelConfigured: boolean;
}

/** What the command line said (absent fields were not given). */
export interface SettingFlags {
  store?: string | undefined;
  user?: string | undefined;
  strategy?: string | undefined;
  k?: string | undefined;
}

function readConfigFile(cwd: string): z.output<typeof configSchema> {
  const path = resolve(cwd, configFileName);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`${configFileName}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = lineOfJsonError(text, error);
    throw new UsageError(`${configFileName}${where}: malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? '' : ` ${issue.path.join('.')}`;
    throw new UsageError(`${configFileName}: invalid${field}: ${issue?.message ?? 'unexpected value'} (expected { store, user, strategy, k, models })`);
  }
  return parsed.data;
}

function lineOfJsonError(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position));
  return `:${before.split('\n').length}`;
}

function fromEnvironment(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim().length === 0 ? undefined : value;
}

/**
 * Resolves the settings of one run. Precedence: flags > environment (`ENGRAM_STORE`,
 * `ENGRAM_USER`, `ENGRAM_STRATEGY`, `ENGRAM_K`) > `engram.config.json` in `cwd` > defaults
 * (`./.engram`, no user, `active`, 10). Relative store paths are relative to `cwd`. Models: the config
 * file's `models` are read here; the environment's `ENGRAM_<ROLE>_MODEL` / `ENGRAM_MODEL` win over
 * them (resolved by @engram/llm).
 */
export function resolveSettings(flags: SettingFlags, env: NodeJS.ProcessEnv, cwd: string): Settings {
  const config = readConfigFile(cwd);
  const store = flags.store ?? fromEnvironment(env, 'ENGRAM_STORE') ?? config.store ?? defaultStorePath;
  const user = flags.user ?? fromEnvironment(env, 'ENGRAM_USER') ?? config.user;
  if (user !== undefined && (user.trim().length === 0 || user.length > 256)) throw new UsageError(`user: must be 1 to 256 characters, got ${JSON.stringify(user)}`);
  const strategy =
    choiceOption(flags.strategy, '--strategy', strategyNames) ?? choiceOption(fromEnvironment(env, 'ENGRAM_STRATEGY'), 'ENGRAM_STRATEGY', strategyNames) ?? config.strategy ?? 'active';
  const k = integerOption(flags.k, '--k', { min: 1, max: 1000 }) ?? integerOption(fromEnvironment(env, 'ENGRAM_K'), 'ENGRAM_K', { min: 1, max: 1000 }) ?? config.k ?? defaultK;
  const models = config.models ?? {};
  const modelConfigured = Object.keys(models).length > 0 || modelVariables.some((name) => fromEnvironment(env, name) !== undefined);
  return { store: resolve(cwd, store), user, strategy, k, models, modelConfigured };
}
