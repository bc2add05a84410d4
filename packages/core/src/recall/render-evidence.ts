import type { TimeInterval } from '../model/time.js';
import type { Evidence } from './recall-types.js';

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function day(value: string): string {
  return value.slice(0, 10);
}

/** `2023-05-08` → `8 May 2023`; the year is left out when it is `omitYear`. Other shapes pass through. */
function humanDay(value: string, omitYear?: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const [, year, month, date] = match as unknown as [string, string, string, string];
  const head = `${Number(date)} ${months[Number(month) - 1] ?? month}`;
  return year === omitYear ? head : `${head} ${year}`;
}

/** An interval written short, against the year it was said in: `7 May`, `1-7 May`, `March`, `2022`. */
function renderInterval(interval: TimeInterval, saidYear?: string): string {
  const start = day(interval.start);
  const end = day(interval.end);
  const year = start.slice(0, 4);
  const yearSuffix = year === saidYear ? '' : ` ${year}`;
  if (interval.granularity === 'year') return year;
  if (interval.granularity === 'month') return `${months[Number(start.slice(5, 7)) - 1] ?? start.slice(0, 7)}${yearSuffix}`;
  if (start === end) return humanDay(start, saidYear);
  if (start.slice(0, 7) === end.slice(0, 7)) return `${Number(start.slice(8))}-${humanDay(end, saidYear)}`;
  if (start.slice(0, 4) === end.slice(0, 4)) return `${humanDay(start, year)}-${humanDay(end, saidYear)}`;
  return `${humanDay(start)}-${humanDay(end)}`;
}

/** An image shared with a turn, as the turn text carries it, and its compact form. */
const sharedImage = / \[shared an image: /g;

/**
 * Renders one evidence item with its coordinates (RaMem's context-preserved synthesis), compactly:
 * `[8 May 2023; event 7 May] Caroline: …` — the date it was said, then when the event happened
 * when that differs (its year left out when it repeats), then a fact's entity and aspect,
 * a topic's label, a place. The answerer, the eval's token budgets and the CLI all use this form.
 */
export function renderEvidence(evidence: Pick<Evidence, 'unit'>): string {
  const { unit } = evidence;
  const parts: string[] = [];
  const session = unit.context.session;
  const said = session ? day(session.start) : undefined;
  if (said !== undefined) parts.push(humanDay(said));
  const eventTime = unit.context.eventTime;
  if (eventTime && (said === undefined || day(eventTime.start) !== said || day(eventTime.end) !== said)) {
    parts.push(`${said === undefined ? 'happened' : 'event'} ${renderInterval(eventTime, said?.slice(0, 4))}`);
  }
  if (unit.kind === 'fact') {
    parts.push(`${unit.entity} · ${unit.aspect}`);
    if (unit.validTo) parts.push(`until ${humanDay(day(unit.validTo))}`);
  }
  if (unit.kind === 'topic') parts.push(`topic ${unit.label}`);
  if (unit.context.location) parts.push(`at ${unit.context.location}`);
  const head = parts.length > 0 ? `[${parts.join('; ')}] ` : '';
  return `${head}${unit.text.replace(sharedImage, ' [image: ')}`;
}

/** Renders a ranked list of evidence, one item per line. */
export function renderContext(evidence: ReadonlyArray<Pick<Evidence, 'unit'>>): string {
  return evidence.map(renderEvidence).join('\n');
}
