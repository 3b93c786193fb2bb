// The held-push panel in real Chromium: a one-column sort is held (nothing sent), the panel shows the
// column with before → after examples, Cancel sends nothing, Push anyway sends it.
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

describe('a held push in the sidebar', () => {
  it('shows the held column with examples; Cancel sends nothing, Push anyway sends it', async () => {
    await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Deals');
    await operate(page, 'Pull');
    const snapshot = h.sim.snapshotSheet('Sheet1');
    const headers = snapshot.rows[0] ?? [];
    const letter = String.fromCharCode(65 + headers.indexOf('title'));
    const before = await titles();
    h.sim.person.sortRange('Sheet1', `${letter}2:${letter}${snapshot.rows.length}`, 'title');

    await operate(page, 'Push');
    const panel = page.locator('#held-box');
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.textContent()).toMatch(/title: moves values between \d+ lines/);
    expect(await panel.locator('.held-examples li').first().textContent()).toMatch(/^row \d+: .+ → .+/);
    expect(await titles()).toEqual(before);
    await page.screenshot({ path: artifact('sidebar-held.png'), fullPage: true });

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await panel.isVisible()).toBe(false);
    expect(await titles()).toEqual(before);

    await operate(page, 'Push');
    await page.getByRole('button', { name: 'Push anyway', exact: true }).click();
    // The click starts the push from the panel's handler: wait for its result, not only for idle
    // (which may be seen before the new run marks the page busy).
    await expect
      .poll(() => page.locator('#summary-text').textContent(), { timeout: 20_000 })
      .toMatch(/^Pushed: \d+ updated/);
    await idle(page);
    expect(await titles()).not.toEqual(before);
    expect([...(await titles())].sort()).toEqual([...before].sort());
  });
});
