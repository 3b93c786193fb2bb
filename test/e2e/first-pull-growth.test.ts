// A first pull grows its sheet right after the content, without asking the grid's size (issue 25),
// and reads the sheet once, after its last request: what a person has in the sheet's blank rows, and
// what they do while the pull waits for the network, stays theirs. Simulator (dist/Code.js) +
// table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { installSheetCallCensus, startCensus, stopCensus } from '../../bench/sheet-call-census';
import { FIRST_PULL_CHUNK_ROWS } from '../../src/core/sync/pull/chunks';
import { CRM, freshSheet, headers, mismatches, pullSheet, startWorld, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A world with a `rows`-row table of 4 columns linked to a fresh sheet, not pulled yet. */
async function linkedTable(rows: number, tableId = 'tbl_growth'): Promise<World> {
  const w = await startWorld();
  world = w;
  await w.emulator.admin.seedTable({ appId: CRM, tableId, name: 'Growth', rows, columns: 4 });
  w.connect();
  freshSheet(w);
  w.call('linkActiveSheet', { tableAppId: CRM, tableId });
  return w;
}

const sheetOf = (w: World) => w.sim.spreadsheet.getActiveSheet();

/** Rows of a first pull written in two chunks: the first full (FIRST_PULL_CHUNK_ROWS and the rest of its wave), then 1,000. */
const TWO_CHUNKS = 12_000;

describe('a first pull reads its sheet once, after its last request', () => {
  it('keeps a header and a line a person types into the empty sheet during its last page wave', async () => {
    const w = await linkedTable(1500);
    const sheet = sheetOf(w);
    let typed = 0;
    // The wave that asks for the table's last page (the last wave that brings rows).
    const lastPage = (point: { requests: Array<{ url: string }> }): boolean =>
      point.requests.some((request) => /[?&]offset=1400\b/.test(request.url));
    w.sim.person.at({ on: 'fetchAll', when: lastPage }, () => {
      w.sim.person.edit(sheet.getName(), 1, 1, 'My notes');
      w.sim.person.edit(sheet.getName(), 2, 1, 'a line of mine');
      typed += 1;
    });
    installSheetCallCensus();
    startCensus();
    const pulled = pullSheet(w);
    const calls = stopCensus();
    expect(pulled).toMatchObject({ ok: true, added: 1500 });
    expect(typed).toBe(1);
    // One read of the sheet (its last row), none re-identifying before the write.
    expect(calls['Sheet.getLastRow']).toBe(1);
    expect(calls['Sheet.getSheetValues']).toBeUndefined();
    const values = w.values();
    expect(headers(w)[0]).toBe('My notes');
    expect(values[1]?.[0]).toBe('a line of mine');
    expect(values[1]?.[headers(w).indexOf('id')]).toBe('');
    expect(values).toHaveLength(1 + 1 + 1500);
    expect(await mismatches(w, undefined, CRM, 'tbl_growth')).toEqual([]);
  });

  it('of 10,000 rows writes them in one chunk after its last page: one read of the sheet, no re-identification', async () => {
    await linkedTable(10_000);
    installSheetCallCensus();
    startCensus();
    const pulled = pullSheet(world as World);
    const calls = stopCensus();
    expect(pulled).toMatchObject({ ok: true, added: 10_000 });
    // Its last row asked once, right before the write; no header row read to re-identify lines.
    expect(calls['Sheet.getLastRow']).toBe(1);
    expect(calls['Range.getValues']).toBeUndefined();
    expect(calls['SpreadsheetApp.flush']).toBe(1);
    expect(await mismatches(world as World, undefined, CRM, 'tbl_growth')).toEqual([]);
  }, 60_000);

  it('of two chunks commits its queued writes once, when the lock is released (no measuring flush)', async () => {
    await linkedTable(TWO_CHUNKS);
    installSheetCallCensus();
    startCensus();
    const pulled = pullSheet(world as World);
    const calls = stopCensus();
    expect(pulled).toMatchObject({ ok: true, added: TWO_CHUNKS });
    // The second chunk re-identifies the lines (a wait came since they were read).
    expect(calls['Sheet.getLastRow']).toBe(2);
    // The first chunk's rows leave 1,000 for the end: the first chunk's cost decides nothing, so it
    // is not measured.
    expect(calls['SpreadsheetApp.flush']).toBe(1);
  }, 60_000);
});

describe('a first pull grows the sheet after its content', () => {
  it("keeps a person's note and background in blank rows, below the lines, without asking the grid's size", async () => {
    const w = await linkedTable(1500);
    const sheet = sheetOf(w);
    // Formatting and a note in blank rows of the new sheet (1,000 rows, nothing in them).
    sheet.getRange(40, 2).setNote('keep me').setBackground('#ffff00');
    sheet.getRange(999, 1).setNote('near the end');
    installSheetCallCensus();
    startCensus();
    const pulled = pullSheet(w);
    const calls = stopCensus();
    expect(pulled).toMatchObject({ ok: true, added: 1500 });
    expect(calls['Sheet.getMaxRows']).toBeUndefined();
    expect(calls['Sheet.getMaxColumns']).toBeUndefined();
    expect(await mismatches(w, undefined, CRM, 'tbl_growth')).toEqual([]);
    // 1,500 lines under the header: 1,500 rows were inserted after row 1, the blank rows moved below;
    // the header's columns were inserted after column A, the blank columns moved right.
    const width = sheet.getLastColumn();
    expect(sheet.getLastRow()).toBe(1501);
    expect(sheet.getMaxRows()).toBe(1000 + 1500);
    expect(sheet.getMaxColumns()).toBe(26 + width - 1);
    expect(sheet.getRange(40 + 1500, 2 + width - 1).getNote()).toBe('keep me');
    expect(sheet.getRange(40 + 1500, 2 + width - 1).getBackground()).toBe('#ffff00');
    expect(sheet.getRange(999 + 1500, 1).getNote()).toBe('near the end');
    const lineNotes = sheet.getRange(2, 1, 1500, sheet.getLastColumn()).getNotes().flat();
    expect(lineNotes.filter((note) => note !== '')).toEqual([]);
  });

  it('a line a person types below the first chunk while the second waits for the network stays there', async () => {
    const w = await linkedTable(TWO_CHUNKS);
    const sheet = sheetOf(w);
    let typedAt = 0;
    // The first fetch wave after the first chunk (FIRST_PULL_CHUNK_ROWS rows or more) was written.
    w.sim.person.at({ on: 'fetchAll', when: () => sheet.getLastRow() > 1 }, () => {
      typedAt = sheet.getLastRow() + 1;
      w.sim.person.edit(sheet.getName(), typedAt, 'c01_text', 'typed by a person');
    });
    const pulled = pullSheet(w);
    expect(pulled).toMatchObject({ ok: true, added: TWO_CHUNKS });
    expect(typedAt).toBeGreaterThan(FIRST_PULL_CHUNK_ROWS);
    const values = w.values();
    const title = headers(w).indexOf('c01_text');
    const id = headers(w).indexOf('id');
    // The person's line is where they typed it; the second chunk's lines follow it, no blank row between.
    expect(values[typedAt - 1]?.[title]).toBe('typed by a person');
    expect(values[typedAt - 1]?.[id]).toBe('');
    expect(values.slice(1).filter((line) => line[id] === '')).toHaveLength(1);
    expect(values).toHaveLength(TWO_CHUNKS + 2);
    expect(await mismatches(w, undefined, CRM, 'tbl_growth')).toEqual([]);
  }, 60_000);

  it('a line a person deletes while the second chunk waits leaves the blank row below the lines blank', async () => {
    const w = await linkedTable(TWO_CHUNKS);
    const sheet = sheetOf(w);
    // The new sheet's row 2: right below the content once the first chunk is in.
    sheet.getRange(2, 1).setNote('first blank row');
    let deleted = '';
    w.sim.person.at({ on: 'fetchAll', when: () => sheet.getLastRow() > 1 }, () => {
      const id = headers(w).indexOf('id');
      deleted = String(w.values()[10]?.[id]);
      w.sim.person.deleteRows(sheet.getName(), 11, 1);
    });
    const pulled = pullSheet(w);
    expect(pulled.ok, pulled.message).toBe(true);
    expect(deleted).not.toBe('');
    const values = w.values();
    const id = headers(w).indexOf('id');
    // Every line holds a row: none written over the blank row a person's note is on.
    expect(values.slice(1).every((line) => line[id] !== '')).toBe(true);
    const noteRow = sheet
      .getRange(1, 1, sheet.getMaxRows(), 1)
      .getNotes()
      .findIndex(([note]) => note === 'first blank row');
    expect(noteRow + 1).toBeGreaterThan(sheet.getLastRow());
    expect(
      sheet
        .getRange(noteRow + 1, 1, 1, sheet.getLastColumn())
        .getValues()[0]
        ?.every((cell) => cell === ''),
    ).toBe(true);
  }, 60_000);

  it('a row a person inserts above the lines while the second chunk waits: every line still holds its row', async () => {
    const w = await linkedTable(TWO_CHUNKS);
    const sheet = sheetOf(w);
    let insertedAt = 0;
    w.sim.person.at({ on: 'fetchAll', when: () => sheet.getLastRow() > 1 }, () => {
      insertedAt = 5;
      w.sim.person.insertRows(sheet.getName(), insertedAt, 1);
      w.sim.person.edit(sheet.getName(), insertedAt, 'c01_text', 'inserted by a person');
    });
    const pulled = pullSheet(w);
    expect(pulled.ok, pulled.message).toBe(true);
    expect(insertedAt).toBe(5);
    const values = w.values();
    const id = headers(w).indexOf('id');
    expect(values[insertedAt - 1]?.[headers(w).indexOf('c01_text')]).toBe('inserted by a person');
    expect(values[insertedAt - 1]?.[id]).toBe('');
    // The pull's lines and the person's: nothing written over it, no blank row left among the lines.
    expect(values).toHaveLength(1 + TWO_CHUNKS + 1);
    expect(values.slice(1).filter((line) => line[id] === '')).toHaveLength(1);
    expect(await mismatches(w, undefined, CRM, 'tbl_growth')).toEqual([]);
  }, 60_000);

  it('a header a person renames while the second chunk waits: that chunk writes nothing, the next pull completes', async () => {
    const w = await linkedTable(TWO_CHUNKS);
    const sheet = sheetOf(w);
    w.sim.person.at({ on: 'fetchAll', when: () => sheet.getLastRow() > 1 }, () =>
      w.sim.person.renameHeader(sheet.getName(), 'c01_text', 'Notes of mine'),
    );
    const pulled = pullSheet(w);
    expect(pulled.ok, pulled.message).toBe(true);
    // The first chunk's lines are in; none of the second's was written under the moved headers.
    const lastRow = sheet.getLastRow();
    expect(lastRow).toBeGreaterThan(FIRST_PULL_CHUNK_ROWS);
    expect(lastRow).toBeLessThan(TWO_CHUNKS + 1);
    expect(headers(w)).toContain('Notes of mine');
    // The next pull writes the rest, into the renamed column (a synced column a person renamed is
    // kept under its name).
    expect(pullSheet(w).ok).toBe(true);
    expect(sheet.getLastRow()).toBe(TWO_CHUNKS + 1);
    const id = headers(w).indexOf('id');
    expect(
      new Set(
        w
          .values()
          .slice(1)
          .map((line) => String(line[id])),
      ).size,
    ).toBe(TWO_CHUNKS);
  }, 60_000);
});
