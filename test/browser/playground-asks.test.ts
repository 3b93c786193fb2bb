// A day in the playground without a surprise (issue 35): the add-on's dialogs show their real
// buttons and hold the run until the person answers, as in Sheets (point 1).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { usePageSession } from './page-session';
import { answerDialogs, shownDialogs } from './playground-person';

let h: Harness;
let page: Page;

usePageSession(
  {
    harness: { prefillBaseUrl: true, dialogWaitLimitMs: 15_000 },
    viewport: { width: 1280, height: 800 },
    path: '/',
    ready: async (opened) => {
      await opened.locator('[data-cell="A1"]').waitFor();
    },
  },
  (session) => {
    ({ h, page } = session);
  },
);

/** Calls a sidebar function as the sidebar would, then has the page draw the sheet again. */
async function call(fn: string, args: unknown[] = []): Promise<void> {
  const result = h.sim.callFromClient(fn, args);
  if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
  await page.evaluate(() => window.postMessage({ type: 'tas-rpc' }, '*'));
}

/** Connects as Alice, links the active sheet to Deals and pulls it. */
async function linkedDeals(): Promise<void> {
  await call('connectFromSidebar', [{ baseUrl: h.emulator.url, apiKey: h.keys[SAMPLE.users.alice] }]);
  await call('linkActiveSheet', [{ tableAppId: SAMPLE.apps.crm, tableId: SAMPLE.tables.deals }]);
  await call('pullActiveSheet');
  await expect.poll(() => page.locator('#grid tbody tr').count()).toBeGreaterThan(25);
}

function sheetRows(): string[][] {
  return h.sim.snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId()).rows;
}

function column(header: string): number {
  return (sheetRows()[0] ?? []).indexOf(header) + 1;
}

async function said(): Promise<string | null> {
  return page.locator('#tool-result').textContent();
}

async function choose(menu: string, item: string): Promise<void> {
  await page.getByRole('menuitem', { name: menu, exact: true }).click();
  const box =
    menu === 'Extensions' ? page.locator('#extensions-menu') : page.getByRole('menu', { name: menu });
  await box.getByRole('menuitem', { name: item, exact: true }).click();
}

async function dealRows(): Promise<Array<Record<string, unknown>>> {
  const state = await h.emulator.admin.state();
  const table = state.apps
    .find((app) => app.id === SAMPLE.apps.crm)
    ?.tables.find((each) => each.id === SAMPLE.tables.deals);
  return (table?.rows ?? []) as Array<Record<string, unknown>>;
}

describe('the playground asks before it acts', () => {
  it('deleting a line and choosing menu Push shows the real choices before anything is sent; No sends nothing and brings the line back', async () => {
    await linkedDeals();
    const idColumn = column('id');
    const rowId = sheetRows()[2]?.[idColumn - 1] as string;
    expect(rowId).toMatch(/\S/);
    await h.emulator.admin.clearLog();

    await page.locator('[data-cell="B3"]').focus();
    await choose('Edit', 'Delete row');
    await expect.poll(said).toBe('Deleted row 3.');
    await answerDialogs(page, ['No']);
    await choose('Extensions', 'Push');
    await expect.poll(said).not.toMatch(/^Running/);

    const [asked, ...more] = await shownDialogs(page);
    expect(more).toEqual([]);
    expect(asked).toMatchObject({
      title: 'Lines deleted from this sheet',
      buttons: ['Yes', 'No', 'Cancel'],
      closable: true,
      // The run waits on the answer: the line still gone from the grid, nothing said deleted.
      status: 'Running Push…',
    });
    expect(asked?.toast ?? '').not.toMatch(/deleted/i);
    expect(asked?.prompt).toContain('No: bring them back.');
    expect(asked?.firstColumn).not.toContain(rowId);

    // No: nothing deleted on the service, and the line is back in the sheet.
    expect((await dealRows()).map((row) => String(row.id))).toContain(rowId);
    const log = await h.emulator.admin.requestLog();
    expect(log.filter((entry) => entry.method === 'DELETE')).toEqual([]);
    expect(sheetRows().map((row) => row[idColumn - 1])).toContain(rowId);
    await expect.poll(() => page.locator('#toast').textContent()).toMatch(/back/i);
    await page.screenshot({ path: artifact('playground-asks-before-deleting.png') });
  });
});

describe('the playground asks before it pushes a likely accident', () => {
  it('a push held as an accident asks "Push anyway?" with Yes and No; No sends nothing', async () => {
    await linkedDeals();
    const amount = column('amount');
    const letter = String.fromCharCode(64 + amount);
    const before = await dealRows();
    await h.emulator.admin.clearLog();
    // One column sorted alone: its values no longer sit beside their lines.
    await page.locator(`[data-cell="${letter}2"]`).focus();
    await choose('Data', 'Sort range…');
    await page.locator('#sort-dialog').getByRole('button', { name: 'Sort', exact: true }).click();
    await expect.poll(said).toMatch(/^Sorted /);

    await answerDialogs(page, ['No']);
    await choose('Extensions', 'Push');
    await expect.poll(said).not.toMatch(/^Running/);
    const [asked] = await shownDialogs(page);
    expect(asked).toMatchObject({
      title: 'Push anyway?',
      buttons: ['Yes', 'No'],
      status: 'Running Push…',
    });
    expect(asked?.prompt).toContain('amount:');
    // Nothing written on the service.
    const writes = (await h.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes).toEqual([]);
    expect(await dealRows()).toEqual(before);
  });
});

describe('Undo in the playground', () => {
  it('puts a typed value back on its own line after the add-on removed a line above it', async () => {
    await linkedDeals();
    const [idColumn, notes] = [column('id'), column('notes')];
    const removed = sheetRows()[2]?.[idColumn - 1] as string;
    // Another person deletes line 3's row on the service; Pull everything marks the line.
    await h.emulator.admin.deleteRow(SAMPLE.apps.crm, SAMPLE.tables.deals, removed);
    await call('pullEverything');
    const cell = `${String.fromCharCode(64 + notes)}7`;
    const [typedLine, nextLine] = [sheetRows()[6], sheetRows()[7]];
    await page.locator(`[data-cell="${cell}"]`).click();
    await page.getByRole('textbox', { name: `Cell ${cell}` }).fill('typed by me');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(`[data-cell="${cell}"]`).textContent()).toBe('typed by me');

    // The add-on removes line 3 (Remove these lines…): the typed line is row 6 now.
    await call('removeLinesOfRemovedRows', [{ rowIds: [removed] }]);
    await expect.poll(() => sheetRows()[5]?.[notes - 1]).toBe('typed by me');
    await page.locator('[data-cell="A1"]').focus();
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(said).toBe(`Undone: Typed into ${cell} (its line is now row 6).`);
    const pick = (row: string[] | undefined) => [row?.[idColumn - 1], row?.[notes - 1]];
    expect(pick(sheetRows()[5])).toEqual(pick(typedLine));
    expect(pick(sheetRows()[6])).toEqual(pick(nextLine));
  });
});

describe('the playground says what happened', () => {
  it("says scheduled runs failed and the schedule paused, in red; shows the mails in the outbox; moves the service's clock with the sheet's", async () => {
    await linkedDeals();
    await call('setSchedule', [{ mode: 'pull', every: 'm5' }]);
    // Alice's key stops working: every scheduled pull fails.
    await h.emulator.admin.expireToken(h.keys[SAMPLE.users.alice] as string);
    await page.getByRole('button', { name: 'Advance 1 hour' }).click();
    await expect.poll(said).toMatch(/^Advanced 1 hour: 10 scheduled runs fired, all 10 failed\. /);
    expect(await page.locator('#tool-result').getAttribute('class')).toBe('error');
    expect(await said()).toMatch(/paused itself after 10 failures.*2 mails sent: see the Outbox\.$/);

    await page.getByRole('button', { name: 'Outbox (2)' }).click();
    const mails = page.locator('#outbox-list li');
    await expect.poll(() => mails.count()).toBe(2);
    expect(await mails.locator('strong').allTextContents()).toEqual([
      expect.stringMatching(/^Table App Sync: the schedule of ".+" paused itself$/),
      expect.stringMatching(/^Table App Sync: scheduled pull of ".+" failed$/),
    ]);
    expect(await mails.first().locator('.mail-meta').textContent()).toMatch(/^To alice@acme\.test · /);
    await page.screenshot({ path: artifact('playground-outbox.png') });
    await page.getByRole('button', { name: 'Close' }).last().click();

    // Another person's change now is stamped at the sheet's time, an hour ahead of real time.
    const sheetNow = h.sim.clock.now();
    await page.getByRole('button', { name: 'Change a row on the service…' }).click();
    const dialog = page.locator('#edit-dialog');
    await dialog.locator('#edit-column').selectOption('status');
    await dialog.locator('#edit-value').fill('changed by bob');
    await dialog.getByRole('button', { name: 'Change on the service' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const changed = (await dealRows()).find((row) => row.status === 'changed by bob');
    expect(Date.parse(String(changed?.lMod))).toBeGreaterThanOrEqual(sheetNow);
    expect(Date.parse(String(changed?.lMod))).toBeLessThan(sheetNow + 60_000);
  });
});
