import { chromium, type Browser, type Page } from 'playwright-core';

/** Chromium from the system package (`.ci/run` installs `chromium`); nothing is downloaded. */
export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Chromium (one per test file: launched in `before`, closed in `after`). */
export function launchBrowser(): Promise<Browser> {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: root ? ['--no-sandbox'] : [] });
}

/** What a page did that a hostile task could cause: dialogs opened, requests made, errors thrown. */
export interface PageWatch {
  dialogs: string[];
  requests: string[];
  errors: string[];
}

/** A fresh page (its own cookies) that records dialogs, requests and uncaught errors. */
export async function openPage(browser: Browser): Promise<{ page: Page; watch: PageWatch; close(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const watch: PageWatch = { dialogs: [], requests: [], errors: [] };
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => void watch.requests.push(request.url()));
  page.on('pageerror', (err) => void watch.errors.push(err.message));
  return { page, watch, close: () => context.close() };
}
