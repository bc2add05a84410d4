import { z } from 'zod';
import { cueSchema, relationSchema, tagSchema } from './graph.js';
import { unitSchema } from './units.js';

/** Everything written in one atomic step: all of it lands or none of it does. */
export const writeBatchSchema = z.strictObject({
  /** Content units to put (an existing id is replaced). */
  units: z.array(unitSchema).default([]),
  /** Cues to put. */
  cues: z.array(cueSchema).default([]),
  /** Tags to put. */
  tags: z.array(tagSchema).default([]),
  /** Relations to add (identical triples are kept once). */
  relations: z.array(relationSchema).default([]),
});
/** A validated write batch. */
export type WriteBatch = z.output<typeof writeBatchSchema>;
/** A write batch as accepted on input. */
export type WriteBatchInput = z.input<typeof writeBatchSchema>;
