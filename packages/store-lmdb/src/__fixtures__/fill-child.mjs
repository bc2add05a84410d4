// Writes batches to the store at argv[2] until a write fails (run under a file size limit), then
// checks in the same process that the failed batch left nothing behind. Reports over IPC.
import { createLmdbStore } from '../../dist/index.js';
import { batchIds, ingestBatch, tenant } from './ingest-batches.mjs';

const [path, unitsPerBatch] = [process.argv[2], Number(process.argv[3])];
const send = (message) => new Promise((resolve) => process.send(message, resolve));
const store = await createLmdbStore({ path, onWarning: () => undefined });
let failure;
let index = 0;
for (; index < 10_000; index++) {
  try {
    await store.write(ingestBatch(index, unitsPerBatch));
    await send({ type: 'committed', batch: index });
  } catch (error) {
    failure = { code: error?.code, name: error?.name, message: String(error?.message ?? error) };
    break;
  }
}
const left = failure === undefined ? [] : (await store.getUnits({ userId: tenant }, batchIds(index, unitsPerBatch).units)).filter((unit) => unit !== undefined);
await store.dispose().catch(() => undefined);
await send({ type: 'done', failure, failedBatch: index, leftOfFailedBatch: left.length });
process.disconnect();
