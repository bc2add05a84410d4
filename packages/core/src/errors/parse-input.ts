import type { z } from 'zod';
import { InvalidInputError } from './engram-error.js';

/** Renders a zod issue path as `units[2].context.start`. */
export function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out.length === 0 ? '(root)' : out;
}

/**
 * Validates `value` against `schema`; throws an {@link InvalidInputError} naming the first bad field.
 * `label` prefixes the path (e.g. `batch`), `source` says where the value came from.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  options: { label?: string; source?: string } = {},
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: formatPath(issue.path, options.label ?? ''),
    // zod prefixes type errors with "Invalid input: "; after "invalid <path>:" that says it twice.
    message: issue.message.replace(/^Invalid input: /, ''),
  }));
  const first = issues[0] ?? { path: options.label ?? '(root)', message: 'invalid value' };
  const where = options.source ? `${options.source}: ` : '';
  throw new InvalidInputError({
    message: `${where}invalid ${first.path}: ${first.message}`,
    path: first.path,
    issues,
    ...(options.source === undefined ? {} : { source: options.source }),
    cause: result.error,
  });
}
