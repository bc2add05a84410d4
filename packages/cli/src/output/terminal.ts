import picocolors from 'picocolors';

/** A stream the CLI writes to. */
export interface OutputStream {
  write(text: string): unknown;
  /** True on a terminal. */
  isTTY?: boolean;
  /** Terminal width, on a terminal. */
  columns?: number;
}

/** Where a command reads its environment and writes its output. */
export interface CliIo {
  /** Results (text or JSON). */
  stdout: OutputStream;
  /** Progress, notes, warnings and errors. */
  stderr: OutputStream;
  /** Environment variables. */
  env: NodeJS.ProcessEnv;
  /** Working directory (relative paths and `engram.config.json`). */
  cwd: string;
}

/** Text colours for one stream, or plain text. */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Colours for a stream: only on a terminal, never with `NO_COLOR`, always with `FORCE_COLOR`
 * (picocolors' own detection looks at stdout only and turns colours on whenever `CI` is set).
 */
export function colorsFor(stream: OutputStream, env: NodeJS.ProcessEnv): Colors {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0';
  return picocolors.createColors(!noColor && (force || (stream.isTTY === true && env.TERM !== 'dumb')));
}

/** Writes lines to a stream. */
export function writeLines(stream: OutputStream, lines: ReadonlyArray<string>): void {
  if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
}

/** Writes a value as pretty JSON (what `--json` prints). */
export function writeJson(stream: OutputStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Shortens text to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Milliseconds as `850 ms` or `12.3 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `1 turn` / `3 turns`. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
