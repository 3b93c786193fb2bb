// The accident guard with live sync on (issue 33 cases 2 and 14, sync-rules.md "Live sync": "under the
// same rules as a push (three-way check, accident guard ...)"). Whether a sort fires an edit is
// UNCONFIRMED (apps-script-facts §13, §14), so both readings run:
// - a column sorted alone, then a note typed on 3 lines: each firing pushes its line, and must still
//   see that the line's title moved with the whole column: no row takes another row's title, the notes
//   go, and the hold waits for the person's choice (no keystroke clears or replaces it);
// - the same on a sheet too large to be read whole by a firing (its typed lines are read apart);
// - a held push's examples show the value the service holds for that row ("before"), not "(empty)"
//   (the GET of a row carries fixed fields only, table-api 4.5) nor another row's value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldValueText } from '../../src/core/sync/push/guard';
import type { HeldChoice, HeldPush, SyncSummary } from '../../src/shared/types';
import { CRM, column, DEALS, freshSheet, mismatches, startWorld, type World } from './world';

const ALICE = 'alice@example.com';

function asAlice<T>(w: World, fn: string, ...args: unknown[]): T {
  const result = w.sim.callFromClient(fn, args, { user: ALICE });
  if (!result.ok) throw new Error(result.error?.message ?? `${fn} failed`);
  return result.value as T;
}

function columnLetter(at: number): string {
  let letters = '';
  for (let n = at; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Data › Sort range on one column's cells alone, rows 2 to the last. */
function sortColumnAlone(w: World, header: string, ascending = true): void {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const at = column(w, header);
  const letter = columnLetter(at);
  w.sim.person.sortRange(sheet.getName(), `${letter}2:${letter}${sheet.getLastRow()}`, at, ascending);
}

function idOnRow(w: World, row: number): string {
  return String(w.sim.spreadsheet.getActiveSheet().getRange(row, column(w, 'id')).getValue());
}

function heldNow(w: World): HeldChoice | null {
  return asAlice<{ held: HeldChoice | null }>(w, 'getState').held;
}

/** Every example of a hold shows, as "before", what the service holds in that row's cell now. */
async function expectBeforeIsServices(w: World, held: HeldPush, tableId = DEALS): Promise<void> {
  const rows = new Map((await w.serviceRows(CRM, tableId)).map((row) => [String(row.id), row]));
  const examples = held.columns.flatMap((each) =>
    each.examples.map((example) => ({ ...example, columnId: each.columnId })),
  );
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) {
    const row = rows.get(example.rowId);
    expect(example.before, `${example.rowId} ${example.columnId}`).toBe(
      heldValueText(row?.[example.columnId]),
    );
  }
}

/** A fresh sheet linked to the deals, pulled, live sync on; the service's titles by row id. */
async function liveDeals(w: World): Promise<Map<string, unknown>> {
  freshSheet(w);
  asAlice(w, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
  expect(asAlice<SyncSummary>(w, 'pullActiveSheet').ok).toBe(true);
  asAlice(w, 'setLinkOptions', { live: true });
  return new Map((await w.serviceRows()).map((row) => [String(row.id), row.title]));
}

/** Every line's title is its row's as the service holds it (`titles`), and nothing else shows. */
function expectTitlesBack(w: World, titles: ReadonlyMap<string, unknown>): void {
  const values = w.values();
  const head = (values[0] as unknown[]).map(String);
  const wrong = values
    .slice(1)
    .filter((line) => line[head.indexOf('title')] !== titles.get(String(line[head.indexOf('id')])));
  expect(wrong).toEqual([]);
}

/** Sort the titles alone, type a note on 3 lines: the notes go, no title moves, the hold waits. */
async function notesAfterSortedTitles(w: World, sortFiresEdit: boolean): Promise<void> {
  const titles = await liveDeals(w);
  sortColumnAlone(w, 'title', false);
  const heldAfterSort = heldNow(w);
  // A sort that fires edit is weighed whole; one that does not leaves it to the next firing.
  if (sortFiresEdit) expect(heldAfterSort?.held.columns.map((each) => each.columnId)).toEqual(['title']);
  const sheet = w.sim.spreadsheet.getActiveSheet().getName();
  const typedRows = [3, 5, 7];
  for (const row of typedRows) w.sim.person.edit(sheet, row, 'notes', `note on row ${row}`);
  const after = await w.serviceRows();
  expect(after.filter((row) => titles.get(String(row.id)) !== row.title).map((row) => row.id)).toEqual([]);
  const byId = new Map(after.map((row) => [String(row.id), row]));
  for (const row of typedRows) expect(byId.get(idOnRow(w, row))?.notes).toBe(`note on row ${row}`);
  // The pending choice stays in the sidebar: no keystroke cleared or replaced it.
  const held = heldNow(w);
  expect(held?.held.columns.map((each) => each.columnId)).toEqual(['title']);
  if (heldAfterSort) expect(held?.held.key).toBe(heldAfterSort.held.key);
  await expectBeforeIsServices(w, held?.held as HeldPush);
  // The typed lines say their title is held, not that they were pushed whole.
  const status = (row: number) => w.sim.spreadsheet.getActiveSheet().getRange(row, column(w, '_sync'));
  for (const row of typedRows) expect(String(status(row).getValue())).toMatch(/title/);
  // Put back: every title is its row's again, nothing sent.
  const put = asAlice<SyncSummary>(w, 'putBackHeld');
  expect(put.ok, put.message).toBe(true);
  expectTitlesBack(w, titles);
  expect(heldNow(w)).toBeNull();
}

/**
 * A sort of 15 titles fired and was held; the person types back titles until fewer lines are moved
 * than the guard holds (keystrokes that hold nothing), then a note beside a still moved title.
 */
async function keystrokesUnderAWaitingHold(w: World): Promise<void> {
  const titles = await liveDeals(w);
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const at = column(w, 'title');
  w.sim.person.sortRange(sheet.getName(), `${columnLetter(at)}2:${columnLetter(at)}16`, at, false);
  const held = heldNow(w);
  expect(held?.held.columns.map((each) => each.columnId)).toEqual(['title']);
  const moved = [...Array(15).keys()]
    .map((i) => i + 2)
    .filter((row) => sheet.getRange(row, at).getValue() !== titles.get(idOnRow(w, row)));
  expect(moved.length).toBeGreaterThanOrEqual(10);
  for (const row of moved.slice(9))
    w.sim.person.edit(sheet.getName(), row, 'title', titles.get(idOnRow(w, row)));
  expect(heldNow(w)?.held.key).toBe(held?.held.key);
  const row = moved[0] as number;
  w.sim.person.edit(sheet.getName(), row, 'notes', 'a note beside a held title');
  const after = new Map((await w.serviceRows()).map((each) => [String(each.id), each]));
  expect(after.get(idOnRow(w, row))?.notes).toBe('a note beside a held title');
  expect([...after.values()].filter((each) => titles.get(String(each.id)) !== each.title)).toEqual([]);
  expect(heldNow(w)?.held.key).toBe(held?.held.key);
}

for (const sortFiresEdit of [false, true]) {
  describe(`a column sorted alone with live sync on (a sort ${sortFiresEdit ? 'fires' : 'does not fire'} edit)`, () => {
    let w: World;
    beforeAll(async () => {
      w = await startWorld({
        simulator: { users: [{ email: ALICE }], costs: 'central', countRealTime: false, sortFiresEdit },
      });
      w.connect('u_alice');
    });
    afterAll(async () => w?.close());

    it('notes typed on 3 lines go; no row takes another row’s title; the hold waits for the choice', () =>
      notesAfterSortedTitles(w, sortFiresEdit));

    it.runIf(sortFiresEdit)(
      'a hold waiting for the choice outlives keystrokes that hold nothing, and none of its cells goes',
      () => keystrokesUnderAWaitingHold(w),
    );
  });
}

describe('a held push shows the service’s value as "before"', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ simulator: { costs: 'central', countRealTime: false } });
    w.connect('u_alice');
  });
  afterAll(async () => w?.close());

  it('Amount sorted alone: each example is "the service’s amount → the amount sent"', async () => {
    freshSheet(w);
    w.linkAndPull();
    sortColumnAlone(w, 'amount', false);
    const pushed = w.call<SyncSummary>('pushActiveSheet');
    expect(pushed.held?.columns.map((each) => each.columnId)).toEqual(['amount']);
    await expectBeforeIsServices(w, pushed.held as HeldPush);
    // The sidebar's stored choice says the same.
    await expectBeforeIsServices(w, (w.call<{ held: HeldChoice }>('getState').held as HeldChoice).held);
  });
});

/** The large sheet's table and its notes column. */
const LARGE_TABLE = 'tbl_large';
const LARGE_NOTES = 'c07_text';

/**
 * `header`'s cells sorted alone; a note typed on a line near the header and one far down, each
 * showing another row's value now: the notes go, no value of the column moves, the hold waits.
 */
async function notesBesideSorted(w: World, header: string): Promise<void> {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  // A block pasted first: no line is left being typed from an earlier test (its edits would go along).
  w.sim.person.setValues(sheet.getName(), 2, LARGE_NOTES, [[`${header} a`], [`${header} b`]]);
  const at = column(w, header);
  const before = sheet
    .getRange(2, at, 300, 1)
    .getValues()
    .map((cells) => String(cells[0]));
  const values = new Map(
    (await w.serviceRows(CRM, LARGE_TABLE)).map((row) => [String(row.id), JSON.stringify(row[header])]),
  );
  sortColumnAlone(w, header, false);
  expect(heldNow(w)).toBeNull();
  const changed = sheet
    .getRange(2, at, 300, 1)
    .getValues()
    .flatMap((cells, i) => (String(cells[0]) !== before[i] ? [i + 2] : []));
  const typedRows = [changed[0] as number, changed.at(-1) as number];
  expect(typedRows[1]).toBeGreaterThan(200);
  for (const row of typedRows) {
    const runs = w.sim.editRuns.length;
    w.sim.person.edit(sheet.getName(), row, LARGE_NOTES, `note on row ${row}`);
    const firing = w.sim.editRuns.slice(runs)[0]?.result;
    expect(firing?.ok, firing?.error?.message).toBe(true);
  }
  const after = await w.serviceRows(CRM, LARGE_TABLE);
  const moved = after.filter((row) => values.get(String(row.id)) !== JSON.stringify(row[header]));
  expect(moved.map((row) => row.id)).toEqual([]);
  const byId = new Map(after.map((row) => [String(row.id), row]));
  for (const row of typedRows) expect(byId.get(idOnRow(w, row))?.[LARGE_NOTES]).toBe(`note on row ${row}`);
  const held = heldNow(w);
  expect(held?.held.columns.map((each) => each.columnId)).toEqual([header]);
  // The whole column moved, not the two typed lines: the hold counts the lines sorted.
  expect(held?.held.columns[0]?.lines).toBeGreaterThan(changed.length / 2);
  await expectBeforeIsServices(w, held?.held as HeldPush, LARGE_TABLE);
  const put = asAlice<SyncSummary>(w, 'putBackHeld');
  expect(put.ok, put.message).toBe(true);
  expect(await mismatches(w, undefined, CRM, LARGE_TABLE)).toEqual([]);
}

describe('a column sorted alone on a sheet a firing does not read whole (300 lines; the sort fires nothing)', () => {
  let w: World;
  beforeAll(async () => {
    // One lMod for every seeded row (the service's stamps stopped while it seeds), as live-edit-large.
    w = await startWorld({
      emulator: { stampsFollowClock: true },
      simulator: { users: [{ email: ALICE }], costs: 'central', countRealTime: false },
    });
    await w.emulator.admin.setClock({ nowMs: Date.now() });
    await w.emulator.admin.seedTable({
      appId: CRM,
      tableId: LARGE_TABLE,
      rows: 300,
      columns: 8,
      hostile: false,
    });
    await w.emulator.admin.setClock({ real: true });
    w.connect('u_alice');
    asAlice(w, 'linkActiveSheet', { tableAppId: CRM, tableId: LARGE_TABLE });
    expect(asAlice<SyncSummary>(w, 'pullActiveSheet').ok).toBe(true);
    asAlice(w, 'setLinkOptions', { live: true });
  }, 60_000);
  afterAll(async () => w?.close());

  it('titles (each its own): notes typed near the header and far down go, no title moves, the hold waits', () =>
    notesBesideSorted(w, 'title'));

  it('tags (few values, held as a share of the lines): the same', () =>
    notesBesideSorted(w, 'c05_multiSelect'));
});
