/** The command line was wrong (unknown command or option, bad value): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure with a message meant for the user, no stack needed: exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** Exit codes of `engram`. */
export const exitCodes = { ok: 0, error: 1, usage: 2 } as const;

function isEngramError(error: unknown): error is Error & { name: string } {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[Symbol.for('engram.error')] === true;
}

/** Folds a message onto one line: errors are read in a terminal and grepped in logs. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * The one line shown for an error. Engram's own errors (invalid input naming file, line and field;
 * store failures naming the store) and CLI errors speak for themselves; anything else is
 * unexpected, so its class is named too (`ENGRAM_DEBUG=1` prints the stack).
 */
export function describeError(error: unknown): string {
  if (error instanceof UsageError || error instanceof CliError || isEngramError(error)) return oneLine(error.message);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return oneLine(`${error.name}${code === undefined ? '' : ` ${code}`}: ${error.message}`);
  }
  return oneLine(String(error));
}
