import type { z } from 'zod';
import { InvalidInputError, formatPath } from '../../errors/index.js';

/** One problem found in a loaded file: where (file, record, line), the field path and what is wrong. */
export interface LoaderIssue {
  /** File / record / line, e.g. `data.json: record 3 (conv-41)` or `chat.jsonl:17`; empty when unknown. */
  where: string;
  /** Field path inside the record, e.g. `conversation.session_2[4].text`. */
  path: string;
  /** What is wrong, e.g. `expected string, received number`. */
  message: string;
}

/** Most issues reported in one error; a broken file can otherwise produce thousands. */
const maxIssues = 50;

/** Joins the non-empty parts of a location: `data.json: record 3 (conv-41)`. */
export function joinWhere(...parts: ReadonlyArray<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined && part.length > 0).join(': ');
}

/** Names a record: `record 3 (conv-41)` in an array (1-based), just the id for a lone record. */
export function describeRecord(index: number | undefined, id: unknown): string {
  const name = typeof id === 'string' && id.length > 0 ? id : typeof id === 'number' ? String(id) : undefined;
  if (index === undefined) return name ?? '';
  return name === undefined ? `record ${index + 1}` : `record ${index + 1} (${name})`;
}

/** Renders one issue as the line users see: `data.json: record 3 (conv-41): invalid text: expected string`. */
export function formatIssue(issue: LoaderIssue): string {
  const hasPath = issue.path.length > 0 && issue.path !== '(root)';
  const what = hasPath ? `invalid ${issue.path}: ${issue.message}` : issue.message;
  return issue.where.length > 0 ? `${issue.where}: ${what}` : what;
}

// zod's defaults read "Invalid input: expected string, received undefined"; a missing key deserves its own word.
const errorMap = (issue: { code?: string; input?: unknown; expected?: unknown }): string | undefined => {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `missing (expected ${String(issue.expected)})`;
  return undefined;
};

function cleanMessage(message: string): string {
  return message.replace(/^Invalid input: /, '');
}

/**
 * Gathers every issue of a load before anything is returned, so a loader is all-or-nothing:
 * it either yields every record or throws one {@link InvalidInputError} listing what is wrong.
 */
export class IssueCollector {
  /** Issues found so far (at most 50 kept; `count` has the total). */
  readonly issues: LoaderIssue[] = [];
  /** Total number of issues found. */
  count = 0;

  /** Records an issue. */
  add(where: string, path: ReadonlyArray<PropertyKey> | string, message: string): void {
    this.count += 1;
    if (this.issues.length >= maxIssues) return;
    this.issues.push({ where, path: typeof path === 'string' ? path : formatPath(path), message });
  }

  /**
   * Validates `value` against `schema`; on failure records every issue (paths prefixed with `basePath`)
   * and returns `undefined`.
   */
  validate<T extends z.ZodType>(
    schema: T,
    value: unknown,
    where: string,
    basePath: ReadonlyArray<PropertyKey> = [],
  ): z.output<T> | undefined {
    const result = schema.safeParse(value, { error: errorMap });
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const path = [...basePath, ...issue.path];
      this.add(where, path, cleanMessage(issue.message));
    }
    return undefined;
  }

  /** Throws an {@link InvalidInputError} naming the first issue when any was recorded. */
  throwIfAny(): void {
    const first = this.issues[0];
    if (first === undefined) return;
    const more = this.count - 1;
    const suffix = more > 0 ? ` (and ${more} more issue${more === 1 ? '' : 's'})` : '';
    throw new InvalidInputError({
      message: `${formatIssue(first)}${suffix}`,
      path: first.path.length > 0 ? first.path : '(root)',
      issues: this.issues.map((issue) => ({ path: issue.path, message: formatIssue(issue) })),
      ...(first.where.length > 0 ? { source: first.where } : {}),
    });
  }
}

/** Throws a single-issue {@link InvalidInputError} at once (syntax errors, unknown formats). */
export function throwInputError(where: string, message: string, options: { path?: string; cause?: unknown } = {}): never {
  const path = options.path ?? '(root)';
  throw new InvalidInputError({
    message: where.length > 0 ? `${where}: ${message}` : message,
    path,
    ...(where.length > 0 ? { source: where } : {}),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
