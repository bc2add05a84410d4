// A writer process for the crash and multi-process tests: ingests fixture batches into the store
// at argv[2] and reports progress over IPC (`writing` before a batch, `committed` after it).
// Runs the built package: `pnpm build` first.
import { createLmdbStore } from '../../dist/index.js';
import { ingestBatch } from './ingest-batches.mjs';

const [path, from, to, unitsPerBatch] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const send = (message) => new Promise((resolve) => process.send(message, resolve));

const store = await createLmdbStore({ path, onWarning: (message) => send({ type: 'warning', message }), indexMaintenance: { saveMinimumChanges: 40, saveFraction: 0 } });
await send({ type: 'opened' });
for (let index = from; index < to; index++) {
  await send({ type: 'writing', batch: index });
  await store.write(ingestBatch(index, unitsPerBatch));
  await send({ type: 'committed', batch: index });
}
await store.dispose();
await send({ type: 'done' });
process.disconnect();
