import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

export default defineConfig({
  // Tests run against the sources of core and the memory store, so they need no build of either.
  resolve: {
    alias: [
      { find: '@engram/core/testing', replacement: packages('core/src/testing/index.ts') },
      { find: '@engram/core', replacement: packages('core/src/index.ts') },
      { find: '@engram/store-memory', replacement: packages('store-memory/src/index.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000 },
});
