// The setup every browser test file repeated: one harness and one Chromium per file, a fresh page per test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchBrowser } from '../harness/browser';
import { type Harness, type HarnessOptions, startHarness } from '../harness/index';
import { idle } from '../harness/sidebar-driver';

/** What each test works with: the file's harness and the test's own page. */
export interface PageSession {
  h: Harness;
  page: Page;
}

export interface PageSessionOptions {
  /** Options of the file's harness. */
  harness?: HarnessOptions;
  /** The page's viewport; the sidebar's 300 × 900 by default. */
  viewport?: { width: number; height: number };
  /** The harness path each test opens; the sidebar by default. */
  path?: string;
  /** Waits until the opened page is ready; the sidebar idle on the page by default. */
  ready?: (page: Page) => Promise<void>;
  /** More checks after each test, run once the page is closed and no rule break was found. */
  checks?: () => void;
}

/**
 * Registers the file's hooks: the harness and Chromium start once; before each test the harness is
 * reset, a new context and page are made, `opened` receives them (to keep them and add listeners
 * before the page loads), then the page opens `path` and is awaited `ready`. After each test the
 * context closes, no google.script.run rule may have been broken, and `checks` run.
 */
export function usePageSession(options: PageSessionOptions, opened: (session: PageSession) => void): void {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    [h, browser] = await Promise.all([startHarness(options.harness), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  beforeEach(async () => {
    await h.reset();
    context = await browser.newContext({ viewport: options.viewport ?? { width: 300, height: 900 } });
    const page = await context.newPage();
    opened({ h, page });
    await page.goto(`${h.url}${options.path ?? '/sidebar'}`);
    await (options.ready ?? idle)(page);
  });

  afterEach(async () => {
    await context.close();
    expect(h.violations, 'google.script.run rule breaks').toEqual([]);
    options.checks?.();
  });
}
