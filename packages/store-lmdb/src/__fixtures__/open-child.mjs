// Opens the store at each path in argv (as a writer) and reports `ok` or the error's code over IPC.
import { createLmdbStore } from '../../dist/index.js';

const results = [];
for (const path of process.argv.slice(2)) {
  try {
    const store = await createLmdbStore({ path, onWarning: () => undefined });
    await store.dispose();
    results.push({ path, code: 'ok' });
  } catch (error) {
    results.push({ path, code: error?.code ?? 'unknown', message: String(error?.message ?? error) });
  }
}
await new Promise((resolve) => process.send({ type: 'done', results }, resolve));
process.disconnect();
