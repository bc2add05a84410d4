import { renderEvidence, type Evidence, type EvidenceReason, type RecallResult, type TraceStep } from '@engram/core';
import { truncate, type Colors } from './terminal.js';

/** How many reasons are listed per evidence item before `+N more`. */
const reasonsShown = 3;

function reasonText(reason: EvidenceReason): string {
  const parts = [reason.operator];
  if (reason.detail !== undefined) parts.push(reason.detail);
  if (reason.frameCondition !== undefined) parts.push(`[${reason.frameCondition}]`);
  return parts.join(' ');
}

/** Why an item was chosen, deduplicated, in the order the strategy recorded it. */
export function evidenceReasons(evidence: Pick<Evidence, 'reasons'>): string[] {
  return [...new Set(evidence.reasons.map(reasonText))];
}

function sourcesText(evidence: Evidence): string {
  const sources = evidence.sources.map((source) => `${source.sessionId}/${source.turnId}`);
  return sources.length <= 4 ? sources.join(', ') : `${sources.slice(0, 4).join(', ')}, +${sources.length - 4}`;
}

/** The text of a rendered item with continuation lines indented under the first. */
function indentLines(text: string, indent: string): string {
  return text.split('\n').join(`\n${indent}`);
}

/** One evidence item as lines: the rendered unit with its coordinates, then what it is and why it was chosen. */
export function renderEvidenceLines(evidence: Evidence, rank: number, colors: Colors): string[] {
  const number = `${String(rank).padStart(2)}. `;
  const indent = ' '.repeat(number.length);
  const reasons = evidenceReasons(evidence);
  const shown = reasons.slice(0, reasonsShown).map((reason) => truncate(reason, 120));
  const more = reasons.length > reasonsShown ? ` (+${reasons.length - reasonsShown} more)` : '';
  const lines = [`${colors.bold(number)}${indentLines(renderEvidence(evidence), indent)}`];
  const about = [`${evidence.unit.kind} ${evidence.unit.id}`, `score ${evidence.score.toFixed(3)}`];
  if (evidence.sources.length > 0) about.push(`from ${sourcesText(evidence)}`);
  lines.push(colors.dim(`${indent}${about.join(' · ')}`));
  if (shown.length > 0) lines.push(colors.dim(`${indent}why: ${shown.join('; ')}${more}`));
  return lines;
}

function formatScalar(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(truncate(value, 60)) : truncate(value, 60);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return String(value);
}

/** A navigator action such as `{ type: 'query_tag_events', cue: 'boston' }` as `query_tag_events boston`. */
function formatAction(action: Record<string, unknown>): string {
  const rest = Object.entries(action)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => (key === 'cue' || key === 'query' || key === 'contentId' ? formatValue(value) : `${key}=${formatValue(value)}`));
  return [String(action.type), ...rest].join(' ');
}

function formatValue(value: unknown, depth = 0): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => typeof item === 'object' && item !== null && 'type' in item)) return value.map((item) => formatAction(item as Record<string, unknown>)).join(', ');
    if (value.every((item) => typeof item !== 'object' || item === null) && value.length <= 8) return `[${value.map(formatScalar).join(', ')}]`;
    return `${value.length} items`;
  }
  if (typeof value === 'object' && value !== null) {
    if (depth > 0) return '{…}';
    return formatRecord(value as Record<string, unknown>, depth + 1);
  }
  return formatScalar(value);
}

function formatRecord(record: Record<string, unknown>, depth = 0): string {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value, depth)}`)
    .join(' ');
}

/** One step of a recall trace as one line: `step 1  expand  query_tag_events boston → contents=6 cues=1 tags=3`. */
export function renderTraceStep(step: TraceStep, colors: Colors): string {
  const input = step.input === undefined ? '' : 'type' in step.input ? formatAction(step.input) : formatRecord(step.input);
  const output = step.output === undefined ? '' : formatRecord(step.output);
  const body = [input, output].filter((part) => part.length > 0).join(' → ');
  const reason = step.reason === undefined ? '' : colors.dim(`${body.length > 0 ? ' — ' : ''}${step.reason}`);
  return `  ${colors.dim(`step ${step.step}`)}  ${colors.cyan(step.action.padEnd(12))} ${body}${reason}`;
}

/** A recall result as text: the question, the evidence with coordinates and reasons, and (optionally) the trace. */
export function renderRecallText(result: RecallResult, options: { user: string; k: number; trace: boolean; colors: Colors }): string[] {
  const { colors } = options;
  const lines = [
    colors.bold(`? ${result.query}`),
    colors.dim(`  user ${options.user} · strategy ${result.strategy} · ${result.evidence.length} of k=${options.k} evidence items`),
    '',
  ];
  if (result.evidence.length === 0) lines.push('  no evidence found in this user’s memory');
  result.evidence.forEach((evidence, index) => lines.push(...renderEvidenceLines(evidence, index + 1, colors)));
  if (options.trace) {
    lines.push('', colors.bold(`reconstruction trace (${result.trace.length} steps):`));
    for (const step of result.trace) lines.push(renderTraceStep(step, colors));
  }
  return lines;
}

/** A recall result for `--json`: evidence without vectors, plus the trace when asked for. */
export function recallJson(result: RecallResult, options: { user: string; k: number; trace: boolean }): Record<string, unknown> {
  return {
    query: result.query,
    user: options.user,
    strategy: result.strategy,
    k: options.k,
    answer: null,
    evidence: result.evidence.map((evidence, index) => ({
      rank: index + 1,
      id: evidence.unit.id,
      kind: evidence.unit.kind,
      text: evidence.unit.text,
      rendered: renderEvidence(evidence),
      score: evidence.score,
      coordinates: evidence.coordinates,
      sources: evidence.sources,
      reasons: evidence.reasons,
    })),
    ...(options.trace ? { trace: result.trace } : {}),
  };
}
