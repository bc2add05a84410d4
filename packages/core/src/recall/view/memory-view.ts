import { analyzeWithCompounds, words as tokenize } from '../../search/analyzer.js';
import { partOfDayTerms } from './part-of-day.js';
import type { ScopeFilter } from '../../model/scope.js';
import type { Turn, Unit } from '../../model/units.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import { addTerms, WeightedBm25, type TermWeights } from './weighted-bm25.js';

/** How much a turn's neighbours count in its lexical document (the previous turn often holds the question it answers). */
const neighbourWeights = { previous: 0.5, next: 0.3 } as const;

const firstPerson = /\b(i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|us|our|ours)\b/i;
const secondPerson = /\b(you|you're|you've|you'd|you'll|your|yours)\b/i;

/** The words of a turn without its `Speaker:` prefix. */
export function turnWords(turn: Turn): string {
  const prefix = `${turn.speaker}: `;
  return turn.text.startsWith(prefix) ? turn.text.slice(prefix.length) : turn.text;
}

/**
 * A read-only view of one tenant's memory that recall strategies share: the turns in conversation
 * order with their neighbours, a contextual lexical index over them, every unit by id, the
 * speakers and the memory's own date range. Built from the store once and cached by the engram
 * (rebuilt when the tenant's memory changes).
 */
export class MemoryView {
  /** Turns in conversation order (by session start, session, index). */
  readonly turns: Turn[];
  /** Every unit of the scope by id. */
  readonly units: Map<string, Unit>;
  /** Position of a turn unit in `turns`. */
  readonly turnPosition: Map<string, number>;
  /** Turn unit id by `sessionId` + `\u0000` + source turn id. */
  readonly turnBySource: Map<string, string>;
  /** Speaker names, as written. */
  readonly speakers: string[];
  /** First and last session dates of the memory (ISO), when any. */
  readonly dateRange: { start: string; end: string } | undefined;
  /** Contextual BM25 over turns (own words 1, previous turn 0.5, next turn 0.3). */
  readonly turnIndex: WeightedBm25;
  /** Analyzed own words of every turn, by position. */
  readonly turnTerms: string[][];
  /** Whether the speaker talks about themselves in a turn (first person), by position. */
  readonly selfReport: Uint8Array;
  /**
   * Whether a turn only asks the other person about themselves (a question in the second person,
   * nothing in the first: "What type of music do you play?"), by position: it is about the listener.
   */
  readonly asksOther: Uint8Array;

  private saidWords: Set<string> | undefined;

  /** Every word the turns say, lower-cased as the analyzer splits them (built on first use). */
  get words(): ReadonlySet<string> {
    if (this.saidWords === undefined) {
      this.saidWords = new Set();
      for (const turn of this.turns) for (const word of tokenize(turnWords(turn))) this.saidWords.add(word);
    }
    return this.saidWords;
  }

  private constructor(units: Unit[]) {
    this.units = new Map(units.map((unit) => [unit.id, unit]));
    const turns = units.filter((unit): unit is Turn => unit.kind === 'turn');
    turns.sort((a, b) => {
      const aStart = a.context.session?.start ?? '';
      const bStart = b.context.session?.start ?? '';
      if (aStart !== bStart) return aStart < bStart ? -1 : 1;
      const aSession = a.scope.sessionId ?? '';
      const bSession = b.scope.sessionId ?? '';
      if (aSession !== bSession) return aSession < bSession ? -1 : 1;
      return a.index - b.index;
    });
    this.turns = turns;
    this.turnPosition = new Map(turns.map((turn, index) => [turn.id, index]));
    this.turnBySource = new Map();
    for (const turn of turns) for (const source of turn.sources) this.turnBySource.set(`${source.sessionId}\u0000${source.turnId}`, turn.id);
    this.speakers = [...new Set(turns.map((turn) => turn.speaker))];
    const dates = turns.map((turn) => turn.context.session?.start).filter((value): value is string => value !== undefined).sort();
    this.dateRange = dates.length > 0 ? { start: dates[0] as string, end: dates[dates.length - 1] as string } : undefined;
    // Indexed as said, hyphenated words also joined up, plus the parts of the day its clock times name.
    this.turnTerms = turns.map((turn) => {
      const text = turnWords(turn);
      const terms = analyzeWithCompounds(text);
      for (const part of partOfDayTerms(text)) terms.push(part);
      return terms;
    });
    this.selfReport = Uint8Array.from(turns, (turn) => (firstPerson.test(turnWords(turn)) ? 1 : 0));
    this.asksOther = Uint8Array.from(turns, (turn, index) => {
      const words = turnWords(turn);
      return this.selfReport[index] === 0 && words.includes('?') && secondPerson.test(words) ? 1 : 0;
    });
    const documents: TermWeights[] = turns.map((turn, index) => {
      const bag = addTerms(new Map(), this.turnTerms[index] as string[]);
      const previous = turns[index - 1];
      if (previous && previous.scope.sessionId === turn.scope.sessionId) addTerms(bag, this.turnTerms[index - 1] as string[], neighbourWeights.previous);
      const next = turns[index + 1];
      if (next && next.scope.sessionId === turn.scope.sessionId) addTerms(bag, this.turnTerms[index + 1] as string[], neighbourWeights.next);
      return bag;
    });
    this.turnIndex = new WeightedBm25(documents);
  }

  /** Reads every unit of `scope` from the store and builds the view. */
  static async load(store: MemoryStore, scope: ScopeFilter): Promise<MemoryView> {
    const units: Unit[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await store.listUnits(scope, { limit: 2000, ...(after === undefined ? {} : { after }) });
      units.push(...page);
      if (page.length < 2000) break;
      after = page[page.length - 1]?.id;
    }
    return new MemoryView(units);
  }

  /** Builds a view over units already in hand (tests, benchmarks). */
  static fromUnits(units: Unit[]): MemoryView {
    return new MemoryView(units);
  }

  /** The turn units a unit was built from (a turn: itself), in conversation order. */
  sourceTurns(unit: Unit): Turn[] {
    if (unit.kind === 'turn') return [unit];
    const out: Turn[] = [];
    for (const source of unit.sources) {
      const id = this.turnBySource.get(`${source.sessionId}\u0000${source.turnId}`);
      const turn = id === undefined ? undefined : this.units.get(id);
      if (turn?.kind === 'turn') out.push(turn);
    }
    return out.sort((a, b) => (this.turnPosition.get(a.id) ?? 0) - (this.turnPosition.get(b.id) ?? 0));
  }

  /** The turns around a turn in the same session, `radius` each side. */
  neighbours(turnId: string, radius = 1): Turn[] {
    const position = this.turnPosition.get(turnId);
    if (position === undefined) return [];
    const turn = this.turns[position] as Turn;
    const out: Turn[] = [];
    for (let offset = -radius; offset <= radius; offset++) {
      const other = this.turns[position + offset];
      if (offset !== 0 && other && other.scope.sessionId === turn.scope.sessionId) out.push(other);
    }
    return out;
  }
}

/** Caches one view per scope; `invalidate` drops a tenant's views when its memory changes. */
export class MemoryViewCache {
  private readonly views = new Map<string, Promise<MemoryView>>();

  constructor(private readonly store: MemoryStore) {}

  /** The view of `scope`, built on first use. */
  get(scope: ScopeFilter): Promise<MemoryView> {
    const key = JSON.stringify([scope.userId, scope.agentId ?? null, scope.sessionId ?? null]);
    let view = this.views.get(key);
    if (!view) {
      view = MemoryView.load(this.store, scope);
      this.views.set(key, view);
      view.catch(() => this.views.delete(key));
    }
    return view;
  }

  /** Drops every cached view of the tenant `userId`. */
  invalidate(userId: string): void {
    for (const key of this.views.keys()) if ((JSON.parse(key) as string[])[0] === userId) this.views.delete(key);
  }
}
