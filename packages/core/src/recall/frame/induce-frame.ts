import { analyze, words as tokenize } from '../../search/analyzer.js';
import { extractTimeMentions } from '../../ingest/time/index.js';
import type { ScopeFilter } from '../../model/scope.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import { intervalsOverlap } from '../../model/time.js';
import type { MemoryView } from '../view/memory-view.js';
import { aspectsOf } from './aspect-lexicon.js';
import type { RecallFrame } from './recall-frame.js';

const firstPersonWords = new Set(['i', 'me', 'my', 'mine', 'myself', 'im', 'ive', 'id']);
const secondPersonWords = new Set(['you', 'your', 'yours', 'youre']);
const questionWords = new Set(['what', 'when', 'where', 'who', 'whom', 'whose', 'which', 'why', 'how']);
/** A question asking what to do (advice, suggestions, plans) rather than what happened. */
const forwardRequest = /\b(?:should|shall|could|can|would)\s+(?:i|we)\b|\b(?:suggest|recommend)\b|\b(?:any|some)\s+(?:ideas|suggestions|tips|advice)\b/i;
const relationPattern = /\b(after|before|since|until|following|prior to)\s+(?:the\s+|her\s+|his\s+|their\s+|my\s+|a\s+)?([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3})/i;

/** Candidate cue names in a query: its word n-grams (1–3 words) without question words. */
function queryNgrams(words: string[]): string[] {
  const out = new Set<string>();
  for (let size = 1; size <= 3; size++) {
    for (let start = 0; start + size <= words.length; start++) {
      const gram = words.slice(start, start + size);
      if (gram.some((word) => questionWords.has(word))) continue;
      out.add(gram.join(' '));
    }
  }
  return [...out];
}

/**
 * RaMem's recall-condition induction: splits a query into its information need and a recall frame
 * (participants, entities, time window, ordering relation, aspects). Every condition is grounded
 * against the memory itself — speakers and cues that exist, a time window that overlaps the
 * memory's own dates — and a condition that cannot be grounded is dropped, never guessed.
 */
export async function induceFrame(
  query: string,
  context: { store: MemoryStore; scope: ScopeFilter; view: MemoryView; questionDate?: string },
): Promise<RecallFrame> {
  const { view } = context;
  const words = tokenize(query);
  const frame: RecallFrame = { query, need: query, participants: [], entities: [], aspects: [], asksWhen: /^\s*(when|what (date|time|year|month|day))\b/i.test(query) || /\bhow long ago\b/i.test(query), dropped: [] };

  // Participants: speakers the query names (first names as written in the memory).
  const removed: string[] = [];
  for (const speaker of view.speakers) {
    const first = (tokenize(speaker)[0] ?? '').toLowerCase();
    if (first.length > 0 && words.includes(first)) {
      frame.participants.push({ value: speaker, text: first });
      removed.push(first);
    }
  }

  // The asker: in a memory of user–assistant chats, "I/my" in a question is the user, "you" the assistant.
  const roleSpeaker = (role: string) => view.turns.find((turn) => turn.role === role)?.speaker;
  const user = roleSpeaker('user');
  const assistant = roleSpeaker('assistant');
  if (user !== undefined && frame.participants.length === 0 && words.some((word) => firstPersonWords.has(word))) {
    frame.participants.push({ value: user, text: words.find((word) => firstPersonWords.has(word)) as string });
  } else if (assistant !== undefined && frame.participants.length === 0 && words.some((word) => secondPersonWords.has(word))) {
    frame.participants.push({ value: assistant, text: words.find((word) => secondPersonWords.has(word)) as string });
  }

  // Entities: cues of the memory the query names (names or aliases).
  const cues = await context.store.findCues(context.scope, queryNgrams(words));
  for (const cue of cues) {
    frame.entities.push({ value: { id: cue.id, name: cue.name }, text: cue.name });
    if (cue.kind === 'person' && !frame.participants.some((participant) => participant.value.toLowerCase() === cue.name)) {
      const speaker = view.speakers.find((name) => name.toLowerCase() === cue.name || cue.aliases.includes(name.toLowerCase()));
      if (speaker) frame.participants.push({ value: speaker, text: cue.name });
    }
  }

  // Time window: expressions resolved against the question date, else the memory's last date. A
  // request for advice or a plan ("What should I cook this weekend?") looks ahead: its "this
  // weekend" is the coming one, which no memory holds, unless a tense marker says otherwise.
  const reference = context.questionDate ?? view.dateRange?.end;
  if (reference !== undefined) {
    const defaultTense = forwardRequest.test(query) ? 'future' : 'past';
    for (const mention of extractTimeMentions(query, reference, { defaultTense })) {
      const range = view.dateRange;
      if (range && !intervalsOverlap(mention.interval, { start: range.start.slice(0, 10), end: range.end.slice(0, 10) })) {
        frame.dropped.push({ text: mention.text, reason: 'outside the memory’s date range' });
        continue;
      }
      frame.time = { value: { start: mention.interval.start, end: mention.interval.end, field: 'any' }, text: mention.text, anchor: context.questionDate === undefined ? 'memory-end' : 'question-date' };
      removed.push(...tokenize(mention.text));
      break;
    }
  } else if (/\b(last|next|ago|yesterday|tomorrow)\b/i.test(query)) {
    frame.dropped.push({ text: query, reason: 'relative time with no date to ground it' });
  }

  // Ordering relation: "after the wedding" — grounded only when the anchor event is found clearly.
  const relation = relationPattern.exec(query);
  if (relation) {
    const anchorText = relation[2] as string;
    const type = /^(before|until|prior to)$/i.test(relation[1] as string) ? 'before' : 'after';
    const analyzed = new Map<string, number>(analyze(anchorText).map((term) => [term, 1]));
    const scores = [...view.turnIndex.scoreAll(analyzed)].sort((a, b) => b[1] - a[1]);
    const best = scores[0];
    const second = scores[1];
    const anchorTurn = best ? view.turns[best[0]] : undefined;
    if (best && anchorTurn?.context.session && best[1] > 0 && (!second || best[1] >= 1.2 * second[1])) {
      frame.relation = { value: { type, anchor: anchorText, anchorTime: anchorTurn.context.session.start }, text: relation[0] };
    } else {
      frame.dropped.push({ text: relation[0], reason: 'anchor event not found clearly in memory' });
    }
  }

  for (const { aspect, word } of aspectsOf(words)) frame.aspects.push({ value: aspect, text: word });

  const need = words.filter((word) => !questionWords.has(word) && !removed.includes(word)).join(' ');
  frame.need = need.length > 0 ? need : query;
  return frame;
}
