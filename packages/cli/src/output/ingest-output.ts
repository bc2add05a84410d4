import type { AddCounts } from '@engram/core';
import cliProgress from 'cli-progress';
import type { IngestProgress, IngestSummary } from '../memory/ingest-conversations.js';
import { formatDuration, plural, truncate, type Colors, type OutputStream } from './terminal.js';

function countsText(counts: AddCounts): string {
  const parts = [
    plural(counts.turns, 'turn'),
    plural(counts.episodes, 'episode'),
    plural(counts.facts, 'fact'),
    plural(counts.topics, 'topic'),
    plural(counts.cues, 'cue'),
    plural(counts.tags, 'tag'),
  ];
  const skipped = counts.skippedTurns > 0 ? ` (${plural(counts.skippedTurns, 'turn')} already stored, skipped)` : '';
  return `${parts.join(', ')}${skipped}`;
}

/** The end-of-ingest summary: what was written per user and in all, and how long it took. */
export function renderIngestSummary(summary: IngestSummary, colors: Colors): string[] {
  const users = Object.entries(summary.users);
  const lines = [
    `${colors.green('✔')} ingested ${plural(summary.conversations, 'conversation')} (${plural(summary.sessions, 'session')}) for ${plural(users.length, 'user')} into ${summary.store}`,
  ];
  for (const [user, counts] of users) lines.push(`  ${colors.bold(user)}: ${countsText(counts)}`);
  const { total } = summary;
  const nothingNew = total.turns === 0 && total.skippedTurns > 0 ? ' — nothing new, everything was already stored' : '';
  lines.push(
    `total: ${plural(total.turns, 'turn')}, ${plural(total.episodes, 'episode')}, ${plural(total.facts, 'fact')}, ${plural(total.topics, 'topic')} in ${formatDuration(summary.ms)}${nothingNew}`,
  );
  return lines;
}

/** The summary for `--json`. */
export function ingestSummaryJson(summary: IngestSummary, files: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  return { store: summary.store, files, conversations: summary.conversations, sessions: summary.sessions, users: summary.users, total: summary.total, ms: Math.round(summary.ms) };
}

/**
 * A progress bar on stderr while sessions are ingested — only on a terminal, so pipes and logs
 * get the summary alone. Returns the callback to feed and a `stop` that clears the bar.
 */
export function ingestProgressBar(
  stream: OutputStream & NodeJS.WritableStream,
  enabled: boolean,
): { start: (total: number) => void; update: (progress: IngestProgress) => void; stop: () => void } {
  if (!enabled || stream.isTTY !== true) return { start: () => undefined, update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream, format: 'ingest [{bar}] {value}/{total} sessions | {turns} turns | {where}', barsize: 24, hideCursor: true, clearOnComplete: true, fps: 10 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start: (total) => {
      bar.start(total, 0, { turns: 0, where: '' });
      started = true;
    },
    update: (progress) => {
      if (started) bar.update(progress.done, { turns: progress.turns, where: truncate(`${progress.userId} ${progress.conversationId} ${progress.sessionId}`, 40) });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
