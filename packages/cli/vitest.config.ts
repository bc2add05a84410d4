import { defineConfig } from 'vitest/config';

// The tests run the built `dist/bin.js` as a user would, so `pnpm build` comes first (turbo does it).
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
