import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'bench/kernel-bench': 'src/bench/kernel-bench.ts',
    'bench/ingest-bench': 'src/bench/ingest-bench.ts',
    'bench/eval-cli': 'src/bench/eval-cli.ts',
    'bench/separation-bench': 'src/bench/separation-bench.ts',
    // The offline distiller's read-ahead worker (see src/ingest/offline/session-reader.ts).
    'offline-reader-worker': 'src/ingest/offline/reader-worker.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } },
  sourcemap: true,
  clean: false,
  target: 'node20',
  external: ['vitest'],
});
