import { defineConfig } from 'tsup';

export default defineConfig({
  // `bin` starts with a shebang, which esbuild keeps and tsup marks executable.
  entry: { bin: 'src/bin.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Commands are loaded on demand, so `engram --help` does not pay for loading core.
  splitting: true,
});
