import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const core = (path: string) => fileURLToPath(new URL(`../core/src/${path}`, import.meta.url));

export default defineConfig({
  // Tests run against core's sources, so they need no build of core; `testing` must come first.
  resolve: {
    alias: [
      { find: '@engram/core/testing', replacement: core('testing/index.ts') },
      { find: '@engram/core', replacement: core('index.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000 },
});
