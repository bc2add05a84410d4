import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'bench/kernel-bench': 'src/bench/kernel-bench.ts',
    'bench/ingest-bench': 'src/bench/ingest-bench.ts',
    'bench/eval-cli': 'src/bench/eval-cli.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } },
  sourcemap: true,
  clean: false,
  target: 'node20',
  external: ['vitest'],
});
