// Issue 25, "Quotas planned, not discovered", in real Chromium: before a schedule is saved the picker
// shows what it uses a day of the URL fetch calls and trigger time of the account kind the person
// chose (remembered for them), and a setting that would run out shows its refusal, which Save meets
// on the server too.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, errorText, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
usePageSession({}, (session) => {
  ({ h, page } = session);
});

async function connectLinkAndPull(): Promise<void> {
  await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
  await operate(page, 'Pull');
}

const estimate = (): Promise<string | null> => page.locator('#schedule-estimate').textContent();

describe('the schedule picker plans the day’s quotas', () => {
  it('shows fetch calls and trigger time a day for the chosen account kind, and remembers the kind', async () => {
    await connectLinkAndPull();
    // Runs that took measurable time (the simulator's pulls of the sample take "0 s": no trigger time).
    const sheetId = h.sim.spreadsheet.getActiveSheet().getSheetId();
    const pull = { operation: 'pull', seconds: 12, requests: 6, fullListing: true };
    h.sim.writeProperty('document', `tas.runtimes.${sheetId}`, JSON.stringify([pull, pull]));
    await page.reload();
    await idle(page);
    await page.selectOption('#schedule-mode', 'pull');
    await page.selectOption('#schedule-every', 'h1');
    expect(await estimate()).toMatch(
      /^A day: about \d+ URL fetch calls \(\d+% of 20,000\) and [1-9]\d* minutes of trigger time \(\d+% of 90\), the daily quotas of a Google account/,
    );
    await page.selectOption('#schedule-account', 'workspace');
    await expect
      .poll(estimate)
      .toMatch(/\(\d+% of 100,000\) .*\(\d+% of 360\), the daily quotas of Google Workspace/);
    await idle(page);
    expect(h.sim.properties('user')['tas.accountKind']).toBe('workspace');
  });

  it('shows the refusal of a setting that would run out, and Save is refused on the server', async () => {
    await connectLinkAndPull();
    // The link's runs as a 10,000-row table's on a service without the poll: 101 requests each.
    const sheetId = h.sim.spreadsheet.getActiveSheet().getSheetId();
    const listing = { operation: 'pull', seconds: 11, requests: 101, fullListing: true };
    h.sim.writeProperty('document', `tas.runtimes.${sheetId}`, JSON.stringify([listing, listing]));
    // Each choice of account kind reloads the sidebar's state, the runs with it.
    await page.selectOption('#schedule-account', 'workspace');
    await idle(page);
    await page.selectOption('#schedule-account', 'consumer');
    await idle(page);
    await page.selectOption('#schedule-mode', 'pull');
    await page.selectOption('#schedule-every', 'm5');
    // The state the account kind reloaded may arrive after the choice: the estimate is polled for.
    await expect
      .poll(estimate)
      .toMatch(/^The schedule was not turned on\. .*29,088 URL fetch calls .*16 h 30 min into the day/);
    expect(await estimate()).toMatch(/every 10 minutes fits/);
    expect(await page.locator('#schedule-estimate').getAttribute('class')).toContain('warning');
    await page.click('#schedule-form button[type=submit]');
    await idle(page);
    expect(await errorText(page)).toMatch(/was not turned on/);
    expect(h.sim.triggers()).toHaveLength(0);
  });
});
