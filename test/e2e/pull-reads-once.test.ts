// A re-pull reads its sheet once, after its last page, and writes without reading the written cells
// back (issue 25): by poll ("Pull what changed") and by the whole listing ("Pull everything"). What a
// person types while the pull waits is read with the lines, merged three-way, and kept. Simulator
// (dist/Code.js) + table-service emulator.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import { installSheetCallCensus, startCensus, stopCensus } from '../../bench/sheet-call-census';
import {
  CRM,
  cellOf,
  column,
  freshSheet,
  headers,
  lineOf,
  mismatches,
  pullSheet,
  startWorld,
  type World,
} from './world';

const TABLE = 'tbl_polled';
const ROWS = 400;
/** More than a poll page (100) changed: the poll takes two page waves. */
const CHANGED = 150;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A pulled table whose rows were last changed a day ago (the poll's overlap then holds few rows). */
async function pulledTable(rows = ROWS): Promise<World> {
  const w = await startWorld({ emulator: { poll: 'on' } });
  world = w;
  const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  await w.emulator.admin.seedTable({
    appId: CRM,
    tableId: TABLE,
    name: 'Polled',
    rows,
    columns: 4,
    modifiedAt: dayAgo,
  });
  w.connect();
  freshSheet(w);
  w.call('linkActiveSheet', { tableAppId: CRM, tableId: TABLE });
  expect(pullSheet(w)).toMatchObject({ ok: true, added: rows });
  return w;
}

/** The table's own column headers of the active sheet (not the fixed fields or the status). */
function tableHeaders(w: World): string[] {
  return headers(w).filter((header) => !['id', 'lMod', 'lModBy'].includes(header) && !header.startsWith('_'));
}

describe('a pull by poll', () => {
  it('reads the sheet once after its last page, reads nothing back, and keeps what a person typed meanwhile', async () => {
    const w = await pulledTable();
    const ids = (await w.serviceRows(CRM, TABLE)).map((row) => String(row.id));
    const [table1, table2] = tableHeaders(w);
    expect(table2).toBeDefined();
    // Every other row changed on the service, in the first table column.
    const changed = ids.filter((_, i) => i % 2 === 0).slice(0, CHANGED);
    for (const id of changed)
      await w.emulator.admin.editRow(CRM, TABLE, id, { [table1 as string]: `service ${id}` }, 'u_bob');
    const [bothSides, sameCell] = changed as [string, string];
    const untouched = ids[1] as string;
    // Where the person types, found before the pull (the census counts every Spreadsheet call).
    const name = w.sim.spreadsheet.getActiveSheet().getName();
    const at = (id: string, header: string): [number, number] => [lineOf(w, id), column(w, header)];
    const edits: Array<[[number, number], string]> = [
      [at(bothSides, table2 as string), 'mine, beside theirs'],
      [at(sameCell, table1 as string), 'mine, over theirs'],
      [at(untouched, table2 as string), 'mine alone'],
    ];
    let typed = 0;
    // While the poll's second page wave waits: a person edits a changed line's other column, the
    // changed cell of another (a conflict), and a line the service did not change. (The poll's
    // second page starts on the first page's last row: offset 99.)
    w.sim.person.at(
      {
        on: 'fetchAll',
        when: (point) => point.requests.some((request) => /updates\?.*offset=99\b/.test(request.url)),
      },
      () => {
        for (const [[row, col], value] of edits) w.sim.person.edit(name, row, col, value);
        typed += 1;
      },
    );
    installSheetCallCensus();
    startCensus();
    const pulled = pullSheet(w);
    const calls = stopCensus();
    expect(pulled.ok).toBe(true);
    expect(typed).toBe(1);
    // The lines read once, whole, after the last page; the base once; no size, header or ids asked
    // again to re-identify, no written cell read back.
    expect(calls['Sheet.getSheetValues']).toBe(1);
    expect(calls['Range.getValues']).toBe(1);
    expect(calls['Sheet.getLastRow']).toBeUndefined();
    expect(calls['Sheet.getDataRange']).toBeUndefined();
    expect(cellOf(w, bothSides as string, table1 as string)).toBe(`service ${bothSides}`);
    expect(cellOf(w, bothSides as string, table2 as string)).toBe('mine, beside theirs');
    expect(cellOf(w, sameCell as string, table1 as string)).toBe('mine, over theirs');
    expect(String(cellOf(w, sameCell as string, '_sync'))).toMatch(/conflict/i);
    expect(cellOf(w, untouched, table2 as string)).toBe('mine alone');
    // Every other line holds the service's values.
    const problems = await mismatches(w, undefined, CRM, TABLE);
    expect(
      problems.filter(
        (problem) => ![bothSides, sameCell, untouched].some((id) => problem.includes(`row ${id} `)),
      ),
    ).toEqual([]);
    expect(problems).toHaveLength(3);
  }, 60_000);
});

describe('"Pull everything"', () => {
  it("reads the sheet once after the listing's last page wave, reads nothing back, and keeps what a person typed meanwhile", async () => {
    // Two page waves: the first brings rows 0-799, the second the rest.
    const w = await pulledTable(1_500);
    const ids = (await w.serviceRows(CRM, TABLE)).map((row) => String(row.id));
    const [table1, table2] = tableHeaders(w);
    const [early, late] = [ids[10] as string, ids[1_450] as string];
    for (const id of [early, late])
      await w.emulator.admin.editRow(CRM, TABLE, id, { [table1 as string]: `service ${id}` }, 'u_bob');
    const name = w.sim.spreadsheet.getActiveSheet().getName();
    const at = (id: string, header: string): [number, number] => [lineOf(w, id), column(w, header)];
    const [earlyCell, lateCell] = [at(early, table2 as string), at(late, table2 as string)];
    let typed = 0;
    w.sim.person.at(
      {
        on: 'fetchAll',
        when: (point) => point.requests.some((request) => /[?&]offset=1400\b/.test(request.url)),
      },
      () => {
        w.sim.person.edit(name, earlyCell[0], earlyCell[1], 'mine, early');
        w.sim.person.edit(name, lateCell[0], lateCell[1], 'mine, late');
        typed += 1;
      },
    );
    installSheetCallCensus();
    startCensus();
    const pulled = w.call<SyncSummary>('pullEverything');
    const calls = stopCensus();
    expect(pulled.ok).toBe(true);
    expect(typed).toBe(1);
    // The lines read once, after the last page wave; the base once; nothing re-identified or read back.
    expect(calls['Sheet.getSheetValues']).toBe(1);
    expect(calls['Range.getValues']).toBe(1);
    for (const id of [early, late]) expect(cellOf(w, id, table1 as string)).toBe(`service ${id}`);
    expect(cellOf(w, early, table2 as string)).toBe('mine, early');
    expect(cellOf(w, late, table2 as string)).toBe('mine, late');
    expect(await mismatches(w, undefined, CRM, TABLE)).toHaveLength(2);
  }, 60_000);
});

describe('a re-pull that waits again after reading its sheet', () => {
  it('reads back the cells it writes, and keeps what a person typed there during the people lookup', async () => {
    const w = await pulledTable();
    w.call('setLinkOptions', { fixedFields: ['lModBy'], showEmails: true });
    expect(pullSheet(w).ok).toBe(true);
    const ids = (await w.serviceRows(CRM, TABLE)).map((row) => String(row.id));
    const [table1] = tableHeaders(w);
    const [theirs, mine] = [ids[5] as string, ids[300] as string];
    for (const id of [theirs, mine])
      await w.emulator.admin.editRow(CRM, TABLE, id, { [table1 as string]: `service ${id}` }, 'u_bob');
    const name = w.sim.spreadsheet.getActiveSheet().getName();
    const [row, col] = [lineOf(w, mine), column(w, table1 as string)];
    let typed = 0;
    // The people lookup (lModBy shown as e-mails) comes after the lines are read: a wait before the write.
    w.sim.person.at(
      {
        on: 'fetchAll',
        when: (point) => point.requests.some((request) => /\/user\/people\b/.test(request.url)),
      },
      () => {
        if (typed++ === 0) w.sim.person.edit(name, row, col, 'mine, typed during the lookup');
      },
    );
    const pulled = pullSheet(w);
    expect(pulled.ok).toBe(true);
    expect(typed).toBeGreaterThan(0);
    expect(cellOf(w, theirs, table1 as string)).toBe(`service ${theirs}`);
    expect(cellOf(w, mine, table1 as string)).toBe('mine, typed during the lookup');
    expect(await mismatches(w, undefined, CRM, TABLE)).toHaveLength(1);
  }, 60_000);
});
