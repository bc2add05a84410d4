import type { TimeInterval } from '../model/time.js';
import type { Evidence } from './recall-types.js';

function day(value: string): string {
  return value.slice(0, 10);
}

function renderInterval(interval: TimeInterval): string {
  const start = day(interval.start);
  const end = day(interval.end);
  if (start === end) return start;
  if (interval.granularity === 'month') return start.slice(0, 7);
  if (interval.granularity === 'year') return start.slice(0, 4);
  return `${start}..${end}`;
}

/**
 * Renders one evidence item with its coordinates (RaMem's context-preserved synthesis), compactly:
 * `[said 2023-05-08 | happened 2023-05-07] Caroline: …`. The answerer, the eval's token budgets and
 * the CLI all use this form.
 */
export function renderEvidence(evidence: Pick<Evidence, 'unit'>): string {
  const { unit } = evidence;
  const parts: string[] = [];
  const session = unit.context.session;
  if (session) parts.push(`said ${day(session.start)}`);
  const eventTime = unit.context.eventTime;
  if (eventTime && (!session || renderInterval(eventTime) !== day(session.start))) parts.push(`happened ${renderInterval(eventTime)}`);
  if (unit.kind === 'fact') {
    parts.push(`${unit.entity} · ${unit.aspect}`);
    if (unit.validTo) parts.push(`until ${day(unit.validTo)}`);
  }
  if (unit.kind === 'topic') parts.push(`topic ${unit.label}`);
  if (unit.context.location) parts.push(`at ${unit.context.location}`);
  const head = parts.length > 0 ? `[${parts.join(' | ')}] ` : '';
  return `${head}${unit.text}`;
}

/** Renders a ranked list of evidence, one item per line. */
export function renderContext(evidence: ReadonlyArray<Pick<Evidence, 'unit'>>): string {
  return evidence.map(renderEvidence).join('\n');
}
