import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'index-worker': 'src/vector/index-worker.ts', 'bench/store-bench': 'src/bench/store-bench.ts', 'bench/bench-data': 'src/bench/bench-data.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The benchmark compares with store-memory, a dev dependency: imported at run time, not bundled.
  external: ['@engram/store-memory'],
});
