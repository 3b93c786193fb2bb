// Live sync in real Chromium (issue 25, "Changes in while the sidebar is open"): the sidebar checks for
// changes every 30 s while it is visible, stops while hidden, checks at once on showing again when a
// check is due, and says "Up to date · HH:MM" or what came in. The page's time moves only by the
// Playwright clock; the visibility is emulated (document.visibilityState and its event).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

const EVERY = 30_000;

let h: Harness;
let page: Page;
usePageSession({ harness: { emulator: { poll: 'on' } } }, (session) => {
  ({ h, page } = session);
});

const checks = (): number => h.rpcs.filter((rpc) => rpc.fn === 'checkForChanges').length;
const line = (): Promise<string | null> => page.locator('#live-check').textContent();

/** "14:05": the simulated clock (the script's) in the spreadsheet's zone. */
function clockNow(): string {
  const zone = h.sim.spreadsheet.getSpreadsheetTimeZone();
  const parts = new Intl.DateTimeFormat('en-US', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).formatToParts(new Date(h.sim.clock.now()));
  const part = (type: string): string => parts.find((each) => each.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')}`;
}

async function setVisible(visible: boolean): Promise<void> {
  await page.evaluate((shown) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (shown ? 'visible' : 'hidden'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, visible);
}

/**
 * The page's check has ended: its answer was shown and its next one scheduled. The server records a
 * call when it answers, before the page has taken the answer: moving the page's clock before that
 * would schedule the next check from the later time.
 */
async function checkEnded(): Promise<void> {
  await page.locator('#live-check[data-checking="false"]').waitFor({ state: 'attached' });
}

/** A linked and pulled sheet, the page's clock paused: from here time moves only when the test says. */
async function linkedAndPaused(): Promise<number> {
  const start = Date.UTC(2026, 0, 5, 9, 0, 0);
  await page.clock.install({ time: start });
  await page.reload();
  await idle(page);
  await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
  await operate(page, 'Pull');
  const paused = start + 5 * 60_000;
  await page.clock.pauseAt(paused);
  // Five minutes passed: the check that came due has started. Counting starts once it has answered
  // (before, a check still on its way when counting began was counted in the next window).
  await checkEnded();
  await expect.poll(() => page.locator('#live-check').isVisible()).toBe(true);
  return checks();
}

describe('the sidebar looks for changes while it is open', () => {
  it('every 30 s while visible, never while hidden, at once when shown again after 30 s', async () => {
    const before = await linkedAndPaused();
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 1);
    await checkEnded();
    await expect.poll(line).toBe(`Up to date · ${clockNow()}`);
    await page.clock.runFor(EVERY - 1);
    expect(checks()).toBe(before + 1);
    await page.clock.runFor(1);
    await expect.poll(checks).toBe(before + 2);
    await checkEnded();

    // Hidden: no check, however long.
    await setVisible(false);
    await page.clock.runFor(5 * EVERY);
    expect(checks()).toBe(before + 2);
    // Shown again after more than 30 s: a check at once.
    await setVisible(true);
    await page.clock.runFor(1);
    await expect.poll(checks).toBe(before + 3);
    await checkEnded();

    // Hidden 10 s after that check and shown again: not at once, but when it is due (20 s later).
    await page.clock.runFor(10_000);
    await setVisible(false);
    await setVisible(true);
    await page.clock.runFor(EVERY - 10_000 - 2);
    expect(checks()).toBe(before + 3);
    await page.clock.runFor(2);
    await expect.poll(checks).toBe(before + 4);
    await checkEnded();
    // And every 30 s again from there.
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 5);
    await checkEnded();
  });

  it('shows what came in, and the sheet has it', async () => {
    const before = await linkedAndPaused();
    const rows = (await h.emulator.admin.state()).apps
      .find((app) => app.id === SAMPLE.apps.crm)
      ?.tables.find((table) => table.name === 'Deals')?.rows;
    const row = rows?.[0];
    if (!row) throw new Error('no Deals row');
    await h.emulator.admin.editRow(SAMPLE.apps.crm, String(row.tableId ?? 'tbl_deals'), String(row.id), {
      status: 'Changed on the service',
    });
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 1);
    await checkEnded();
    await expect.poll(line).toBe(`1 row updated · ${clockNow()}`);
    const sheet = h.sim.snapshotSheet('Sheet1').rows;
    const status = (sheet[0] ?? []).indexOf('status');
    expect(sheet.some((cells) => cells[status] === 'Changed on the service')).toBe(true);
    // Nothing moved the person's focus or marked the page busy.
    expect(await page.locator('main#app').getAttribute('aria-busy')).toBe('false');
    expect(await page.locator('#error').isVisible()).toBe(false);
  });

  it('says a failed check in its one line, once, and goes on checking', async () => {
    const before = await linkedAndPaused();
    await h.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: '/rows/updates$' },
        status: 401,
        body: '{"error":{"message":"expired"}}',
      },
      {
        match: { method: 'GET', path: '/rows/updates$' },
        status: 401,
        body: '{"error":{"message":"expired"}}',
      },
    ]);
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 1);
    await checkEnded();
    await expect.poll(line).toMatch(/^Could not check for changes: .+ · \d\d:\d\d$/);
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 2);
    await checkEnded();
    expect(await page.locator('#live-check').count()).toBe(1);
    expect(await page.locator('#error').isVisible()).toBe(false);
    await page.clock.runFor(EVERY);
    await expect.poll(checks).toBe(before + 3);
    await checkEnded();
    await expect.poll(line).toBe(`Up to date · ${clockNow()}`);
  });
});
