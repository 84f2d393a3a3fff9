// Debian's chromium driven headless through playwright-core (no browser download). Without
// /usr/bin/chromium a test skips, or fails when CI is set (.ci/run installs it).
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Whether the browser tests can run; throws when CI is set and chromium is missing. */
export function requireChromium(t: TestContext): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '')
    throw new Error(`chromium not installed at ${chromiumPath} but CI is set: apt-get install -y chromium`);
  t.skip(`chromium not installed: apt-get install -y chromium`);
  return false;
}

export interface LaunchedBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * A headless chromium that stays off the network, with a fresh profile (playwright's launch makes a
 * temporary --user-data-dir and removes it on close).
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}
