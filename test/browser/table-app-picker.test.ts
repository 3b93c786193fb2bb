// The link step's picker in real Chromium (issue 26, "Finding the table app"): the person's table apps
// listed, searched (here when the list is whole, on the service once typing pauses when it is cut
// short), chosen, and linked; pasting stays, and is the way in where the service lists no apps.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import {
  chooseTableApp,
  connect,
  errorText,
  findTables,
  idle,
  linkTable,
  listedApps,
} from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

/** The debounce of the search box (link-panel.ts). */
const SEARCH_DEBOUNCE_MS = 300;

/** No horizontal scroll at 300 px and a name for every control on show; a screenshot for review. */
async function checkScreen(page: Page, name: string): Promise<void> {
  const report = await page.evaluate(() => {
    const unnamed = [...document.querySelectorAll<HTMLElement>('input, select, button, textarea')]
      .filter((control) => control.offsetParent !== null)
      .filter((control) => {
        if (control instanceof HTMLButtonElement) return (control.textContent ?? '').trim() === '';
        return (
          ((control as HTMLInputElement).labels?.length ?? 0) === 0 && !control.getAttribute('aria-label')
        );
      })
      .map((control) => control.outerHTML.slice(0, 80));
    return {
      scroll: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
      unnamed,
    };
  });
  expect(report.scroll, `${name}: horizontal scroll`).toBeLessThanOrEqual(report.width);
  expect(report.unnamed, `${name}: controls without a label`).toEqual([]);
  await page.screenshot({ path: artifact(`sidebar-${name}.png`), fullPage: true });
}

function searches(h: Harness): unknown[] {
  return h.rpcs.filter((rpc) => rpc.fn === 'listTableApps').map((rpc) => rpc.args[0]);
}

describe('when the service lists table apps', () => {
  let h: Harness;
  let page: Page;
  usePageSession({}, (session) => {
    ({ h, page } = session);
  });
  const aliceKey = (): string => h.keys[SAMPLE.users.alice] as string;

  it('lists the person’s apps, filters them as they type, and links a table of the one chosen', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    expect(await listedApps(page)).toEqual(['CRM · 2 tables', `${SAMPLE.opsAppName} · 1 table`]);
    expect(await page.locator('#app-note').textContent()).toBe('2 table apps: choose one.');
    // The app named with HTML is text, and another account's app is not offered.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#app-list').textContent()).not.toContain('Globex');
    // Pasting is folded away, one click from here.
    expect(await page.locator('#app-id').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('app-search');
    await checkScreen(page, 'picker');

    // The list is whole: typing filters it here, without asking the service again.
    const asked = searches(h).length;
    await page.locator('#app-search').pressSequentially('crm');
    expect(await listedApps(page)).toEqual(['CRM · 2 tables']);
    await page.locator('#app-search').fill('nothing like it');
    expect(await listedApps(page)).toEqual([]);
    expect(await page.locator('#app-note').textContent()).toBe(
      'No table app’s name contains “nothing like it”.',
    );
    await page.locator('#app-search').fill('');
    expect(await listedApps(page)).toHaveLength(2);
    expect(searches(h)).toHaveLength(asked);

    await chooseTableApp(page, 'CRM');
    expect(await page.locator('#tables-legend').textContent()).toBe('Tables of CRM');
    expect(await page.locator('#app-list button[aria-current="true"] .app-name').textContent()).toBe('CRM');
    expect(await page.locator('#understood').isVisible()).toBe(false);
    await checkScreen(page, 'picker-chosen');
    await linkTable(page, 'Contacts');
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
    expect(await page.locator('#link-info').textContent()).toContain('Contacts');
    expect(h.rpcs.find((rpc) => rpc.fn === 'linkActiveSheet')?.args[0]).toMatchObject({
      tableAppId: SAMPLE.apps.crm,
      tableId: SAMPLE.tables.contacts,
    });

    // Unlinked, the step shows the same list again (not asked again), nothing chosen, focus in the search.
    await page.getByRole('button', { name: 'Unlink this sheet' }).click();
    await idle(page);
    await page.getByRole('button', { name: 'Yes, unlink' }).click();
    await idle(page);
    expect(await listedApps(page)).toHaveLength(2);
    expect(searches(h)).toHaveLength(asked);
    expect(await page.locator('#app-list button[aria-current]').count()).toBe(0);
    expect(await page.locator('#link-form').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('app-search');
  });

  it('searches on the service, once typing pauses, when there are more apps than it lists', async () => {
    for (let n = 1; n <= 505; n++) await h.emulator.admin.addApp('acc_acme', `Bulk ${n}`, `ta_bulk${n}`);
    const start = Date.UTC(2026, 0, 5, 9, 0, 0);
    await page.clock.install({ time: start });
    await page.reload();
    await idle(page);
    await connect(page, aliceKey(), h.emulator.url);
    expect(await listedApps(page)).toHaveLength(500);
    expect(await page.locator('#app-note').textContent()).toBe(
      'Showing the first 500 of your table apps: type part of a name to find the others.',
    );
    const before = searches(h).length;
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(start + 10 * 60_000);
    await page.locator('#app-search').pressSequentially('bulk 50');
    // Nothing is sent while the person types…
    await page.clock.runFor(SEARCH_DEBOUNCE_MS - 1);
    expect(searches(h)).toHaveLength(before);
    // …one search once they pause.
    await page.clock.runFor(1);
    await expect.poll(() => searches(h).length).toBe(before + 1);
    expect(searches(h).at(-1)).toEqual({ query: 'bulk 50' });
    expect(await listedApps(page)).toEqual([
      'Bulk 50 · 0 tables',
      ...Array.from({ length: 6 }, (_, i) => `Bulk ${500 + i} · 0 tables`),
    ]);
    await checkScreen(page, 'picker-searched');

    await chooseTableApp(page, 'Bulk 503');
    expect(await page.locator('#tables-legend').textContent()).toBe('Tables of Bulk 503');
    expect(await page.locator('#table-list').textContent()).toBe('This table app has no tables yet.');
  });

  it('says why when the list cannot be read, and opens pasting', async () => {
    await h.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: '/tableApps$' },
        status: 403,
        body: JSON.stringify({ error: { code: 'forbidden', message: 'This key may not list apps.' } }),
      },
    ]);
    await connect(page, aliceKey(), h.emulator.url);
    expect(await listedApps(page)).toEqual([]);
    expect(await page.locator('#app-note').textContent()).toBe(
      'Could not list your table apps. The service refused access to the list of your table apps: check that the API key belongs to the right account. Details: HTTP 403 Forbidden; the service said "This key may not list apps.". You can paste a table app’s link or id below.',
    );
    expect(await page.locator('#app-note').getAttribute('class')).toContain('warning');
    expect(await page.locator('#app-id').isVisible()).toBe(true);
    // The page itself loaded: the failure is the list's alone.
    expect(await errorText(page)).toBeNull();
    await checkScreen(page, 'picker-failed');
    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Deals');
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
  });

  it('keeps pasting: a Google Sheets link is refused, a table the app lacks is said', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, 'https://docs.google.com/spreadsheets/d/1AbCdEf/edit#gid=0');
    expect(await errorText(page)).toContain(
      'That is a Google Sheets link, not a table app of the service: open the table app on the service, copy the link from the address bar',
    );
    expect(await page.locator('#link-form').isVisible()).toBe(false);

    await findTables(page, `https://tables.example.com/${SAMPLE.apps.crm}/tbl_gone`);
    expect(await page.locator('#understood').textContent()).toBe(
      'Understood: table app ta_crm (from the link). This table app has no table tbl_gone; pick one of “Deals” or “Contacts”.',
    );
    expect(await page.locator('#understood').getAttribute('class')).toContain('warning');
    // Said once: the status line points to it rather than repeating it.
    expect(await page.locator('#status').textContent()).toBe(
      "The link's table is not among the 2 tables in CRM: see below, and choose one.",
    );
    expect(await page.locator('#table-list input:checked').count()).toBe(0);
    await checkScreen(page, 'picker-missing-table');
    await page.locator('#link-form').getByRole('button', { name: 'Link' }).click();
    await idle(page);
    expect(await errorText(page)).toContain('Choose one of the tables');
    await linkTable(page, 'Deals');
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
  });
});

describe('when the service does not list table apps', () => {
  let h: Harness;
  let page: Page;
  usePageSession({ harness: { emulator: { tableAppSearch: false } } }, (session) => {
    ({ h, page } = session);
  });

  it('asks for a pasted link or id, and links through it', async () => {
    await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
    expect(await page.locator('#app-picker').isVisible()).toBe(false);
    expect(await page.locator('#picker-unavailable').textContent()).toBe(
      'This service does not list your table apps: paste the table app’s link (from the service’s address bar) or its id.',
    );
    expect(await page.locator('#paste-summary').textContent()).toBe('Paste a table app’s link or id');
    expect(await page.locator('#app-id').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('app-id');
    expect(await errorText(page)).toBeNull();
    await checkScreen(page, 'picker-unavailable');

    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Deals');
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
  });
});
