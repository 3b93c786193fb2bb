// A re-pull of scattered changes writes back the changed lines' rows, not the rows between them: a
// row nobody changed is never rewritten (sync-rules.md: the person's cells are theirs), and the cells
// written are the changed lines' only. Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellsWritten, rowsWritten, setValuesDuring } from './sheet-writes';
import {
  activeSheet,
  CRM,
  cell,
  headers,
  lineOf,
  mismatches,
  pullSheet,
  startWorld,
  type World,
} from './world';

const SCATTERED = 'tbl_scattered';
/** Lines of the seeded table: one read-back span (SPAN_GAP) holds them all. */
const LINES = 1000;
/** The service changes one line in every 200 (sheet rows 2, 202, ...). */
const EVERY = 200;

let w: World;

beforeAll(async () => {
  w = await startWorld();
  await w.emulator.admin.seedTable({ appId: CRM, tableId: SCATTERED, rows: LINES, columns: 4 });
  w.connect();
  w.linkAndPull(CRM, SCATTERED);
}, 60_000);
afterAll(async () => w?.close());

describe('a re-pull of lines the service changed far apart', () => {
  it("writes those lines' rows only, and keeps what a person types between them while it waits", async () => {
    const sheet = activeSheet(w);
    const idIndex = headers(w).indexOf('id');
    const changedRows: number[] = [];
    for (let row = 2; row <= LINES + 1; row += EVERY) {
      const id = String(w.values()[row - 1]?.[idIndex]);
      await w.emulator.admin.editRow(CRM, SCATTERED, id, { title: `theirs ${id}` }, 'u_bob');
      changedRows.push(row);
    }
    // A line halfway between two changed ones, typed into as the pull waits for the service: the run
    // marks it as holding local edits.
    const betweenRow = 102;
    const betweenId = String(w.values()[betweenRow - 1]?.[idIndex]);
    let typed = 0;
    w.sim.person.at({ on: 'network', when: () => typed === 0 }, () => {
      w.sim.person.edit(sheet.getName(), betweenRow, 'title', 'typed while it waits');
      typed++;
    });

    const writes = setValuesDuring(sheet.getName(), () => expect(pullSheet(w)).toMatchObject({ ok: true }));

    expect(typed).toBe(1);
    // Every row written holds a line of the run: one write span each, none over the rows between.
    const linesOfRun = [...changedRows, betweenRow].sort((a, b) => a - b);
    expect(rowsWritten(writes)).toEqual(linesOfRun);
    // The same columns on each: the cells written are those lines' only.
    const columnsWritten = writes
      .filter(({ row }) => row === changedRows[0])
      .reduce((sum, write) => sum + write.columns, 0);
    expect(cellsWritten(writes)).toBe(linesOfRun.length * columnsWritten);
    for (const row of changedRows) {
      const id = String(w.values()[row - 1]?.[idIndex]);
      expect(lineOf(w, id)).toBe(row);
      expect(cell(w, row, 'title')).toBe(`theirs ${id}`);
    }
    expect(cell(w, lineOf(w, betweenId), 'title')).toBe('typed while it waits');
    expect(String(cell(w, lineOf(w, betweenId), '_sync'))).toMatch(/local edits not pushed yet: title/);
    // The service holds every line but the one the person typed into (theirs, for a push to send).
    expect(await mismatches(w, undefined, CRM, SCATTERED)).toEqual([
      expect.stringMatching(new RegExp(`^row ${betweenId} title: sheet "typed while it waits"`)),
    ]);
  });
});
