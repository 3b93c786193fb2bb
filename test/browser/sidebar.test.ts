// The sidebar in real Chromium against the Apps Script simulator and the table service emulator:
// the journeys of issue 6, each from a fresh spreadsheet and fresh sample data.
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import type { Row } from '../../emulators/table-service/index';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, errorText, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
let dialogs: string[];

usePageSession({ checks: () => expect(dialogs, 'dialogs opened by the page').toEqual([]) }, (session) => {
  ({ h, page } = session);
  dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

const aliceKey = (): string => h.keys[SAMPLE.users.alice] as string;

async function serviceRows(appId: string, tableId: string): Promise<Row[]> {
  const state = await h.emulator.admin.state();
  const table = state.apps.find((app) => app.id === appId)?.tables.find((each) => each.id === tableId);
  if (!table) throw new Error(`no table ${appId}/${tableId}`);
  return table.rows;
}

/** The sheet's cell for a row id and a column id (found by header text, as the add-on does). */
function cell(
  sheetName: string,
  rowId: string,
  columnId: string,
): { row: number; col: number; shown: string } {
  const snapshot = h.sim.snapshotSheet(sheetName);
  const headers = snapshot.rows[0] ?? [];
  const col = headers.indexOf(columnId);
  const line = snapshot.rows.findIndex((each) => each[headers.indexOf('id')] === rowId);
  if (col < 0 || line < 0) throw new Error(`no cell ${rowId}/${columnId} in ${sheetName}`);
  return { row: line + 1, col: col + 1, shown: snapshot.rows[line]?.[col] ?? '' };
}

/** Layout checks every screen must pass: no horizontal scroll at 300 px, a name for every control. */
async function checkScreen(name: string): Promise<void> {
  const report = await page.evaluate(() => {
    const unnamed = [...document.querySelectorAll<HTMLElement>('input, select, button, textarea')]
      .filter((control) => control.offsetParent !== null)
      .filter((control) => {
        if (control instanceof HTMLButtonElement) return (control.textContent ?? '').trim() === '';
        const labelled = (control as HTMLInputElement).labels?.length ?? 0;
        return labelled === 0 && !control.getAttribute('aria-label');
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

async function connectAndLink(appId: string = SAMPLE.apps.crm, tableName = 'Deals'): Promise<void> {
  await connect(page, aliceKey(), h.emulator.url);
  await findTables(page, appId);
  await linkTable(page, tableName);
  await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
}

describe('the sidebar', () => {
  it('refuses a wrong key with a message that says what to do, then connects with the right key', async () => {
    await expect.poll(() => page.locator('#connect').isVisible()).toBe(true);
    expect(await page.locator('#api-key').getAttribute('type')).toBe('password');
    await checkScreen('connect');

    await connect(page, 'not-a-real-key', h.emulator.url);
    const refused = await errorText(page);
    expect(refused).toMatch(/refused|not valid|invalid/i);
    expect(refused).toMatch(/create a new key|profile/i);
    expect(await page.locator('#connect').isVisible()).toBe(true);
    await checkScreen('connect-wrong-key');

    await connect(page, aliceKey());
    expect(await errorText(page)).toBeNull();
    expect(await page.locator('#connected-as').textContent()).toBe(
      'Connected as Alice Archer <alice@acme.test>',
    );
    expect(await page.locator('#connect').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Disconnect' }).isVisible()).toBe(true);
    // The key never comes back: not in the page, not in any answer of the server.
    expect(await page.content()).not.toContain(aliceKey());
    expect(JSON.stringify(h.rpcs.map((rpc) => rpc.value ?? null))).not.toContain(aliceKey());
    await checkScreen('connected');

    // The account line is the one place that says who is connected.
    expect(await page.locator('#status').textContent()).toBe('');
    expect(await page.getByText(/Connected as/).count()).toBe(1);

    // Disconnect asks first; Cancel keeps the connection.
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await idle(page);
    expect(await page.locator('#disconnect-box').isVisible()).toBe(true);
    await checkScreen('disconnect-confirm');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await idle(page);
    expect(await page.locator('#disconnect-box').isVisible()).toBe(false);
    expect(h.rpcs.some((rpc) => rpc.fn === 'disconnect')).toBe(false);
    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await idle(page);
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await idle(page);
    expect(await page.locator('#connect').isVisible()).toBe(true);
    expect(await page.locator('#api-key').inputValue()).toBe('');
    expect(await page.locator('#status').textContent()).toBe(
      'Disconnected. Your API key was deleted from this add-on for your Google account; it still works on the service until you revoke it there.',
    );
  });

  it('lists the tables of a pasted table app link with their column counts, and links one', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(
      page,
      `${h.emulator.url}/app/tableApps/${SAMPLE.apps.crm}/tables/${SAMPLE.tables.deals}`,
    );
    const state = await h.emulator.admin.state();
    const crm = state.apps.find((app) => app.id === SAMPLE.apps.crm)!;
    for (const table of crm.tables) {
      const live = table.columns.filter((column) => !column.deleted).length;
      await expect
        .poll(() => page.locator('#table-list label', { hasText: table.name }).textContent())
        .toContain(`${live} columns`);
    }
    expect(await page.locator('#tables-legend').textContent()).toBe('Tables of CRM');
    await checkScreen('link-tables');

    await linkTable(page, 'Deals');
    expect(await page.locator('#link-info').textContent()).toContain('CRM › Deals');
    expect(h.rpcs.find((rpc) => rpc.fn === 'linkActiveSheet')?.args).toEqual([
      {
        tableAppId: SAMPLE.apps.crm,
        tableId: SAMPLE.tables.deals,
        newSheet: false,
        replace: false,
        askBeforeReplacing: true,
      },
    ]);
    await checkScreen('linked');
  });

  it('asks before replacing a sheet that holds data, and can link a new sheet instead', async () => {
    h.sim.personEdit('Sheet1', 1, 1, 'my own notes');
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Contacts');
    await expect.poll(() => page.locator('#replace-box').isVisible()).toBe(true);
    expect(await page.locator('#replace-message').textContent()).toMatch(/already holds data/);
    expect(await errorText(page)).toBeNull();
    await checkScreen('link-replace');

    await page.getByRole('button', { name: 'Use a new sheet' }).click();
    await idle(page);
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
    expect(h.sim.snapshotSheet('Sheet1').rows[0]?.[0]).toBe('my own notes');
    expect(h.sim.spreadsheet.getActiveSheet().getName()).toBe('Contacts');
  });

  it('asks before replacing by the code of the answer, never by its wording', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, SAMPLE.apps.crm);
    // The server's answers to the link, reworded: the refusal's code decides, its words only show.
    const answers = [
      {
        ok: true,
        value: { linked: false, code: 'SHEET_HOLDS_DATA', message: 'Reworded: this sheet is in use.' },
      },
      { ok: false, error: { name: 'Error', message: 'Sheet "Sheet1" already holds data (an old wording).' } },
    ];
    await page.route(`${h.url}/rpc`, async (route) => {
      const call = route.request().postDataJSON() as { fn: string };
      if (call.fn === 'linkActiveSheet') await route.fulfill({ json: answers.shift() });
      else await route.continue();
    });

    await linkTable(page, 'Contacts');
    await expect.poll(() => page.locator('#replace-box').isVisible()).toBe(true);
    expect(await page.locator('#replace-message').textContent()).toBe('Reworded: this sheet is in use.');
    expect(await errorText(page)).toBeNull();

    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Contacts');
    expect(await page.locator('#replace-box').isVisible()).toBe(false);
    expect(await errorText(page)).toContain('already holds data (an old wording)');
  });

  it('pulls the table into the simulated sheet', async () => {
    await connectAndLink();
    const summary = await operate(page, 'Pull');
    const rows = await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals);
    expect(summary).toContain(`${rows.length} added`);
    const snapshot = h.sim.snapshotSheet('Sheet1');
    const headers = snapshot.rows[0] ?? [];
    expect(headers).toEqual(expect.arrayContaining(['id', 'lMod', 'title', 'status', 'amount']));
    const ids = snapshot.rows.slice(1).map((line) => line[headers.indexOf('id')]);
    expect(ids.sort()).toEqual(rows.map((row) => row.id).sort());
    const first = rows[0]!;
    expect(cell('Sheet1', first.id, 'title').shown).toBe(first.title);
    expect(snapshot.notes[0]?.[headers.indexOf('amount')]).toMatch(/Amount/);
    expect(await page.locator('#progress').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Pull', exact: true }).isEnabled()).toBe(true);
    await checkScreen('pulled');
  });

  it('pushes a cell edited in the sheet to the service', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    const target = (await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals))[1]!;
    const at = cell('Sheet1', target.id, 'status');
    h.sim.personEdit('Sheet1', at.row, at.col, 'edited in the sheet');

    const summary = await operate(page, 'Push');
    expect(summary).toMatch(/1 updated/);
    const after = (await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals)).find(
      (row) => row.id === target.id,
    )!;
    expect(after.status).toBe('edited in the sheet');
    expect(after.lModBy).toBe(SAMPLE.users.alice);
    await checkScreen('pushed');
  });

  it('shows each conflict with both values, who changed it and when, and resolves it per line', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    const [mineRow, theirsRow] = (await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals)).slice(2, 4) as [
      Row,
      Row,
    ];
    for (const row of [mineRow, theirsRow]) {
      const at = cell('Sheet1', row.id, 'status');
      h.sim.personEdit('Sheet1', at.row, at.col, `alice ${row.id}`);
      await h.emulator.admin.editRow(
        SAMPLE.apps.crm,
        SAMPLE.tables.deals,
        row.id,
        { status: `bob ${row.id}` },
        SAMPLE.users.bob,
      );
    }
    const changedAt = (await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals)).find(
      (row) => row.id === mineRow.id,
    )?.lMod as string;

    const summary = await operate(page, 'Pull');
    expect(summary).toMatch(/2 in conflict/);
    const cards = page.locator('#conflicts li.conflict-line');
    await expect.poll(() => cards.count()).toBe(2);
    const mineLine = cell('Sheet1', mineRow.id, 'status').row;
    const theirsLine = cell('Sheet1', theirsRow.id, 'status').row;
    const first = cards.nth(0);
    // Each card names its row by its title, as the sheet shows it, then the row number.
    const mineTitle = cell('Sheet1', mineRow.id, 'title').shown;
    const theirsTitle = cell('Sheet1', theirsRow.id, 'title').shown;
    expect(await first.locator('h4').textContent()).toBe(`${mineTitle} · row ${mineLine}`);
    // Times as every time in the sidebar: the spreadsheet's zone, YYYY-MM-DD HH:mm.
    const zone = h.sim.spreadsheet.getSpreadsheetTimeZone();
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(changedAt))
        .map((part) => [part.type, part.value]),
    );
    const localTime = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
    expect(await first.locator('p').textContent()).toBe(
      `Changed on the service by Bob Baker <bob@acme.test> on ${localTime}.`,
    );
    expect(await first.locator('tr').nth(1).textContent()).toBe(
      `Status (status)alice ${mineRow.id}bob ${mineRow.id}`,
    );
    expect(await page.locator('#issues-box').isVisible()).toBe(false);
    await checkScreen('conflict');

    const show = first.getByRole('button', { name: `Show row ${mineLine} in the sheet` });
    expect(await show.textContent()).toBe('Show in sheet');
    await show.click();
    await idle(page);
    expect(h.rpcs.filter((rpc) => rpc.fn === 'selectSheetRow').map((rpc) => rpc.args)).toEqual([
      [{ row: mineLine }],
    ]);
    expect(await page.locator('#status').textContent()).toContain(`Row ${mineLine} is selected`);

    // Keep mine on one line settles only that line.
    h.rpcs.length = 0;
    await operate(page, 'Keep mine', mineLine);
    expect(h.rpcs.find((rpc) => rpc.fn === 'resolveConflicts')?.args).toEqual([
      { keep: 'mine', rowIds: [mineRow.id] },
    ]);
    let rows = await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals);
    expect(rows.find((row) => row.id === mineRow.id)?.status).toBe(`alice ${mineRow.id}`);
    expect(rows.find((row) => row.id === theirsRow.id)?.status).toBe(`bob ${theirsRow.id}`);
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.nth(0).locator('h4').textContent()).toBe(`${theirsTitle} · row ${theirsLine}`);
    await checkScreen('kept-mine-one');

    // Reopened, the sidebar shows what is left, no more.
    await page.reload();
    await idle(page);
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.nth(0).locator('h4').textContent()).toBe(`${theirsTitle} · row ${theirsLine}`);

    await operate(page, 'Take theirs', theirsLine);
    expect(cell('Sheet1', theirsRow.id, 'status').shown).toBe(`bob ${theirsRow.id}`);
    rows = await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals);
    expect(rows.find((row) => row.id === theirsRow.id)?.status).toBe(`bob ${theirsRow.id}`);
    expect(await page.locator('#conflicts-box').isVisible()).toBe(false);
    await page.reload();
    await idle(page);
    expect(await page.locator('#conflicts-box').isVisible()).toBe(false);
    expect(await cards.count()).toBe(0);
    await checkScreen('took-theirs');

    // Two fresh conflicts, settled together with "for all".
    for (const row of [mineRow, theirsRow]) {
      const at = cell('Sheet1', row.id, 'status');
      h.sim.personEdit('Sheet1', at.row, at.col, `alice again ${row.id}`);
      await h.emulator.admin.editRow(
        SAMPLE.apps.crm,
        SAMPLE.tables.deals,
        row.id,
        { status: `bob again ${row.id}` },
        SAMPLE.users.bob,
      );
    }
    expect(await operate(page, 'Pull')).toMatch(/2 in conflict/);
    h.rpcs.length = 0;
    await operate(page, 'Keep mine');
    expect(h.rpcs.find((rpc) => rpc.fn === 'resolveConflicts')?.args).toEqual([
      { keep: 'mine', rowIds: [mineRow.id, theirsRow.id] },
    ]);
    rows = await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals);
    expect(rows.find((row) => row.id === theirsRow.id)?.status).toBe(`alice again ${theirsRow.id}`);
    expect(await page.locator('#conflicts-box').isVisible()).toBe(false);
  });

  it('understands a link of the service, says so, and clears the list when a lookup fails', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, `https://tables.example.com/${SAMPLE.apps.crm}/${SAMPLE.tables.contacts}`);
    expect(await page.locator('#understood').textContent()).toBe(
      `Understood: table app ${SAMPLE.apps.crm}, table ${SAMPLE.tables.contacts} (from the link).`,
    );
    expect(await page.locator('#table-list input:checked').getAttribute('value')).toBe(
      SAMPLE.tables.contacts,
    );
    await checkScreen('link-understood');

    await findTables(page, 'https://tables.example.com/ta_gone');
    expect(await errorText(page)).toMatch(/^Could not read the table app\. /);
    expect(await page.locator('#link-form').isVisible()).toBe(false);
    expect(await page.locator('#table-list').textContent()).toBe('');
    expect(await page.locator('#understood').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Link', exact: true }).count()).toBe(0);
    // No blank line above the banner: the empty status line takes no room.
    const gap = await page.evaluate(() => {
      const error = document.getElementById('error')?.getBoundingClientRect().top ?? 0;
      const body = parseFloat(getComputedStyle(document.body).paddingTop);
      return error - body;
    });
    expect(gap).toBeLessThanOrEqual(1);
    await checkScreen('link-failed');

    await findTables(page, 'https://tables.example.com/');
    expect(await errorText(page)).toContain('is the service’s address, not a table app');
  });

  it('offers only a new sheet when the active sheet is the add-on’s own', async () => {
    const log = h.sim.spreadsheet.insertSheet('Sync log');
    h.sim.spreadsheet.setActiveSheet(log);
    await page.reload();
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, SAMPLE.apps.crm);
    expect(await page.locator('input[name="target"][value="this"]').isDisabled()).toBe(true);
    expect(await page.locator('input[name="target"][value="new"]').isChecked()).toBe(true);
    expect(await page.locator('#own-sheet-hint').textContent()).toBe(
      '"Sync log" is the add-on\'s log of runs, so the table goes into a new sheet.',
    );
    await checkScreen('link-own-sheet');
    await linkTable(page, 'Deals', 'new');
    expect(h.sim.spreadsheet.getActiveSheet().getName()).toBe('Deals');
    expect(h.sim.snapshotSheet('Sync log').rows).toEqual([]);
  });

  it('keeps the reason a line is not sent through a pull, and lists every such line', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    const rows = await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals);
    const date = cell('Sheet1', rows[0]!.id, 'closeDate');
    const amount = cell('Sheet1', rows[1]!.id, 'amount');
    h.sim.personEdit('Sheet1', date.row, date.col, '31/02/2024');
    h.sim.personEdit('Sheet1', amount.row, amount.col, '12,5');
    const reasons = [
      `Row ${date.row}: error: not pushed: closeDate: "31/02/2024" is not a date the service takes: write it as YYYY-MM-DD, for example 2024-02-29.`,
      `Row ${amount.row}: error: not pushed: amount: "12,5" is not a number: write decimals with a point (12.5).`,
    ];
    expect(await operate(page, 'Push')).toMatch(/2 with errors/);
    expect(await page.locator('#issues button').allTextContents()).toEqual(reasons);
    for (const button of ['Pull', 'Sync'] as const) {
      expect(await operate(page, button)).toMatch(/2 with errors/);
      expect(await page.locator('#issues button').allTextContents()).toEqual(reasons);
    }
    expect(rows[0]!.closeDate).toBe((await serviceRows(SAMPLE.apps.crm, SAMPLE.tables.deals))[0]!.closeDate);
    await checkScreen('reasons-kept');
  });

  it('shows a table app whose name is HTML as text', async () => {
    await connect(page, aliceKey(), h.emulator.url);
    await findTables(page, SAMPLE.apps.ops);
    expect(await page.locator('#tables-legend').textContent()).toBe(`Tables of ${SAMPLE.opsAppName}`);
    expect(await page.locator('#table-list').textContent()).toContain('Tasks <b>bold</b>');
    await linkTable(page, 'Tasks <b>bold</b>');
    await operate(page, 'Pull');
    expect(await page.locator('#link-info').textContent()).toContain(SAMPLE.opsAppName);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#app b, #app script').count()).toBe(0);
    await checkScreen('html-names');
  });

  it('schedules, removes the schedule, and unlinks', async () => {
    await connectAndLink();
    await page.locator('#schedule-every').selectOption({ label: 'Every hour' });
    await page.locator('#schedule-mode').selectOption('pull');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await idle(page);
    expect(await page.locator('#schedule-info').textContent()).toMatch(/^Pulls every hour/);
    expect(h.sim.triggers().filter((trigger) => trigger.fn === 'runScheduledSync')).toHaveLength(1);
    await checkScreen('scheduled');

    await page.getByRole('button', { name: 'Remove schedule' }).click();
    await idle(page);
    expect(await page.locator('#schedule-info').textContent()).toMatch(/^No schedule/);
    expect(h.sim.triggers()).toHaveLength(0);

    await page.getByRole('button', { name: 'Unlink this sheet' }).click();
    await idle(page);
    expect(await page.locator('#unlink-confirm-box').isVisible()).toBe(true);
    expect(await page.locator('#sync').isVisible()).toBe(true);
    await checkScreen('unlink-confirm');
    await page.getByRole('button', { name: 'Yes, unlink' }).click();
    await idle(page);
    expect(await page.locator('#link').isVisible()).toBe(true);
    expect(await page.locator('#sync').isVisible()).toBe(false);
  });

  it('shows progress and disables the buttons while a pull runs', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    // The simulator answers each call at once, so this journey holds the pull back in the browser's
    // network layer and answers the polls with a progress record, as a long pull on Google would.
    const progress = {
      operation: 'pull',
      phase: 'fetching rows',
      pagesFetched: 24,
      rowsFetched: 2400,
      rowsExpected: 5000,
      linesWritten: 500,
      updatesSent: 0,
      updatesTotal: null,
      createsSent: 0,
      createsTotal: null,
      requestsLeft: 3,
      percent: 40,
      secondsLeft: 212,
      execution: 1,
      continuing: false,
      updatedAt: new Date().toISOString(),
    };
    // The pull is held until the test has seen the progress: no guess at how long the sidebar takes.
    let releasePull = (): void => {};
    const pullReleased = new Promise<void>((resolve) => {
      releasePull = resolve;
    });
    onTestFailed(() => releasePull());
    await page.route('**/rpc', async (route) => {
      const call = route.request().postDataJSON() as { fn: string };
      if (call.fn === 'pullActiveSheet') {
        await pullReleased;
        return route.continue();
      }
      if (call.fn !== 'getState') return route.continue();
      const answer = await route.fetch();
      const body = (await answer.json()) as { ok: boolean; value: Record<string, unknown> };
      if (page.isClosed() || (await page.locator('#app').getAttribute('aria-busy')) !== 'true') {
        return route.fulfill({ response: answer });
      }
      return route.fulfill({ response: answer, json: { ...body, value: { ...body.value, progress } } });
    });
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await expect
      .poll(() => page.locator('#progress').textContent(), { timeout: 8_000 })
      .toBe(
        'Fetching rows: 2,400 of about 5,000 rows fetched, 500 lines written. 3 min 32 s left in this execution.',
      );
    // The last run's result is not on show while a new run goes.
    expect(await page.locator('#summary').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Push', exact: true }).isDisabled()).toBe(true);
    expect(await page.locator('#status').textContent()).toBe('Pulling…');
    await checkScreen('pulling');
    releasePull();
    await idle(page);
    expect(await page.locator('#progress').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Push', exact: true }).isEnabled()).toBe(true);
    expect(await page.locator('#summary-text').textContent()).toMatch(/^Pulled: \d+ unchanged/);
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('shows how far a run got when it continues in the next execution', async () => {
    await connectAndLink();
    const waiting = {
      operation: 'pull',
      phase: 'waiting for the next execution',
      pagesFetched: 120,
      rowsFetched: 12000,
      rowsExpected: 50000,
      linesWritten: 10000,
      updatesSent: 0,
      updatesTotal: null,
      createsSent: 0,
      createsTotal: null,
      requestsLeft: null,
      percent: null,
      secondsLeft: 0,
      execution: 1,
      continuing: true,
      updatedAt: new Date().toISOString(),
    };
    // A long pull's first execution has ended; getState carries its saved progress until the next reports.
    await page.route('**/rpc', async (route) => {
      const call = route.request().postDataJSON() as { fn: string };
      if (call.fn !== 'getState') return route.continue();
      const answer = await route.fetch();
      const body = (await answer.json()) as { ok: boolean; value: Record<string, unknown> };
      return route.fulfill({
        response: answer,
        json: { ...body, value: { ...body.value, progress: waiting } },
      });
    });
    await page.reload();
    await idle(page);
    await expect
      .poll(() => page.locator('#progress').textContent())
      .toBe(
        'So far 12,000 of about 50,000 rows fetched, 10,000 lines written. The run continues in its next execution (Apps Script stops each one after 6 minutes).',
      );
    expect(await page.getByRole('button', { name: 'Pull', exact: true }).isEnabled()).toBe(true);
    await checkScreen('continuing');
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('checks the key, imports the account members, and shows createdBy as e-mails', async () => {
    await connectAndLink();
    await page.getByRole('button', { name: 'Check my key' }).click();
    await idle(page);
    expect(await page.locator('#status').textContent()).toContain('Your key works');
    await page.locator('#members-box summary').click();
    await page.locator('#members-email').fill('bob@acme.test');
    await page.getByRole('button', { name: 'Import members' }).click();
    await idle(page);
    expect(await page.locator('#status').textContent()).toContain('1 added');
    expect(h.sim.snapshotSheet('Members').rows.map((line) => line[1])).toEqual(['emailId', 'bob@acme.test']);
    await page.locator('#options summary').click();
    await page.locator('#fixed-choices input[value="createdBy"]').check();
    await page.locator('#show-emails').check();
    await page.getByRole('button', { name: /Save; applies on the next pull/ }).click();
    await idle(page);
    await operate(page, 'Pull');
    const snapshot = h.sim.snapshotSheet('Sheet1');
    const headers = snapshot.rows[0] ?? [];
    const createdBy = snapshot.rows.slice(1).map((line) => line[headers.indexOf('createdBy')]);
    expect(createdBy.length).toBeGreaterThan(0);
    expect(createdBy.every((email) => /@acme\.test$/.test(String(email)))).toBe(true);
    await checkScreen('members');
  });

  it('connects, links and pulls with the keyboard only', async () => {
    const focused = (): Promise<string> =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || '');
    /** Presses Tab until the element matching `selector` has focus. */
    const tabTo = async (selector: string): Promise<void> => {
      for (let i = 0; i < 30; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('#base-url');
    await page.keyboard.type(h.emulator.url);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('api-key');
    await page.keyboard.type(aliceKey());
    await page.keyboard.press('Enter');
    await idle(page);
    expect(await page.locator('#connected-as').textContent()).toContain('Alice Archer');

    // The link step lists the person's table apps: focus is in their search box, the apps a Tab away.
    expect(await focused()).toBe('app-search');
    await tabTo(`#app-list button[data-app-id="${SAMPLE.apps.crm}"]`);
    await page.keyboard.press('Enter');
    await idle(page);
    await tabTo('#link-form button[type="submit"]');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline, 'visible focus').not.toBe('none');
    await page.keyboard.press('Enter');
    await idle(page);

    await tabTo('#pull');
    await page.keyboard.press('Enter');
    await idle(page);
    expect(await page.locator('#summary-text').textContent()).toMatch(/^Pulled: \d+ added/);
    expect(h.sim.snapshotSheet('Sheet1').rows.length).toBeGreaterThan(1);
    await checkScreen('keyboard-pulled');
  });
});
