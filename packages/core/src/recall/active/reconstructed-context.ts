import type { Turn } from '../../model/units.js';
import type { Candidate } from '../../ports/navigator.js';
import { unitInWindow } from '../../store-kit/unit-filter.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import type { EvidenceReason } from '../recall-types.js';
import { scoreTurns, type QueryModel } from '../relevance/query-model.js';
import type { MemoryView } from '../view/memory-view.js';
import { addTerms } from '../view/weighted-bm25.js';
import { isPluralCue } from '../frame/aspect-lexicon.js';

/** Weights of the context ranking. */
export const contextWeights = {
  /** Activation decay per hop along a chain of cues named in retrieved content. */
  decay: 0.95,
  /** How much full activation multiplies a turn's lexical score by (1 + this). */
  activation: 0.5,
  /** What full activation adds on its own, as a share of the best lexical score (breaks ties the words cannot). */
  activationFloor: 0.15,
  /** Bonus of a turn inside the frame's time window, as a share of the best lexical score. */
  frameTime: 0.5,
  /**
   * Bonus of a turn that the current fact of an asked-about single-valued aspect comes from
   * ("Where does Maya live now?" → Maya · home = Boston), as a share of the best lexical score.
   */
  currentFact: 1.5,
  /**
   * Bonus of a turn that a fact of an aspect asked about in the plural comes from ("What
   * activities does Maya do?" → each Maya · hobby fact is one item of the answer), as a share of
   * the best lexical score.
   */
  listFact: 0.5,
  /** Weight of navigator expansion terms in the query. */
  expansion: 0.15,
} as const;

interface Entry {
  turn: Turn;
  position: number;
  reasons: EvidenceReason[];
  step: number;
  activation: number;
  /** Whether one of its reasons is the current fact of an asked-about single-valued aspect. */
  currentFact: boolean;
  /** Whether one of its reasons is a (not superseded) fact of an asked-about aspect. */
  listFact: boolean;
}

const isCurrentFact = (reason: EvidenceReason) => reason.operator === 'query_personal_aspect' && reason.detail?.includes('(current)') === true;

/**
 * H(t), the reconstructed context: the turns kept so far with how they were reached. Ranking is
 * lexical relevance (under the query plus the navigator's expansions) reinforced by spreading
 * activation: contents reached from a cue the query names start active, and activation flows,
 * decaying, along cues that retrieved content names. Activation multiplies relevance (a linked but
 * off-topic turn stays low) and adds a small floor, so where the words cannot tell candidates apart
 * (the separation task) the chain from the anchor decides.
 */
export class ReconstructedContext {
  private readonly entries = new Map<string, Entry>();
  private readonly expansions = new Set<string>();
  private readonly windowMemo = new Map<string, boolean>();
  /** Lexical scores under the current model; recomputed only when the expansions change. */
  private lexical: { version: number; scores: Map<number, number>; best: number } | undefined;
  /** Aspects the query asks about in the plural ("what activities", "which hobbies"). */
  private readonly listAspects: string[];

  constructor(
    private readonly view: MemoryView,
    private readonly model: QueryModel,
    private readonly frame: RecallFrame,
  ) {
    this.listAspects = frame.aspects.filter((aspect) => isPluralCue(aspect.text)).map((aspect) => ` · ${aspect.value}`);
  }

  /** Whether a reason is a (not superseded) fact of an aspect the query asks about in the plural. */
  private readonly isListFact = (reason: EvidenceReason): boolean => {
    if (reason.operator !== 'query_personal_aspect' || this.listAspects.length === 0) return false;
    const detail = reason.detail ?? '';
    return !detail.includes('(superseded)') && this.listAspects.some((aspect) => detail.includes(aspect));
  };

  /** Adds navigator expansion terms to the ranking query. */
  expand(terms: Iterable<string>): void {
    for (const term of terms) this.expansions.add(term);
  }

  /** The query model with the expansions. */
  currentModel(): Pick<QueryModel, 'terms' | 'speaker'> {
    const terms = new Map(this.model.terms);
    for (const term of this.expansions) if (!terms.has(term)) addTerms(terms, [term], contextWeights.expansion);
    return { terms, speaker: this.model.speaker };
  }

  /** Whether a turn is held. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Activation of a held turn (0 when absent). */
  activationOf(id: string): number {
    return this.entries.get(id)?.activation ?? 0;
  }

  /** Adds or reinforces a turn; returns true when it is new. */
  hold(turn: Turn, reasons: EvidenceReason[], step: number, activation: number): boolean {
    const existing = this.entries.get(turn.id);
    if (existing) {
      existing.reasons.push(...reasons);
      existing.activation = Math.max(existing.activation, activation);
      existing.currentFact ||= reasons.some(isCurrentFact);
      existing.listFact ||= reasons.some(this.isListFact);
      return false;
    }
    this.entries.set(turn.id, { turn, position: this.view.turnPosition.get(turn.id) ?? -1, reasons: [...reasons], step, activation, currentFact: reasons.some(isCurrentFact), listFact: reasons.some(this.isListFact) });
    return true;
  }

  private lexicalScores(): { scores: Map<number, number>; best: number } {
    if (this.lexical?.version !== this.expansions.size) {
      const scores = scoreTurns(this.view, this.currentModel());
      let best = 1e-9;
      for (const value of scores.values()) if (value > best) best = value;
      this.lexical = { version: this.expansions.size, scores, best };
    }
    return this.lexical;
  }

  /** Whether a turn lies in the frame's time window (the frame is fixed for a recall, so this is remembered). */
  private inWindow(turn: Turn): boolean {
    const window = this.frame.time?.value;
    if (window === undefined) return false;
    let inside = this.windowMemo.get(turn.id);
    if (inside === undefined) this.windowMemo.set(turn.id, (inside = unitInWindow(turn, window)));
    return inside;
  }

  /** Scores turns (held or not) the way the context ranks them. */
  score(turns: ReadonlyArray<{ turn: Turn; activation: number; reasons?: ReadonlyArray<EvidenceReason>; currentFact?: boolean; listFact?: boolean }>): number[] {
    const { scores: lexical, best } = this.lexicalScores();
    return turns.map(({ turn, activation, reasons, currentFact, listFact }) => {
      let score = lexical.get(this.view.turnPosition.get(turn.id) ?? -1) ?? 0;
      score = score * (1 + contextWeights.activation * activation) + contextWeights.activationFloor * best * activation;
      if (this.inWindow(turn)) score += contextWeights.frameTime * best;
      // The current value of a single-valued aspect asked about is direct evidence even when it shares no word with the question.
      if (currentFact ?? reasons?.some(isCurrentFact)) score += contextWeights.currentFact * best;
      else if (listFact ?? reasons?.some(this.isListFact)) score += contextWeights.listFact * best;
      return score;
    });
  }

  /** The held turns, best first (ties: conversation order). */
  ranked(): Candidate[] {
    const entries = [...this.entries.values()];
    const scores = this.score(entries);
    return entries
      .map((entry, index) => ({ entry, score: scores[index] as number }))
      .sort((a, b) => b.score - a.score || a.entry.position - b.entry.position)
      .map(({ entry, score }) => ({ unit: entry.turn, score, reasons: entry.reasons, step: entry.step }));
  }
}
