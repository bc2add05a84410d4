// Writes `count` units with vectors to the store at argv[2] as the writer and ends without
// dispose(): the background indexing thread must not keep the process alive.
import { createLmdbStore } from '../../dist/index.js';

const [path, count] = [process.argv[2], Number(process.argv[3])];
const store = await createLmdbStore({ path, onWarning: () => undefined });
const units = Array.from({ length: count }, (_, index) => ({
  id: `nd-${index}`,
  kind: 'episode',
  scope: { userId: 'nd' },
  text: `unit ${index}`,
  vector: Float32Array.from({ length: 8 }, (_, dimension) => Math.sin(index * 7 + dimension * 3)),
}));
await store.write({ units });
await new Promise((resolve) => process.send({ type: 'committed' }, resolve));
process.disconnect();
