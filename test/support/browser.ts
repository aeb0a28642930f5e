// Debian's Chromium driven by playwright-core, for the tests that look at a page as a person would. Without
// Chromium such a test is skipped with one loud line, unless SATYAPAN_REQUIRE_BROWSER=1 (CI) makes it fail.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Launches headless Chromium, or skips the calling suite (`this` of a mocha `before`) when there is none. */
export async function launchChromiumOrSkip(suite: Mocha.Context, what: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    const howTo = `Chromium is missing at ${CHROMIUM}: install it with "apt-get install -y chromium" `
      + '(.ci/run does so in CI), or point CHROMIUM_PATH at a Chromium binary.';
    if (process.env['SATYAPAN_REQUIRE_BROWSER'] === '1') throw new Error(howTo);
    console.warn(`\n  !!! SKIPPED ${what}. ${howTo}\n`);
    suite.skip();
  }
  // No background networking: the machine's network is closed and Chromium would keep trying.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
