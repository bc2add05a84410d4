import { InvalidInputError } from '../errors/engram-error.js';
import { parseInput } from '../errors/parse-input.js';
import { writeBatchSchema, type WriteBatch, type WriteBatchInput } from '../model/batch.js';

/** What a store already holds, for the reference checks of {@link prepareBatch}. */
export interface BatchLookup {
  /** Owner `userId` of an existing unit, cue or tag id, or `undefined`. */
  ownerOf(kind: 'unit' | 'cue' | 'tag', id: string): string | undefined;
}

/**
 * Validates a write batch and its references: every relation must point at a cue, tag and content
 * present in the batch or the store, all of the relation's own tenant, and no id may be taken from
 * another tenant. Throws an {@link InvalidInputError} naming the bad field; nothing is written.
 */
export function prepareBatch(input: WriteBatchInput, lookup: BatchLookup): WriteBatch {
  const batch = parseInput(writeBatchSchema, input, { label: 'batch' });
  const owners = { unit: new Map<string, string>(), cue: new Map<string, string>(), tag: new Map<string, string>() };
  const claim = (kind: 'unit' | 'cue' | 'tag', id: string, userId: string, path: string) => {
    const existing = lookup.ownerOf(kind, id) ?? owners[kind].get(id);
    if (existing !== undefined && existing !== userId) {
      throw new InvalidInputError({ message: `invalid ${path}: id ${id} belongs to another tenant`, path });
    }
    owners[kind].set(id, userId);
  };
  batch.units.forEach((unit, index) => claim('unit', unit.id, unit.scope.userId, `batch.units[${index}].id`));
  batch.cues.forEach((cue, index) => claim('cue', cue.id, cue.scope.userId, `batch.cues[${index}].id`));
  batch.tags.forEach((tag, index) => claim('tag', tag.id, tag.scope.userId, `batch.tags[${index}].id`));
  batch.relations.forEach((relation, index) => {
    const checks: Array<['unit' | 'cue' | 'tag', string, string]> = [
      ['cue', relation.cueId, 'cueId'],
      ['tag', relation.tagId, 'tagId'],
      ['unit', relation.contentId, 'contentId'],
    ];
    for (const [kind, id, field] of checks) {
      const owner = owners[kind].get(id) ?? lookup.ownerOf(kind, id);
      const path = `batch.relations[${index}].${field}`;
      if (owner === undefined) throw new InvalidInputError({ message: `invalid ${path}: no ${kind} with id ${id}`, path });
      if (owner !== relation.scope.userId) {
        throw new InvalidInputError({ message: `invalid ${path}: ${kind} ${id} belongs to another tenant`, path });
      }
    }
  });
  return batch;
}
