import type {
  AskPayload,
  GraphLayer,
  GraphPayload,
  IngestJobPayload,
  MemorySummaryPayload,
  NodePayload,
  PlaygroundStrategy,
  QuestionPayload,
  StatusPayload,
  TimelinePayload,
} from '@engram/cli';

export type * from '@engram/cli';

/** The filters shared by the graph and the timeline. */
export interface Filters {
  layers: GraphLayer[];
  entity: string;
  from: string;
  to: string;
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${response.status} ${response.statusText}: ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new Error((body as { error?: string }).error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

const memoryPath = (user: string, what: string) => `/api/memories/${encodeURIComponent(user)}/${what}`;

function filterQuery(filters: Partial<Filters>, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (filters.layers !== undefined) params.set('layers', filters.layers.join(','));
  if (filters.entity) params.set('entity', filters.entity);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  return params.toString();
}

export const api = {
  status: () => request<StatusPayload>('/api/status'),
  loadSample: (sample: string) =>
    request<IngestJobPayload>('/api/load', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sample }) }),
  upload: (file: File) => request<IngestJobPayload>(`/api/upload?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file }),
  job: (id: string) => request<IngestJobPayload>(`/api/jobs/${encodeURIComponent(id)}`),
  summary: (user: string) => request<MemorySummaryPayload>(memoryPath(user, 'summary')),
  graph: (user: string, filters: Filters, limit: number) => request<GraphPayload>(`${memoryPath(user, 'graph')}?${filterQuery(filters, { limit })}`),
  timeline: (user: string, filters: Filters, offset: number, limit: number) =>
    request<TimelinePayload>(`${memoryPath(user, 'timeline')}?${filterQuery({ ...filters, layers: undefined }, { offset, limit })}`),
  node: (user: string, id: string) => request<NodePayload>(memoryPath(user, `nodes/${encodeURIComponent(id)}`)),
  questions: (user: string) => request<QuestionPayload[]>(memoryPath(user, 'questions')),
  ask: (input: { user: string; question: string; questionId?: string; strategies: PlaygroundStrategy[]; k: number }) =>
    request<AskPayload>('/api/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }),
};
