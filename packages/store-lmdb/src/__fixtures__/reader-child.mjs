// A reader process for the multi-process test: opens the store at argv[2] read-only and checks,
// until it has seen all `batches` batches complete, that every batch is whole or absent in each
// snapshot and that vector search (through the graph and its delta) finds the newest units.
import { createLmdbStore } from '../../dist/index.js';
import { batchIds, tenant, unitVector } from './ingest-batches.mjs';

const [path, batches, unitsPerBatch] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const send = (message) => new Promise((resolve) => process.send(message, resolve));
const scope = { userId: tenant };
const allIds = Array.from({ length: batches }, (_, index) => batchIds(index, unitsPerBatch));
const fail = async (message) => {
  await send({ type: 'failure', message });
  process.exit(1);
};

try {
  const store = await createLmdbStore({ path, readOnly: true, exactScanLimit: 0, onWarning: (message) => send({ type: 'warning', message }) });
  let complete = 0;
  let rounds = 0;
  while (complete < batches) {
    rounds += 1;
    const units = await store.getUnits(scope, allIds.flatMap((ids) => ids.units));
    let seen = 0;
    for (let index = 0; index < batches; index++) {
      const slice = units.slice(index * unitsPerBatch, (index + 1) * unitsPerBatch);
      const present = slice.filter((unit) => unit !== undefined).length;
      if (present !== 0 && present !== unitsPerBatch) await fail(`batch ${index} is half-present: ${present} of ${unitsPerBatch} units`);
      if (present === unitsPerBatch) seen = index + 1;
    }
    if (seen < complete) await fail(`batches went missing: ${seen} after ${complete}`);
    if (seen > complete) {
      complete = seen;
      const newest = complete - 1;
      const [hit] = await store.vectorSearch(scope, unitVector(newest, 0), { k: 1 });
      if (hit?.unit.id !== allIds[newest]?.units[0]) await fail(`vector search missed the newest unit ${allIds[newest]?.units[0]}, got ${hit?.unit.id}`);
      const relations = await store.relationsOfCues(scope, [allIds[newest]?.cue ?? '']);
      if (relations.length !== unitsPerBatch) await fail(`batch ${newest} has ${relations.length} relations`);
      await send({ type: 'progress', complete });
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await store.dispose();
  await send({ type: 'done', rounds });
  process.disconnect();
} catch (error) {
  await fail(`reader threw: ${error instanceof Error ? error.stack : String(error)}`);
}
