import {
  intervalBounds,
  normalizeName,
  relationKey,
  scopeMatches,
  unitMatches,
  unitTimeKey,
  type Cue,
  type Relation,
  type ScopeFilter,
  type Tag,
  type TimeField,
  type TimeWindow,
  type Unit,
  type UnitFilter,
  type UnitKind,
  type VectorMatrixOptions,
} from '@engram/core';
import { LexicalIndex } from './lexical-index.js';
import { compareIds, SortedIds } from './sorted-ids.js';
import { VectorIndex } from './vector-index.js';

/** Owner (`userId`) of every unit, cue and tag id across tenants: what `prepareBatch` checks. */
export interface Owners {
  /** Unit id → `userId`. */
  unit: Map<string, string>;
  /** Cue id → `userId`. */
  cue: Map<string, string>;
  /** Tag id → `userId`. */
  tag: Map<string, string>;
}

/** Adds `value` to the list under `key` (callers add a value once). */
function addTo(index: Map<string, string[]>, key: string, value: string): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [value]);
  else list.push(value);
}

/** Removes `value` from the list under `key`, dropping the list when it empties. */
function removeFrom(index: Map<string, string[]>, key: string, value: string): void {
  const list = index.get(key);
  if (list === undefined) return;
  const at = list.indexOf(value);
  if (at === -1) return;
  // Order within a list does not matter: every reader sorts.
  list[at] = list[list.length - 1] as string;
  list.pop();
  if (list.length === 0) index.delete(key);
}

const cueNames = (cue: Cue) => new Set([cue.name, ...cue.aliases].map(normalizeName));

/** True when two versions of a cue have the same name and aliases (so the same `cueNames`). */
function sameNames(a: Cue, b: Cue): boolean {
  if (a.name !== b.name || a.aliases.length !== b.aliases.length) return false;
  for (let index = 0; index < a.aliases.length; index++) if (a.aliases[index] !== b.aliases[index]) return false;
  return true;
}

/** Orders relations by cue, tag, then content id. */
export function compareRelations(a: Relation, b: Relation): number {
  return compareIds(a.cueId, b.cueId) || compareIds(a.tagId, b.tagId) || compareIds(a.contentId, b.contentId);
}

/**
 * Everything one tenant (`userId`) holds, with its indexes: relations by cue, tag, (cue, tag)
 * and content; cues by normalised name and alias; BM25 postings; vectors; sorted id lists and
 * timelines built lazily after changes. Records are stored as given (callers copy).
 */
export class TenantState {
  readonly units = new Map<string, Unit>();
  readonly cues = new Map<string, Cue>();
  readonly tags = new Map<string, Tag>();
  readonly relations = new Map<string, Relation>();
  readonly lexical = new LexicalIndex();
  readonly vectors: VectorIndex;
  readonly sortedUnits = new SortedIds(() => this.units.keys());
  readonly sortedCues = new SortedIds(() => this.cues.keys());
  readonly sortedTags = new SortedIds(() => this.tags.keys());
  /** Unit ids of each kind, so a list of one kind (the facts ingest reads every session) skips the rest. */
  private readonly kindIds = new Map<UnitKind, { ids: Set<string>; sorted: SortedIds }>();
  // Relation keys by cue, tag, (cue, tag) and content; cue ids by normalised name or alias.
  private readonly byCue = new Map<string, string[]>();
  private readonly byTag = new Map<string, string[]>();
  /** Cue id → tag id → relation keys (nested, so that no pair key is built per relation). */
  private readonly byPair = new Map<string, Map<string, string[]>>();
  private readonly byContent = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();
  private readonly timelines = new Map<TimeField, Array<{ key: number; unit: Unit }>>();

  constructor(
    readonly userId: string,
    private readonly owners: Owners,
    vectorOptions: VectorMatrixOptions,
  ) {
    this.vectors = new VectorIndex(vectorOptions);
  }

  /** True when the tenant holds nothing. */
  get empty(): boolean {
    return this.units.size === 0 && this.cues.size === 0 && this.tags.size === 0 && this.relations.size === 0;
  }

  /** The sorted ids of the units of one kind. */
  sortedOfKind(kind: UnitKind): SortedIds {
    return this.ofKind(kind).sorted;
  }

  private ofKind(kind: UnitKind): { ids: Set<string>; sorted: SortedIds } {
    let entry = this.kindIds.get(kind);
    if (entry === undefined) {
      const ids = new Set<string>();
      entry = { ids, sorted: new SortedIds(() => ids) };
      this.kindIds.set(kind, entry);
    }
    return entry;
  }

  putUnit(unit: Unit): void {
    const previous = this.units.get(unit.id);
    if (previous === undefined) this.sortedUnits.invalidate();
    if (previous?.kind !== unit.kind) {
      if (previous !== undefined) this.dropKind(previous);
      const entry = this.ofKind(unit.kind);
      entry.ids.add(unit.id);
      entry.sorted.invalidate();
    }
    this.units.set(unit.id, unit);
    this.owners.unit.set(unit.id, this.userId);
    this.lexical.put(unit);
    this.vectors.put(unit.id, unit.vector);
    this.timelines.clear();
  }

  putCue(cue: Cue): void {
    const previous = this.cues.get(cue.id);
    this.cues.set(cue.id, cue);
    this.owners.cue.set(cue.id, this.userId);
    // Ingest writes most cues again with every session that names them, usually under the same names.
    if (previous !== undefined && sameNames(previous, cue)) return;
    if (previous === undefined) this.sortedCues.invalidate();
    else for (const name of cueNames(previous)) removeFrom(this.byName, name, cue.id);
    for (const name of cueNames(cue)) addTo(this.byName, name, cue.id);
  }

  putTag(tag: Tag): void {
    if (!this.tags.has(tag.id)) this.sortedTags.invalidate();
    this.tags.set(tag.id, tag);
    this.owners.tag.set(tag.id, this.userId);
  }

  /** Adds a relation; an identical triple is replaced (its scope is the last one written). */
  putRelation(relation: Relation): void {
    const key = relationKey(relation);
    const known = this.relations.has(key);
    this.relations.set(key, relation);
    if (known) return;
    addTo(this.byCue, relation.cueId, key);
    addTo(this.byTag, relation.tagId, key);
    let tags = this.byPair.get(relation.cueId);
    if (tags === undefined) {
      tags = new Map();
      this.byPair.set(relation.cueId, tags);
    }
    addTo(tags, relation.tagId, key);
    addTo(this.byContent, relation.contentId, key);
  }

  /** Deletes a unit with its relations and the cues and tags this leaves without any relation. */
  deleteUnit(id: string): void {
    this.dropUnit(id);
    this.dropRelations([...(this.byContent.get(id) ?? [])]);
  }

  /** Removes every record matching `scope` (a filter inside this tenant) and what it orphans. */
  forget(scope: ScopeFilter): void {
    const units = [...this.units.values()].filter((unit) => scopeMatches(scope, unit.scope)).map((unit) => unit.id);
    const cues = [...this.cues.values()].filter((cue) => scopeMatches(scope, cue.scope)).map((cue) => cue.id);
    const tags = [...this.tags.values()].filter((tag) => scopeMatches(scope, tag.scope)).map((tag) => tag.id);
    const doomed = new Set<string>();
    for (const [key, relation] of this.relations) if (scopeMatches(scope, relation.scope)) doomed.add(key);
    for (const id of units) for (const key of this.byContent.get(id) ?? []) doomed.add(key);
    for (const id of cues) for (const key of this.byCue.get(id) ?? []) doomed.add(key);
    for (const id of tags) for (const key of this.byTag.get(id) ?? []) doomed.add(key);
    for (const id of units) this.dropUnit(id);
    for (const id of cues) this.dropCue(id);
    for (const id of tags) this.dropTag(id);
    this.dropRelations([...doomed]);
  }

  private dropKind(unit: Unit): void {
    const entry = this.kindIds.get(unit.kind);
    entry?.ids.delete(unit.id);
    entry?.sorted.invalidate();
  }

  private dropUnit(id: string): void {
    const unit = this.units.get(id);
    if (unit === undefined) return;
    this.units.delete(id);
    this.dropKind(unit);
    this.owners.unit.delete(id);
    this.lexical.remove(id);
    this.vectors.remove(id);
    this.sortedUnits.invalidate();
    this.timelines.clear();
  }

  private dropCue(id: string): void {
    const cue = this.cues.get(id);
    if (cue === undefined) return;
    this.cues.delete(id);
    this.owners.cue.delete(id);
    for (const name of cueNames(cue)) removeFrom(this.byName, name, id);
    this.sortedCues.invalidate();
  }

  private dropTag(id: string): void {
    if (!this.tags.delete(id)) return;
    this.owners.tag.delete(id);
    this.sortedTags.invalidate();
  }

  /** Removes relations by key, then the cues and tags they leave without any relation. */
  private dropRelations(keys: ReadonlyArray<string>): void {
    const doomed = new Set<string>();
    const lists = { cue: new Set<string>(), tag: new Set<string>(), pair: new Map<string, Set<string>>(), content: new Set<string>() };
    for (const key of keys) {
      const relation = this.relations.get(key);
      if (relation === undefined) continue;
      this.relations.delete(key);
      doomed.add(key);
      lists.cue.add(relation.cueId);
      lists.tag.add(relation.tagId);
      let pairTags = lists.pair.get(relation.cueId);
      if (pairTags === undefined) {
        pairTags = new Set();
        lists.pair.set(relation.cueId, pairTags);
      }
      pairTags.add(relation.tagId);
      lists.content.add(relation.contentId);
    }
    if (doomed.size === 0) return;
    // Each touched list is filtered once, so dropping many relations of one cue stays linear.
    const prune = (index: Map<string, string[]>, listKeys: Set<string>) => {
      for (const listKey of listKeys) {
        const kept = (index.get(listKey) ?? []).filter((key) => !doomed.has(key));
        if (kept.length === 0) index.delete(listKey);
        else index.set(listKey, kept);
      }
    };
    prune(this.byCue, lists.cue);
    prune(this.byTag, lists.tag);
    for (const [cueId, tagIds] of lists.pair) {
      const tags = this.byPair.get(cueId);
      if (tags === undefined) continue;
      prune(tags, tagIds);
      if (tags.size === 0) this.byPair.delete(cueId);
    }
    prune(this.byContent, lists.content);
    for (const id of lists.cue) if (!this.byCue.has(id)) this.dropCue(id);
    for (const id of lists.tag) if (!this.byTag.has(id)) this.dropTag(id);
  }

  /** Releases the vector memory. */
  dispose(): void {
    this.vectors.dispose();
  }

  /** Ids of cues whose normalised name or alias is one of `names` (normalised here). */
  cueIdsNamed(names: ReadonlyArray<string>): Set<string> {
    const ids = new Set<string>();
    for (const name of names) for (const id of this.byName.get(normalizeName(name)) ?? []) ids.add(id);
    return ids;
  }

  /** Relations reached through one of the indexes, in scope, deduplicated and sorted. */
  relationsBy(index: 'cue' | 'content', keys: Iterable<string>, scope: ScopeFilter): Relation[] {
    const source = index === 'cue' ? this.byCue : this.byContent;
    const found = new Set<string>();
    for (const key of keys) for (const relationKeyFound of source.get(key) ?? []) found.add(relationKeyFound);
    return this.relationsOfKeys(found, scope);
  }

  /** Relations of the (cue, tag) pairs, in scope, deduplicated and sorted. */
  relationsOfPairs(pairs: Iterable<{ cueId: string; tagId: string }>, scope: ScopeFilter): Relation[] {
    const found = new Set<string>();
    for (const { cueId, tagId } of pairs) for (const relationKeyFound of this.byPair.get(cueId)?.get(tagId) ?? []) found.add(relationKeyFound);
    return this.relationsOfKeys(found, scope);
  }

  private relationsOfKeys(found: ReadonlySet<string>, scope: ScopeFilter): Relation[] {
    const out: Relation[] = [];
    for (const key of found) {
      const relation = this.relations.get(key);
      if (relation !== undefined && scopeMatches(scope, relation.scope)) out.push(relation);
    }
    return out.sort(compareRelations);
  }

  /** Units overlapping the window on its coordinate, ordered by that coordinate's start, then id. */
  timeline(scope: ScopeFilter, window: TimeWindow, kinds: ReadonlyArray<UnitKind> | undefined, limit: number): Unit[] {
    const field = window.field ?? 'any';
    let ordered = this.timelines.get(field);
    if (ordered === undefined) {
      ordered = [...this.units.values()]
        .map((unit) => ({ key: unitTimeKey(unit, field), unit }))
        .filter((entry) => Number.isFinite(entry.key))
        .sort((a, b) => a.key - b.key || compareIds(a.unit.id, b.unit.id));
      this.timelines.set(field, ordered);
    }
    // A unit's key is its earliest start, so once keys pass the window's end nothing later overlaps.
    const last = window.end === undefined ? Number.POSITIVE_INFINITY : intervalBounds({ start: window.end, end: window.end })[1];
    const filter: UnitFilter = { time: window, ...(kinds === undefined ? {} : { kinds }) };
    const out: Unit[] = [];
    for (const { key, unit } of ordered) {
      if (out.length >= limit || key > last) break;
      if (unitMatches(scope, filter, unit)) out.push(unit);
    }
    return out;
  }
}
