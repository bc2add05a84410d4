import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts', 'src/**/*.test.ts'],
    // A real browser against a real server on a machine shared with other builds.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
