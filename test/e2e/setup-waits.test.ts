// Setup and bookkeeping of a pull or push without needless waiting Spreadsheet calls (issue 18): what
// each saving must keep true. Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { installSheetCallCensus, startCensus, stopCensus } from '../../bench/sheet-call-census';
import { CRM, DEALS, pushSheet, startWorld, typeInto, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The time as Sheets shows 'yyyy-mm-dd hh:mm:ss' in a zone. */
function wallTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

describe('the Sync log', () => {
  it("shows each run's time in the spreadsheet's time zone without asking the zone", async () => {
    const start = Date.UTC(2026, 0, 15, 14, 30, 5);
    world = await startWorld({ simulator: { timeZone: 'America/New_York', startTime: start } });
    world.connect();
    world.linkAndPull();
    // A clean pull from the sidebar is not logged; a push is.
    expect(world.sim.spreadsheet.getSheetByName('Sync log')).toBeNull();
    world.call('pushActiveSheet');
    const log = world.sim.spreadsheet.getSheetByName('Sync log');
    expect(log).not.toBeNull();
    const when = log?.getRange(2, 1);
    const value = when?.getValue();
    expect(value).toBeInstanceOf(Date);
    const at = value as Date;
    expect(at.getTime()).toBeGreaterThanOrEqual(start - 1000);
    expect(at.getTime()).toBeLessThan(start + 60_000);
    // New York is 5 hours behind UTC in January.
    expect(when?.getDisplayValue()).toBe(wallTime(at, 'America/New_York'));
    expect(when?.getDisplayValue()).toMatch(/^2026-01-15 09:3\d:\d\d$/);
    // The other cells stay plain text: a message is never parsed as a number, date or formula.
    expect(
      log
        ?.getRange(2, 2, 1, 13)
        .getNumberFormats()[0]
        ?.every((format) => format === '@'),
    ).toBe(true);
  });
});

/** The link's hidden base sheet (the add-on's only hidden sheet in these tests). */
function baseSheet(w: World) {
  const base = w.sim.spreadsheet.getSheets().find((sheet) => sheet.getName().startsWith('_tas_base_'));
  if (!base) throw new Error('no base sheet');
  return base;
}

/** Number formats of the base's three columns that are not plain text, over its whole grid. */
function baseCellsNotPlainText(w: World): number {
  const base = baseSheet(w);
  return base
    .getRange(1, 1, base.getMaxRows(), 3)
    .getNumberFormats()
    .flat()
    .filter((format) => format !== '@').length;
}

describe('the base sheet made without asking its size', () => {
  it('is plain text in every row of its grid, whether it grew without asking or after asking', async () => {
    world = await startWorld();
    // 1,500 rows: made and grown in one run without asking its size; 2,600: grown past that.
    for (const [tableId, rows] of [
      ['tbl_small', 1500],
      ['tbl_large', 2600],
    ] as const) {
      await world.emulator.admin.seedTable({ appId: CRM, tableId, name: tableId, rows, columns: 5 });
      world.sim.spreadsheet.setActiveSheet(world.sim.spreadsheet.insertSheet(tableId));
      world.connect();
      world.linkAndPull(CRM, tableId);
      const base = world.sim.spreadsheet
        .getSheets()
        .find(
          (sheet) => sheet.getName() === `_tas_base_${world?.sim.spreadsheet.getActiveSheet().getSheetId()}`,
        );
      expect(base?.isSheetHidden()).toBe(true);
      expect(base?.getLastRow()).toBe(rows + 1);
      expect(base?.getMaxRows()).toBeGreaterThan(rows + 1);
      const formats = base?.getRange(1, 1, base.getMaxRows(), 3).getNumberFormats().flat() ?? [];
      expect(formats.filter((format) => format !== '@')).toEqual([]);
      // The active sheet stays the linked one.
      expect(world.sim.spreadsheet.getActiveSheet().getName()).toBe(tableId);
    }
  });

  it('is read whole past blank rows below its records: a push after a pull sends exactly the edit', async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    expect(baseCellsNotPlainText(world)).toBe(0);
    // The new base keeps the new sheet's blank rows below its records.
    expect(baseSheet(world).getMaxRows()).toBeGreaterThan(baseSheet(world).getLastRow());
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const headers = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? []).map(String);
    sheet.getRange(2, headers.indexOf('title') + 1).setValue('Renamed by a person');
    const summary = world.call<{ ok: boolean; updated: number; created: number }>('pushActiveSheet');
    expect(summary).toMatchObject({ ok: true, updated: 1, created: 0 });
    const id = String(sheet.getRange(2, headers.indexOf('id') + 1).getValue());
    const row = (await world.serviceRows()).find((each) => each.id === id);
    expect(row?.title).toBe('Renamed by a person');
  });
});

describe('the header row freeze', () => {
  it('is set on an empty sheet without asking, and a freeze of more rows on a sheet with headers is kept', async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    const sheet = world.sim.spreadsheet.getActiveSheet();
    expect(sheet.getFrozenRows()).toBe(1);
    sheet.setFrozenRows(2);
    await world.emulator.admin.addColumn(CRM, DEALS, { id: 'priority', name: 'Priority', type: 'text' });
    const summary = world.call<{ ok: boolean }>('pullActiveSheet');
    expect(summary.ok).toBe(true);
    expect((sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? []).map(String)).toContain(
      'priority',
    );
    expect(sheet.getFrozenRows()).toBe(2);
  });
});

describe('a first pull into an empty sheet', () => {
  it('asks the sheet its size once, after its last request, and nothing more before writing', async () => {
    world = await startWorld();
    world.connect();
    world.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
    const result = world.sim.callFromClient('pullActiveSheet', []);
    expect(result.ok).toBe(true);
    expect((result.value as { ok: boolean; added: number }).added).toBeGreaterThan(0);
    // Waiting calls, one each: the active spreadsheet, sheet and its id; the base looked for; after the
    // last page wave the sheet's last row (0: nothing more to read, and no wait before the write, so no
    // re-identification); the base made; the run's flush. The grid's size is not asked (rows and
    // columns are inserted after the content), and a clean pull from the sidebar is not logged. The
    // size asked at the schema wait, re-identified before the write, would add two.
    expect(result.stats.sheetWaits).toBe(7);
    expect(world.sim.spreadsheet.getSheetByName('Sync log')).toBeNull();
  });
});

describe('the base seen cells', () => {
  it('are not written by a pull that ends in one execution, changed records included', async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    const base = baseSheet(world);
    const records = base.getLastRow() - 1;
    expect(records).toBeGreaterThan(1);
    // Marks of an older pull: they mean nothing to a new pull, which leaves them as they are.
    base.getRange(2, 3, records, 1).setValues(Array.from({ length: records }, () => ['p-older']));
    const rows = await world.serviceRows();
    await world.emulator.admin.editRow(CRM, DEALS, String(rows[0]?.id), { title: 'Changed on the service' });
    const summary = world.call<{ ok: boolean; updated: number }>('pullActiveSheet');
    expect(summary).toMatchObject({ ok: true, updated: 1 });
    expect(base.getRange(2, 3, records, 1).getValues().flat()).toEqual(
      Array.from({ length: records }, () => 'p-older'),
    );
  });
});

describe('a long first pull', () => {
  it('writes its rows in chunks that grow once the first is measured', async () => {
    world = await startWorld();
    // 25,000 rows: 5,000 in the first chunk, the other 20,000 in one (5 chunks of 5,000 otherwise).
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_long',
      name: 'Long',
      rows: 25_000,
      columns: 4,
    });
    world.connect();
    world.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_long' });
    const result = world.sim.callFromClient('pullActiveSheet', []);
    expect(result.ok, result.error?.message).toBe(true);
    expect(result.value).toMatchObject({ ok: true, added: 25_000, continuing: false });
    // The first pull's 7 waiting calls (its sheet read right before the first chunk's write), a flush
    // measuring the first chunk when the second is due (its cost lets that one grow), and the second
    // chunk's re-identification (2: last row, header row): 10. The base grows after its records
    // without asking its size. In 5,000-row chunks, 15.
    expect(result.stats.sheetWaits).toBe(10);
  }, 60_000);
});

describe('a scheduled run', () => {
  it('finds its linked sheet once and asks the spreadsheet name only for a mail', async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    // The Sync log made by a push first: a scheduled run making it would count the sheets once more.
    world.call('pushActiveSheet');
    world.call('setSchedule', { mode: 'sync', every: 'm15' });
    installSheetCallCensus();
    startCensus();
    const runs = world.sim.advanceAndFire(15 * 60_000);
    const calls = stopCensus();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.ok, runs[0]?.error?.message).toBe(true);
    // The trigger looks the sheet up among the spreadsheet's sheets (a deleted one ends the link);
    // the run it starts finds it again without asking. No failure, no recovery: no mail, no name.
    expect(calls['Spreadsheet.getSheets']).toBe(1);
    expect(calls['Spreadsheet.getName']).toBeUndefined();
  });
});

describe("a push's read of the linked sheet", () => {
  it('reads its content from A1 in one waiting call, and sends the edit', async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    const [row] = await world.serviceRows();
    typeInto(world, String(row?.id), 'title', 'typed');
    installSheetCallCensus();
    startCensus();
    const pushed = pushSheet(world);
    const calls = stopCensus();
    expect(pushed).toMatchObject({ ok: true, updated: 1 });
    // The data range and its values would wait twice (the second getSheetValues is the write's
    // re-identification of this small sheet, after the requests).
    expect(calls['Sheet.getDataRange']).toBeUndefined();
    expect(calls['Sheet.getSheetValues']).toBe(2);
    expect((await world.serviceRows()).find((each) => each.id === row?.id)?.title).toBe('typed');
  });
});
