// Opens the LMDB store at argv[2] as its writer, says "ready" on stdout, and holds the write lock
// until its stdin closes (the test decides when; no timers).
import { createLmdbStore } from '@engram/store-lmdb';

const store = await createLmdbStore({ path: process.argv[2] });
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.once('end', async () => {
  await store.dispose();
  process.exit(0);
});
