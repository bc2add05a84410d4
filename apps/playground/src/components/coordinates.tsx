/** A time interval as the API sends it. */
interface Interval {
  start: string;
  end: string;
  granularity?: string;
  text?: string;
}

function interval(value: Interval): string {
  const range = value.start === value.end ? value.start.slice(0, 16) : `${value.start.slice(0, 10)}..${value.end.slice(0, 10)}`;
  return value.text ? `${range} (“${value.text}”)` : range;
}

/** RaMem's episodic coordinates of a unit: when said, when it happened, who, where, about what. */
export function Coordinates({ value }: { value: Record<string, unknown> | undefined }) {
  if (value === undefined) return null;
  const session = value.session as { id: string; start: string } | undefined;
  const event = value.eventTime as Interval | undefined;
  const mentions = (value.mentionTimes as Interval[] | undefined) ?? [];
  const participants = (value.participants as string[] | undefined) ?? [];
  const entities = (value.entities as string[] | undefined) ?? [];
  const rows: Array<[string, string]> = [];
  if (session) rows.push(['said', `${session.start.slice(0, 16).replace('T', ' ')} (${session.id})`]);
  if (event) rows.push(['happened', interval(event)]);
  if (mentions.length > 0 && !(mentions.length === 1 && event && mentions[0]?.start === event.start && mentions[0]?.end === event.end)) rows.push(['mentions', mentions.map(interval).join('; ')]);
  if (participants.length > 0) rows.push(['who', participants.join(', ')]);
  if (typeof value.location === 'string') rows.push(['where', value.location]);
  if (entities.length > 0) rows.push(['about', entities.join(', ')]);
  return (
    <dl className="coordinates">
      {rows.map(([key, text]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{text}</dd>
        </div>
      ))}
    </dl>
  );
}
