import { InvalidInputError } from '../errors/engram-error.js';
import { parseInput } from '../errors/parse-input.js';
import { writeBatchSchema, type WriteBatch, type WriteBatchInput } from '../model/batch.js';
import { parseWriteBatch } from './parse-write-batch.js';

/** What a store already holds, for the reference checks of {@link prepareBatch}. */
export interface BatchLookup {
  /** Owner `userId` of an existing unit, cue or tag id, or `undefined`. */
  ownerOf(kind: 'unit' | 'cue' | 'tag', id: string): string | undefined;
}

/**
 * Validates a write batch and its references: every relation must point at a cue, tag and content
 * present in the batch or the store, all of the relation's own tenant, and no id may be taken from
 * another tenant. Throws an {@link InvalidInputError} naming the bad field; nothing is written.
 * Returns fresh records with defaults filled; only vectors given as `Float32Array` are the caller's.
 */
export function prepareBatch(input: WriteBatchInput, lookup: BatchLookup): WriteBatch {
  // The fast parser answers as the schema would, or declines; zod then gives the exact error.
  const batch = parseWriteBatch(input) ?? parseInput(writeBatchSchema, input, { label: 'batch' });
  const owners = { unit: new Map<string, string>(), cue: new Map<string, string>(), tag: new Map<string, string>() };
  // Paths are only spelled out for an error: a batch holds thousands of records.
  const claim = (kind: 'unit' | 'cue' | 'tag', id: string, userId: string, list: string, index: number) => {
    const existing = lookup.ownerOf(kind, id) ?? owners[kind].get(id);
    if (existing !== undefined && existing !== userId) {
      const path = `batch.${list}[${index}].id`;
      throw new InvalidInputError({ message: `invalid ${path}: id ${id} belongs to another tenant`, path });
    }
    owners[kind].set(id, userId);
  };
  batch.units.forEach((unit, index) => claim('unit', unit.id, unit.scope.userId, 'units', index));
  batch.cues.forEach((cue, index) => claim('cue', cue.id, cue.scope.userId, 'cues', index));
  batch.tags.forEach((tag, index) => claim('tag', tag.id, tag.scope.userId, 'tags', index));
  const check = (kind: 'unit' | 'cue' | 'tag', id: string, userId: string, index: number, field: string) => {
    const owner = owners[kind].get(id) ?? lookup.ownerOf(kind, id);
    if (owner === userId) return;
    const path = `batch.relations[${index}].${field}`;
    if (owner === undefined) throw new InvalidInputError({ message: `invalid ${path}: no ${kind} with id ${id}`, path });
    throw new InvalidInputError({ message: `invalid ${path}: ${kind} ${id} belongs to another tenant`, path });
  };
  batch.relations.forEach((relation, index) => {
    check('cue', relation.cueId, relation.scope.userId, index, 'cueId');
    check('tag', relation.tagId, relation.scope.userId, index, 'tagId');
    check('unit', relation.contentId, relation.scope.userId, index, 'contentId');
  });
  return batch;
}
