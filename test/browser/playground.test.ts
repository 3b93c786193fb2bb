// The playground as a person meets the add-on in Sheets (issue 17, point 6): the Extensions menu with
// every item, dialogs and toasts, the simulated clock firing a schedule, a row changed on the service by
// someone else (a conflict and a merge), the grid's row numbers when scrolled sideways, no 404s.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, errorText, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';
import { answerDialogs, shownDialogs } from './playground-person';

let h: Harness;
let page: Page;
let sidebar: FrameLocator;
let notFound: string[];

usePageSession(
  {
    harness: { prefillBaseUrl: true, dialogWaitLimitMs: 15_000 },
    viewport: { width: 1280, height: 800 },
    path: '/',
    ready: () => idle(sidebar),
    checks: () => expect(notFound, 'requests answered 404 (favicon included)').toEqual([]),
  },
  (session) => {
    ({ h, page } = session);
    sidebar = page.frameLocator('#sidebar');
    notFound = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
  },
);

async function connectAndLink(): Promise<void> {
  await connect(sidebar, h.keys[SAMPLE.users.alice] as string);
  await findTables(sidebar, SAMPLE.apps.crm);
  await linkTable(sidebar, 'Deals');
}

/** Chooses Extensions › Table App Sync › <caption>, as a person would. */
async function menu(caption: string): Promise<void> {
  await page.getByRole('menuitem', { name: 'Extensions' }).click();
  await page.locator('#extensions-menu').getByRole('menuitem', { name: caption, exact: true }).click();
  await expect.poll(() => page.locator('#tool-result').textContent()).not.toMatch(/^Running/);
}

function sheetCell(row: number, header: string): { col: number; shown: string } {
  const snapshot = h.sim.snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId());
  const col = (snapshot.rows[0] ?? []).indexOf(header);
  return { col: col + 1, shown: snapshot.rows[row - 1]?.[col] ?? '' };
}

describe("the playground's menu and dialogs", () => {
  it('has an Extensions menu with every item of the add-on, and shows its dialogs until answered', async () => {
    await page.getByRole('menuitem', { name: 'Extensions' }).click();
    const items = page.locator('#extensions-menu button');
    const expected = h.sim.ui.menus
      .find((each) => each.addon)
      ?.items.filter((item) => item.caption !== '---')
      .map((item) => item.caption);
    expect(expected).toContain('Check this spreadsheet');
    expect(await items.allTextContents()).toEqual(expected);
    await page.screenshot({ path: artifact('playground-menu.png') });

    // A dialog holds its run (and this test's thread) until answered: a person in the page answers.
    await answerDialogs(page, ['OK', 'Close']);
    await page.locator('#extensions-menu').getByRole('menuitem', { name: 'Help', exact: true }).click();
    await expect.poll(() => page.locator('#tool-result').textContent()).not.toMatch(/^Running/);
    const [help] = await shownDialogs(page);
    expect(help).toMatchObject({
      title: 'Table App Sync',
      buttons: ['OK'],
      closable: true,
      status: 'Running Help…',
    });
    expect(help?.prompt).toContain('Open the sidebar and connect');

    // Closed with the title bar's button: the run goes on and ends.
    await menu('Check this spreadsheet');
    const [, check] = await shownDialogs(page);
    expect(check?.title).toMatch(/checks (passed|failed)/);
    const alert = page.locator('#alert-dialog');
    expect(await alert.isVisible()).toBe(false);
    expect(h.sim.ui.alerts.map((each) => each.title)).toEqual(['Table App Sync', check?.title]);
    await page.screenshot({ path: artifact('playground-self-check.png') });
    // An answered dialog stays closed when the page refreshes.
    await page.reload();
    await page.locator('#grid[data-sheet]').waitFor();
    await idle(page.frameLocator('#sidebar'));
    expect(await alert.isVisible()).toBe(false);
  });
});

describe("the playground's menu runs", () => {
  it('runs Pull and Push from the menu, with the result as a toast', async () => {
    await connectAndLink();
    await menu('Pull');
    const toast = page.locator('#toast-box');
    await expect.poll(() => toast.isVisible()).toBe(true);
    expect(await page.locator('#toast-title').textContent()).toBe('Table App Sync');
    expect(await page.locator('#toast').textContent()).toMatch(/^Pulled: 25 added/);
    await expect.poll(() => page.locator('#grid tbody tr').count()).toBeGreaterThan(20);
    await page.screenshot({ path: artifact('playground-menu-pull-toast.png') });

    const status = sheetCell(1, 'status').col;
    h.sim.personEdit(h.sim.spreadsheet.getActiveSheet().getName(), 2, status, 'sent from the menu');
    await menu('Push');
    await expect.poll(() => page.locator('#toast').textContent()).toMatch(/^Pushed: 1 updated/);

    // A run that left something undone says so in the toast's title, where a glance goes (issue 26, point 3).
    h.sim.personEdit(h.sim.spreadsheet.getActiveSheet().getName(), 3, sheetCell(1, 'amount').col, 'lots');
    await menu('Push');
    await expect.poll(() => page.locator('#toast').textContent()).toMatch(/^Pushed: 1 with errors/);
    expect(await page.locator('#toast-title').textContent()).toBe('Table App Sync: Pushed with 1 error');
  });

  it('advances the clock and fires the due schedule', async () => {
    await connectAndLink();
    await sidebar.locator('#schedule-every').selectOption({ label: 'Every hour' });
    await sidebar.locator('#schedule-mode').selectOption('pull');
    await sidebar.getByRole('button', { name: 'Save schedule' }).click();
    await idle(sidebar);
    const before = await page.locator('#clock').textContent();

    await page.getByRole('button', { name: 'Advance 1 minute' }).click();
    await expect
      .poll(() => page.locator('#tool-result').textContent())
      .toBe('Advanced 1 minute: no scheduled run was due.');
    await page.getByRole('button', { name: 'Advance 1 hour' }).click();
    await expect
      .poll(() => page.locator('#tool-result').textContent())
      .toBe('Advanced 1 hour: 1 scheduled run fired and succeeded.');
    expect(await page.locator('#clock').textContent()).not.toBe(before);
    // The scheduled pull filled the sheet and logged itself; the sidebar, reopened, says so.
    await expect.poll(() => page.locator('#grid tbody tr').count()).toBeGreaterThan(20);
    expect(h.sim.snapshotSheet('Sync log').rows.length).toBe(2);
    await idle(sidebar);
    await expect
      .poll(() => sidebar.locator('#schedule-info').textContent())
      .toMatch(/Last run .*: Pulled: 25 added/);
    await page.screenshot({ path: artifact('playground-clock-schedule.png') });
  });
});

describe("the playground's live sync", () => {
  it('sends a cell typed in the grid to the table once "Send edits as I type" is on in the sidebar', async () => {
    await connectAndLink();
    await operate(sidebar, 'Pull');
    const editTriggers = () => h.sim.triggers().filter((trigger) => trigger.eventType === 'ON_EDIT');
    const liveSwitch = sidebar.locator('#live-switch');
    await sidebar.locator('#options-title').click();
    expect(await liveSwitch.isChecked()).toBe(false);
    // Before it is turned on, what it would use a day of the person's quotas (issue 25).
    expect(await sidebar.locator('#live-plan').textContent()).toMatch(
      /^A day: about [\d,]+ URL fetch calls \(\d+% of 20,000\)/,
    );
    await liveSwitch.check();
    await idle(sidebar);
    await expect
      .poll(() => sidebar.locator('#live-sender').textContent())
      .toBe('Edits you type are sent with your key.');
    expect(editTriggers()).toHaveLength(1);

    // Typed in the grid as a person types in Sheets: the edit trigger fires and pushes the line.
    const notes = sheetCell(1, 'notes').col;
    const id = sheetCell(3, 'id').shown;
    const cell = `${String.fromCharCode(64 + notes)}3`;
    await page.locator(`[data-cell="${cell}"]`).click();
    await page.getByRole('textbox', { name: `Cell ${cell}` }).fill('typed live');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#tool-result').textContent())
      .toMatch(/^Send edits as I type: .*1 updated/);
    const state = await h.emulator.admin.state();
    const row = state.apps
      .find((app) => app.id === SAMPLE.apps.crm)
      ?.tables.find((table) => table.id === SAMPLE.tables.deals)
      ?.rows.find((each) => String(each.id) === id) as Record<string, unknown> | undefined;
    expect(row?.notes).toBe('typed live');
    await page.screenshot({ path: artifact('playground-live-edit.png') });

    // Off: the trigger goes, and typing sends nothing.
    await liveSwitch.uncheck();
    await idle(sidebar);
    await expect.poll(() => editTriggers().length).toBe(0);
    expect(await sidebar.locator('#live-sender').textContent()).toBe(
      'Edits you type are sent when someone pushes or a schedule runs.',
    );
  });
});

describe("the playground's changes on the service", () => {
  it('changes a row on the service as another person: a merge, then a conflict', async () => {
    await connectAndLink();
    await operate(sidebar, 'Pull');
    const sheetName = h.sim.spreadsheet.getActiveSheet().getName();

    const changeOnService = async (row: number, column: string, value: string): Promise<void> => {
      await page.getByRole('button', { name: 'Change a row on the service…' }).click();
      const dialog = page.locator('#edit-dialog');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.locator('#edit-row').selectOption({ index: row - 2 });
      await dialog.locator('#edit-column').selectOption(column);
      await dialog.locator('#edit-value').fill(value);
      expect(await dialog.locator('#edit-user option:checked').textContent()).toBe('Bob Baker (u_bob)');
      await page.screenshot({ path: artifact('playground-service-edit.png') });
      await dialog.getByRole('button', { name: 'Change on the service' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
    };

    // A merge: Bob changes one cell, the person another one of the same line.
    await changeOnService(2, 'status', 'won by bob');
    expect(await page.locator('#tool-result').textContent()).toMatch(
      /^Changed status of Row 2 on the service as Bob Baker \(u_bob\)\. Pull or Sync to see it\.$/,
    );
    h.sim.personEdit(sheetName, 2, sheetCell(1, 'notes').col, 'alice note');
    expect(await operate(sidebar, 'Sync')).toMatch(/^Synced: 2 updated/);
    expect(sheetCell(2, 'status').shown).toBe('won by bob');
    expect(sheetCell(2, 'notes').shown).toBe('alice note');

    // A conflict: both change the same cell; the sidebar names Bob and both values.
    await changeOnService(3, 'status', 'lost by bob');
    h.sim.personEdit(sheetName, 3, sheetCell(1, 'status').col, 'open by alice');
    expect(await operate(sidebar, 'Pull')).toMatch(/1 in conflict/);
    const card = sidebar.locator('#conflicts li.conflict-line');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('p').textContent()).toMatch(
      /^Changed on the service by Bob Baker <bob@acme\.test> on /,
    );
    expect(await card.locator('td.mine').textContent()).toBe('open by alice');
    expect(await card.locator('td.theirs').textContent()).toBe('lost by bob');
    await page.screenshot({ path: artifact('playground-conflict.png') });
  });
});

describe("the playground's refusals on the service", () => {
  it('refuses a value the column cannot hold when changing a row on the service', async () => {
    await connectAndLink();
    await operate(sidebar, 'Pull');
    const before = await h.emulator.admin.state();
    await page.getByRole('button', { name: 'Change a row on the service…' }).click();
    const dialog = page.locator('#edit-dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.locator('#edit-column').selectOption('amount');
    await dialog.locator('#edit-value').fill('lots');
    await dialog.getByRole('button', { name: 'Change on the service' }).click();
    await expect
      .poll(() => dialog.locator('#edit-error').textContent())
      .toBe(
        '"lots" is not a number (e.g. 1200 or 12.5): Amount (amount) is a number column. Leave the value empty to clear the cell.',
      );
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.locator('#tool-result').textContent()).not.toMatch(/^Changed/);
    await page.screenshot({ path: artifact('playground-service-edit-refused.png') });
    // Nothing changed on the service.
    expect(await h.emulator.admin.state()).toEqual(before);
    await dialog.locator('#edit-value').fill('1200');
    await dialog.getByRole('button', { name: 'Change on the service' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await page.locator('#tool-result').textContent()).toMatch(
      /^Changed amount of Row 2 on the service/,
    );
  });
});

describe("the playground's deletions on the service", () => {
  it('deletes a row on the service as another person: Pull everything marks its line, Remove these lines… removes it', async () => {
    // Issue 26, "Deleting": lines of rows removed on the service can be tried in the playground too.
    await connectAndLink();
    await operate(sidebar, 'Pull');
    await page.getByRole('button', { name: 'Change a row on the service…' }).click();
    const dialog = page.locator('#edit-dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.locator('#edit-row').selectOption({ index: 1 });
    const rowId = await dialog.locator('#edit-row').inputValue();
    const title = sheetCell(3, 'title').shown;
    await dialog.getByRole('button', { name: 'Delete the row on the service' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await page.locator('#tool-result').textContent()).toBe(
      'Deleted Row 3 on the service. Pull everything to see its line marked removed.',
    );
    const state = await h.emulator.admin.state();
    const rows = state.apps
      .find((app) => app.id === SAMPLE.apps.crm)
      ?.tables.find((table) => table.id === SAMPLE.tables.deals)?.rows;
    expect(rows?.map((row) => row.id)).not.toContain(rowId);

    expect(await operate(sidebar, 'Pull everything')).toContain('1 removed on the service');
    expect(sheetCell(3, '_sync').shown).toMatch(/^✖ removed on the service/);
    await sidebar.getByRole('button', { name: 'Remove these lines…', exact: true }).click();
    await sidebar.getByRole('button', { name: 'Remove 1 line', exact: true }).click();
    await expect.poll(() => sheetCell(3, 'title').shown, { timeout: 20_000 }).not.toBe(title);
    const ids = h.sim
      .snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId())
      .rows.map((row) => row[0]);
    expect(ids).not.toContain(rowId);
    await page.screenshot({ path: artifact('playground-removed-on-service.png') });
  });
});

describe('the playground page', () => {
  it("answers the page's own address typed as the service's with a clear message, and stays usable", async () => {
    // Issue 26, point 1: this once held "Checking your key…" for 6 minutes with the page dead.
    await connect(sidebar, h.keys[SAMPLE.users.alice] as string, h.url);
    expect(await errorText(sidebar)).toMatch(
      new RegExp(
        `No table service answered at ${h.url.replace(/[.]/g, '\\.')}\\b.*the address you open the service at`,
      ),
    );
    expect(await errorText(sidebar)).not.toContain(h.keys[SAMPLE.users.alice] as string);
    await page.screenshot({ path: artifact('playground-own-address.png') });

    // Grid, clock and menu answer at once.
    await page.locator('[data-cell="A1"]').click();
    await page.getByRole('textbox', { name: 'Cell A1' }).fill('still here');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-cell="A1"]').textContent()).toBe('still here');
    await page.getByRole('button', { name: 'Advance 1 minute' }).click();
    await expect
      .poll(() => page.locator('#tool-result').textContent())
      .toBe('Advanced 1 minute: no scheduled run was due.');
    await page.getByRole('menuitem', { name: 'Extensions' }).click();
    await expect.poll(() => page.locator('#extensions-menu').isVisible()).toBe(true);
    // With the service's own address the same sidebar connects.
    await page.keyboard.press('Escape');
    await connect(sidebar, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
    expect(await errorText(sidebar)).toBeNull();
  });

  it('keeps row numbers above the cells when the grid is scrolled sideways', async () => {
    await connectAndLink();
    await operate(sidebar, 'Pull');
    const wrap = page.locator('#grid-wrap');
    await wrap.evaluate((element) => {
      element.scrollLeft = 400;
    });
    const covered = await page.evaluate(() => {
      const found: string[] = [];
      for (const row of ['1', '2', '5']) {
        const header = document.querySelector(`#grid tbody tr[data-row="${row}"] th`) as HTMLElement;
        const box = header.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (top !== header) found.push(`row ${row}: ${top?.tagName} ${top?.textContent?.slice(0, 20)}`);
      }
      return found;
    });
    expect(covered).toEqual([]);
    await page.screenshot({ path: artifact('playground-scrolled-sideways.png') });
  });
});
