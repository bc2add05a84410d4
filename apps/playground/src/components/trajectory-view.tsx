import { useEffect, useState } from 'react';
import type { EvidencePayload, TraceStepPayload } from '../api.js';

/** A navigator action (`{ type: 'query_tag_events', cue: 'boston' }`) as one line. */
function actionText(action: Record<string, unknown>): string {
  const rest = Object.entries(action)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`);
  return `${String(action.type)}${rest.length > 0 ? ` (${rest.join('; ')})` : ''}`;
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function Fields({ record }: { record: Record<string, unknown> | undefined }) {
  if (record === undefined) return null;
  return (
    <dl className="fields">
      {Object.entries(record)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{valueText(value)}</dd>
          </div>
        ))}
    </dl>
  );
}

function Step({ step }: { step: TraceStepPayload }) {
  const output = step.output ?? {};
  if (step.action === 'select') {
    const actions = (output.actions as Array<Record<string, unknown>> | undefined) ?? [];
    return (
      <div className="trace-step select">
        <h4>select — {actions.length === 0 ? 'no action' : `${actions.length} action${actions.length > 1 ? 's' : ''} chosen`}</h4>
        <ol>
          {actions.map((action, index) => (
            <li key={index}>{actionText(action)}</li>
          ))}
        </ol>
        {typeof output.refused === 'number' && output.refused > 0 ? <small>{output.refused} refused (budget or repeats)</small> : null}
        {step.reason ? <p className="reason">{step.reason}</p> : null}
      </div>
    );
  }
  if (step.action === 'expand') {
    return (
      <div className="trace-step expand">
        <h4>expand — {actionText(step.input ?? {})}</h4>
        <p>
          → {String(output.contents ?? 0)} contents, {String(output.cues ?? 0)} cues, {String(output.tags ?? 0)} tags
        </p>
      </div>
    );
  }
  if (step.action === 'route') {
    const candidates = Number(output.candidates ?? 0);
    const kept = Number(output.kept ?? 0);
    const pruned = Number(output.pruned ?? 0);
    return (
      <div className="trace-step route" data-testid="route-step">
        <h4>
          route — {candidates} candidates: kept {kept}, pruned {pruned}
        </h4>
        <div className="keep-bar" role="img" aria-label={`kept ${kept} of ${candidates}`}>
          <span className="kept" style={{ flexGrow: kept }} />
          <span className="pruned" style={{ flexGrow: pruned }} />
        </div>
        <Fields record={Object.fromEntries(Object.entries(output).filter(([key]) => !['candidates', 'kept', 'pruned'].includes(key)))} />
        {step.reason ? <p className="reason">{step.reason}</p> : null}
      </div>
    );
  }
  if (step.action === 'stop') {
    return (
      <div className="trace-step stop" data-testid="stop-step">
        <h4>stop</h4>
        <p className="reason">{step.reason ?? 'budget reached'}</p>
        <Fields record={step.output} />
      </div>
    );
  }
  return (
    <div className={`trace-step ${step.action}`}>
      <h4>{step.action}</h4>
      <Fields record={step.input} />
      <Fields record={step.output} />
      {step.reason ? <p className="reason">{step.reason}</p> : null}
    </div>
  );
}

/** Splits a trace into rounds (select → expand → route), by step number. */
export function traceRounds(trace: ReadonlyArray<TraceStepPayload>): TraceStepPayload[][] {
  const rounds: TraceStepPayload[][] = [];
  for (const step of trace) {
    const last = rounds[rounds.length - 1];
    if (last !== undefined && last[0]?.step === step.step) last.push(step);
    else rounds.push([step]);
  }
  return rounds;
}

/** The active reconstruction, one round at a time: actions chosen, what each expansion found, what routing kept and pruned, and why it stopped. */
export function TrajectoryView({ trace, evidence }: { trace: TraceStepPayload[]; evidence: EvidencePayload[] }) {
  const rounds = traceRounds(trace);
  const [index, setIndex] = useState(0);
  const [all, setAll] = useState(false);
  useEffect(() => setIndex(0), [trace]);
  const shown = all ? rounds : rounds.slice(index, index + 1);
  const hits = evidence.filter((item) => item.goldTurns.length > 0).length;
  return (
    <section className="panel trajectory" aria-label="active trajectory" data-testid="trajectory">
      <div className="graph-head">
        <h2>Active reconstruction, step by step</h2>
        <span data-testid="round-indicator">
          round {index + 1} of {rounds.length}
        </span>
        <button onClick={() => setIndex(Math.max(0, index - 1))} disabled={all || index === 0} aria-label="previous round">
          ◀ prev
        </button>
        <button onClick={() => setIndex(Math.min(rounds.length - 1, index + 1))} disabled={all || index + 1 >= rounds.length} aria-label="next round">
          next ▶
        </button>
        <label>
          <input type="checkbox" checked={all} onChange={() => setAll(!all)} /> all rounds
        </label>
        <small>
          {evidence.length} evidence items{hits > 0 ? `, ${hits} with gold turns` : ''}
        </small>
      </div>
      {shown.map((round) => (
        <div key={round[0]?.step} className="round">
          <h3>Round {rounds.indexOf(round) + 1}</h3>
          {round.map((step, position) => (
            <Step key={position} step={step} />
          ))}
        </div>
      ))}
    </section>
  );
}
