import { z } from 'zod';
import { scopeSchema } from './scope.js';

const id = z.string().min(1, 'must not be empty').max(512);

/** What a cue stands for. */
export const cueKindSchema = z.enum(['person', 'place', 'organisation', 'thing', 'attribute', 'descriptor', 'time', 'entity']);
/** What a cue stands for. */
export type CueKind = z.output<typeof cueKindSchema>;

/** A fine-grained keyword — entity, attribute, descriptor or time — normalised, with aliases. */
export const cueSchema = z.strictObject({
  /** Stable id. */
  id,
  /** Who it belongs to. */
  scope: scopeSchema,
  /** Normalised name (lower case, single spaces). */
  name: z.string().min(1, 'must not be empty'),
  /** What it stands for. */
  kind: cueKindSchema.default('entity'),
  /** Other normalised names that refer to it. */
  aliases: z.array(z.string().min(1)).default([]),
});

/** A short associative label for a cue–content relation ("adopted pet", "career"). */
export const tagSchema = z.strictObject({
  /** Stable id. */
  id,
  /** Who it belongs to. */
  scope: scopeSchema,
  /** The label. */
  label: z.string().min(1, 'must not be empty'),
});

/** A triple `(cue, tag, content)` of the relation set R. */
export const relationSchema = z.strictObject({
  /** Who it belongs to. */
  scope: scopeSchema,
  /** The cue. */
  cueId: id,
  /** The tag. */
  tagId: id,
  /** The content unit. */
  contentId: id,
});

export type Cue = z.output<typeof cueSchema>;
export type Tag = z.output<typeof tagSchema>;
export type Relation = z.output<typeof relationSchema>;
export type CueInput = z.input<typeof cueSchema>;
export type TagInput = z.input<typeof tagSchema>;
export type RelationInput = z.input<typeof relationSchema>;

/** The key of a relation: identical triples are one relation. */
export function relationKey(relation: Pick<Relation, 'cueId' | 'tagId' | 'contentId'>): string {
  return `${relation.cueId}\u0000${relation.tagId}\u0000${relation.contentId}`;
}

/** Normalises a cue name or alias: lower case, trimmed, inner white space folded. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}
