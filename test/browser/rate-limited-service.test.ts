// The playground's service with the platform's limits (npm run demo -- --platform; issue 26, "How the
// real service may answer"): a push larger than a minute's requests says in the sidebar that the
// service limits requests and how much is left, and goes on by itself as the simulated clock passes,
// every line created once, without a burst of refused requests.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { chooseTableApp, connect, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
let sidebar: FrameLocator;

usePageSession(
  {
    harness: { prefillBaseUrl: true, emulator: { platform: true } },
    viewport: { width: 1280, height: 900 },
    path: '/',
    ready: () => idle(sidebar),
  },
  (session) => {
    ({ h, page } = session);
    sidebar = page.frameLocator('#sidebar');
  },
);

/** More new lines than the service takes in two minutes (60 requests each). */
const NEW_LINES = 130;

/** Pastes clipboard text over a cell of the grid, as Ctrl+V does. */
async function pasteOver(cell: string, text: string): Promise<void> {
  await page.locator(`[data-cell="${cell}"]`).focus();
  await page.locator(`[data-cell="${cell}"]`).evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** The titles of the Deals rows on the service. */
async function serviceTitles(): Promise<string[]> {
  const state = await h.emulator.admin.state();
  const table = state.apps
    .find((app) => app.id === SAMPLE.apps.crm)
    ?.tables.find((each) => each.id === SAMPLE.tables.deals);
  return (table?.rows ?? []).map((row) => String(row.title));
}

/** Links Deals from the list of table apps, pulls, and pastes NEW_LINES new lines below the table. */
async function linkAndPasteNewLines(): Promise<string[]> {
  await connect(sidebar, h.keys[SAMPLE.users.alice] as string);
  await chooseTableApp(sidebar, 'CRM');
  await linkTable(sidebar, 'Deals');
  await operate(sidebar, 'Pull');
  const lines = h.sim.snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId()).rows.length;
  const titles = Array.from({ length: NEW_LINES }, (_, i) => `Limited deal ${i + 1}`);
  await pasteOver(`B${lines + 1}`, `${titles.join('\n')}\n`);
  await expect.poll(() => page.locator('#tool-result').textContent()).toMatch(/^Pasted 130 lines/);
  return titles;
}

describe('a service that limits requests', () => {
  it('says so while a large push goes on by itself, and the push ends with every line created once', async () => {
    const titles = await linkAndPasteNewLines();
    const first = await operate(sidebar, 'Push');
    expect(await sidebar.locator('#summary-headline').textContent()).toBe('Push not finished yet');
    expect(first).toMatch(
      /^Pushed: (\d+) created, \d+ unchanged in [\d.]+ s\. Not finished yet: the service limits how many requests the add-on may send, so it goes in steps\. (\d+) changes are left, about (a minute|\d+ minutes) at the pace it allows\. It goes on by itself in /,
    );
    const created = Number(/^Pushed: (\d+) created/.exec(first)?.[1]);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(NEW_LINES);
    // The line about the run going on names the same reason and the same numbers as Last run.
    const progress = sidebar.locator('#progress');
    expect(await progress.isVisible()).toBe(true);
    expect(await progress.textContent()).toBe(
      `So far ${created} of ${NEW_LINES} new rows created. The service limits how many requests the add-on may send: the run goes on by itself when it allows more.`,
    );
    await page.screenshot({ path: artifact('rate-limited-push.png') });

    // The continuation fires as the simulated clock passes; the service's windows pass with it.
    let continued = 0;
    for (let minute = 0; minute < 8; minute++) {
      if ((await serviceTitles()).filter((title) => title.startsWith('Limited deal')).length === NEW_LINES)
        break;
      await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/clock/advance')),
        page.getByRole('button', { name: 'Advance 1 minute' }).click(),
      ]);
      await page.reload();
      await idle(sidebar);
      const lastRun = (await sidebar.locator('#summary-text').textContent()) ?? '';
      if (!/Not finished yet/.test(lastRun)) continue;
      // A later execution counts what the whole push sent, as Last run does, not its own share.
      const sofar = Number(/^Pushed: (\d+) created/.exec(lastRun)?.[1]);
      if (sofar === created) continue;
      continued += 1;
      expect(await progress.textContent()).toBe(
        `So far ${sofar} of ${NEW_LINES} new rows created. The service limits how many requests the add-on may send: the run goes on by itself when it allows more.`,
      );
    }
    expect(continued).toBeGreaterThan(0);
    const sent = (await serviceTitles()).filter((title) => title.startsWith('Limited deal'));
    expect(sent.sort()).toEqual([...titles].sort());
    // At most the one request the pace sends past the limits to find them.
    expect((await h.emulator.admin.platform()).refused).toBeLessThanOrEqual(1);

    await page.reload();
    await idle(sidebar);
    expect(await sidebar.locator('#summary-text').textContent()).toMatch(/^Pushed: \d+ created/);
    expect(await sidebar.locator('#summary-text').textContent()).not.toMatch(/Not finished/);
    expect(await sidebar.locator('#progress').isVisible()).toBe(false);
  });

  it('says so in the list of table apps when it allows no more for now, instead of an empty list', async () => {
    await linkAndPasteNewLines();
    await operate(sidebar, 'Push');
    // The add-on's own Sync log sheet is not linked: the sidebar opens at the link step.
    await page.locator('#tabs').getByText('Sync log', { exact: true }).click();
    await page.reload();
    await idle(sidebar);
    await sidebar.locator('#app-list[aria-busy="false"]').waitFor({ state: 'attached' });
    expect(await sidebar.locator('#app-note').textContent()).toBe(
      'The service limits how many requests the add-on may send: search again in about a minute to see your table apps, or paste a table app’s link or id below.',
    );
    await page.screenshot({ path: artifact('rate-limited-picker.png') });
  });
});
