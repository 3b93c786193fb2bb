// The held-push panel in real Chromium: a one-column sort is held (nothing sent), the panel shows the
// column with before → after examples, and the choice waits (reopening the sidebar shows it again)
// until one is taken: Keep editing (edits stay, nothing sent), Put the service's values back (the
// sorted cells take the service's values again, nothing sent), or Push anyway (sent).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
usePageSession({}, (session) => {
  ({ h, page } = session);
});

async function titles(): Promise<string[]> {
  const state = await h.emulator.admin.state();
  const table = state.apps
    .find((app) => app.id === SAMPLE.apps.crm)
    ?.tables.find((each) => each.id === SAMPLE.tables.deals);
  return (table?.rows ?? []).map((row) => String(row.title));
}

/** The sheet's title column, top to bottom. */
function sheetTitles(): unknown[] {
  const rows = h.sim.snapshotSheet('Sheet1').rows;
  const at = (rows[0] ?? []).indexOf('title');
  return rows.slice(1).map((row) => row[at]);
}

/** Links Deals, pulls, sorts the title column alone and pushes: the push is held. */
async function holdASort(): Promise<{ before: string[]; pulledTitles: unknown[] }> {
  await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await operate(page, 'Pull');
  const snapshot = h.sim.snapshotSheet('Sheet1');
  const headers = snapshot.rows[0] ?? [];
  const letter = String.fromCharCode(65 + headers.indexOf('title'));
  const before = await titles();
  const pulledTitles = sheetTitles();
  h.sim.person.sortRange('Sheet1', `${letter}2:${letter}${snapshot.rows.length}`, 'title');
  await operate(page, 'Push');
  return { before, pulledTitles };
}

/** Closes and opens the sidebar again. */
async function reopen(): Promise<void> {
  await page.reload();
  await idle(page);
}

describe('a held push in the sidebar', () => {
  it('shows the held column with examples, again when reopened; Keep editing sends nothing, Push anyway sends it', async () => {
    const { before } = await holdASort();
    const panel = page.locator('#held-box');
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.textContent()).toMatch(/title: moves values between \d+ lines/);
    expect(await panel.locator('.held-examples li').first().textContent()).toMatch(/^row \d+: .+ → .+/);
    expect(await titles()).toEqual(before);
    await page.screenshot({ path: artifact('sidebar-held.png'), fullPage: true });

    // The choice waits: reopening the sidebar shows it again.
    await reopen();
    expect(await panel.isVisible()).toBe(true);
    expect(await page.locator('#held-put-back').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Keep editing', exact: true }).click();
    await idle(page);
    expect(await panel.isVisible()).toBe(false);
    await reopen();
    expect(await panel.isVisible()).toBe(false);
    expect(await page.locator('#summary-text').textContent()).not.toMatch(/choose Push anyway/);
    expect(await titles()).toEqual(before);

    await operate(page, 'Push');
    expect(await panel.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Push anyway', exact: true }).click();
    // The click starts the push from the panel's handler: wait for its result, not only for idle
    // (which may be seen before the new run marks the page busy).
    await expect
      .poll(() => page.locator('#summary-text').textContent(), { timeout: 20_000 })
      .toMatch(/^Pushed: \d+ updated/);
    await idle(page);
    expect(await titles()).not.toEqual(before);
    expect([...(await titles())].sort()).toEqual([...before].sort());
    await reopen();
    expect(await panel.isVisible()).toBe(false);
  });

  it("Put the service's values back restores the sorted cells, sends nothing, and the choice is gone", async () => {
    const { before, pulledTitles } = await holdASort();
    expect(sheetTitles()).not.toEqual(pulledTitles);
    // A pull keeps the held edits and their choice (issue 26, point 4: the choice was gone after it).
    expect(await operate(page, 'Pull')).toMatch(/^Pulled: /);
    expect(await page.locator('#held-box').isVisible()).toBe(true);
    expect(sheetTitles()).not.toEqual(pulledTitles);
    await reopen();
    await page.getByRole('button', { name: "Put the service's values back", exact: true }).click();
    await expect
      .poll(() => page.locator('#summary-text').textContent(), { timeout: 20_000 })
      .toMatch(/^Put the service's values back into \d+ cells on \d+ lines; nothing was sent\.$/);
    await idle(page);
    expect(sheetTitles()).toEqual(pulledTitles);
    expect(await titles()).toEqual(before);
    await reopen();
    expect(await page.locator('#held-box').isVisible()).toBe(false);
    // Nothing is left to send.
    expect(await operate(page, 'Push')).toMatch(/^Pushed: /);
    expect(await page.locator('#held-box').isVisible()).toBe(false);
    expect(await titles()).toEqual(before);
  });
});
