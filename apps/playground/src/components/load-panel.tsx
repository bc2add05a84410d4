import { useRef, useState, type DragEvent } from 'react';
import { api, type IngestJobPayload, type SampleInfo } from '../api.js';
import { ErrorMessage } from './error-message.js';

/** How often a running ingest is polled. */
const pollMs = 250;

/** Loads a bundled sample or a dropped file, showing the ingest's progress and any error. */
export function LoadPanel({ samples, onLoaded }: { samples: SampleInfo[]; onLoaded: (users: string[]) => void }) {
  const [job, setJob] = useState<IngestJobPayload>();
  const [error, setError] = useState<string>();
  const [hover, setHover] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = job !== undefined && (job.status === 'reading' || job.status === 'ingesting');

  const follow = async (start: Promise<IngestJobPayload>) => {
    setError(undefined);
    try {
      let current = await start;
      setJob(current);
      while (current.status === 'reading' || current.status === 'ingesting') {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        current = await api.job(current.id);
        setJob(current);
      }
      if (current.status === 'failed') setError(current.error ?? 'the ingest failed');
      else onLoaded(current.users);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
      setJob(undefined);
    }
  };

  const upload = (files: FileList | null) => {
    const file = files?.[0];
    if (file !== undefined) void follow(api.upload(file));
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setHover(false);
    if (!busy) upload(event.dataTransfer.files);
  };

  return (
    <section className="panel load" aria-label="load a conversation">
      <h2>Load a conversation</h2>
      {samples.map((sample) => (
        <button key={sample.id} className="sample" disabled={busy} onClick={() => void follow(api.loadSample(sample.id))} data-sample={sample.id}>
          <strong>{sample.label}</strong>
          <small>{sample.description}</small>
        </button>
      ))}
      <div
        className={`dropzone${hover ? ' hover' : ''}`}
        data-testid="dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setHover(true);
        }}
        onDragLeave={() => setHover(false)}
        onDrop={drop}
      >
        Drop a LoCoMo, LongMemEval, JSON or JSONL file (or .gz) here, or{' '}
        <button className="link" disabled={busy} onClick={() => input.current?.click()}>
          choose one
        </button>
        <input ref={input} type="file" hidden aria-label="conversation file" onChange={(event) => upload(event.target.files)} />
      </div>
      {job ? (
        <div className={`job ${job.status}`} data-testid="ingest-job" data-status={job.status}>
          <div>
            {job.source}
            {job.format ? ` (${job.format})` : ''}: {job.status === 'reading' ? 'reading and checking…' : null}
            {job.status === 'ingesting' ? `session ${job.done} of ${job.total}` : null}
            {job.status === 'done' ? `done — ${job.total} sessions, ${job.turns} new turns in ${(job.ms / 1000).toFixed(1)} s` : null}
            {job.status === 'failed' ? 'failed' : null}
          </div>
          <progress max={Math.max(1, job.total)} value={job.status === 'done' ? Math.max(1, job.total) : job.done} aria-label="ingest progress" />
          {job.users.length > 1 ? <small>{job.users.length} memories (one per conversation)</small> : null}
          {job.questions > 0 ? <small>{job.questions} benchmark questions with gold evidence</small> : null}
        </div>
      ) : null}
      <ErrorMessage error={error} testId="load-error" />
    </section>
  );
}
