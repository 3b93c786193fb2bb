// Edits typed while a run holds the lock (issue 33 cases 5 and 11): every firing that finds the lock
// held leaves its lines in the queue for that run, or the next, to send. Past the queue's size the
// queue records that it overflowed and the run that takes it compares every line: no edit is lost
// without a word. A new line's first cell typed meanwhile is not created when the run ends (sync
// rules: "never on its first typed cell"); it is once its editor moves on to another line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, column, startWorld, type World } from './world';

const TABLE = 'tbl_queue';
const NOTES = 'c07_text';
/** Lines of the table: 60 edits of one column stay under half of them (the guard holds no share). */
const LINES = 150;

function queueKeys(w: World): string[] {
  return Object.keys(w.sim.properties('document')).filter((key) => key.includes('liveQueue'));
}

describe('edits typed while a pull holds the lock', () => {
  let w: World;
  let sheet: string;
  beforeAll(async () => {
    w = await startWorld({ simulator: { costs: 'central', countRealTime: false } });
    await w.emulator.admin.seedTable({ appId: CRM, tableId: TABLE, rows: LINES, columns: 8, hostile: false });
    w.connect();
    w.linkAndPull(CRM, TABLE);
    w.call('setLinkOptions', { live: true });
    sheet = w.sim.spreadsheet.getActiveSheet().getName();
  }, 60_000);
  afterAll(async () => w?.close());

  it('60 edits on 60 lines, more than the queue holds: every one reaches the service', async () => {
    const ids = new Map<number, string>();
    const idColumn = column(w, 'id');
    w.sim.person.at({ on: 'network', nth: 1 }, () => {
      for (let i = 0; i < 60; i++) {
        const row = 2 + i;
        ids.set(row, String(w.sim.spreadsheet.getSheetByName(sheet)?.getRange(row, idColumn).getValue()));
        w.sim.person.edit(sheet, row, NOTES, `typed during the pull ${i}`);
      }
    });
    const before = w.sim.editRuns.length;
    const pulled = w.call<SyncSummary>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    const firings = w.sim.editRuns.slice(before);
    expect(firings).toHaveLength(60);
    expect(firings.every((firing) => firing.overlapped)).toBe(true);
    const rows = new Map((await w.serviceRows(CRM, TABLE)).map((row) => [String(row.id), row]));
    const missing = [...ids].filter(
      ([row, id]) => rows.get(id)?.[NOTES] !== `typed during the pull ${row - 2}`,
    );
    expect(missing.map(([row]) => row)).toEqual([]);
    expect(queueKeys(w)).toEqual([]);
  });

  it('a new line’s first cell typed while a run holds the lock is not created when the run ends', async () => {
    const last = w.sim.spreadsheet.getSheetByName(sheet)?.getLastRow() as number;
    const newRow = last + 1;
    const count = (await w.serviceRows(CRM, TABLE)).length;
    w.sim.person.at({ on: 'network', nth: 1 }, () => w.sim.person.edit(sheet, newRow, 'title', 'a new line'));
    const pulled = w.call<SyncSummary>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    expect((await w.serviceRows(CRM, TABLE)).length).toBe(count);
    expect(w.sim.spreadsheet.getSheetByName(sheet)?.getRange(newRow, column(w, 'id')).getValue()).toBe('');
    // Its second cell: still the line being typed.
    w.sim.person.edit(sheet, newRow, NOTES, 'its second cell');
    expect((await w.serviceRows(CRM, TABLE)).length).toBe(count);
    // Moving on to another line creates it, once.
    w.sim.person.edit(sheet, 2, NOTES, 'moved on');
    const rows = await w.serviceRows(CRM, TABLE);
    expect(rows.length).toBe(count + 1);
    expect(rows.filter((row) => row.title === 'a new line')).toHaveLength(1);
    expect(queueKeys(w)).toEqual([]);
  });
});
