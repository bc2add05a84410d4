import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (CI's .ci/run installs it with apt-get); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium, or fails saying how to install it (never downloads a browser). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `headless Chromium not found at ${chromiumPath}: the playground's end-to-end tests need it. ` +
        'Install it with `apt-get update && apt-get install -y chromium` (CI\'s .ci/run does), or point CHROMIUM_PATH at a Chromium binary. ' +
        'Never `npx playwright install`: no browser downloads here.',
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
