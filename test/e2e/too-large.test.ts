// A table that cannot fit in a spreadsheet (10,000,000 cells) is refused before anything is written,
// with the arithmetic and what to do. Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSeededTable } from '../../bench/seed';
import { sampleState } from '../../emulators/table-service/sample-data';
import { largestTableRows, SMALLEST_FOOTPRINT } from '../../src/core/capacity';
import { DEFAULT_MAX_PARALLEL_PAGES } from '../../src/api/client';
import { CRM, startWorld, type World } from './world';

const HUGE = 'tbl_huge';
// One column (the title): the smallest footprint a table can have, so the fewest rows that cannot fit.
const ROWS = largestTableRows(SMALLEST_FOOTPRINT) + 50;

let world: World;
beforeAll(async () => {
  const state = sampleState();
  const app = state.apps.find((each) => each.id === CRM);
  if (!app) throw new Error(`sample data has no app ${CRM}`);
  app.tables.push(bulkSeededTable(state, HUGE, ROWS, 1, 7, false));
  world = await startWorld({
    emulator: { data: state, startTimeoutMs: 120_000, logLimit: 1000 },
    simulator: { countRealTime: false },
  });
  world.connect();
  world.call('linkActiveSheet', { tableAppId: CRM, tableId: HUGE });
}, 180_000);
afterAll(async () => {
  await world?.close();
});

describe('a table too large for one spreadsheet', () => {
  it('is refused in the first page wave, with the arithmetic, and nothing is written', async () => {
    const sheetName = world.sim.spreadsheet.getActiveSheet().getName();
    const before = JSON.stringify(world.sim.snapshotSheet(sheetName));
    const sheetsBefore = world.sim.spreadsheet.getSheets().map((sheet) => sheet.getName());
    await world.emulator.admin.clearLog();
    const summary = world.call<{ ok: boolean; message: string }>('pullActiveSheet');
    const log = await world.emulator.admin.requestLog();

    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/too large for one spreadsheet/);
    expect(summary.message).toContain(`at least ${ROWS.toLocaleString('en-US')} rows`);
    expect(summary.message).toMatch(/= [\d,]+ cells, more than the 10,000,000 a spreadsheet holds/);
    expect(summary.message).toContain(
      `at most ${largestTableRows(SMALLEST_FOOTPRINT).toLocaleString('en-US')} rows`,
    );
    expect(summary.message).toMatch(/Nothing was written\. Pull it into a spreadsheet of its own/);
    // The sheet, its sheets list (no base sheet made) and its cells are as they were.
    expect(JSON.stringify(world.sim.snapshotSheet(sheetName))).toBe(before);
    expect(world.sim.spreadsheet.getSheets().map((sheet) => sheet.getName())).toEqual(
      expect.arrayContaining(sheetsBefore),
    );
    expect(world.sim.spreadsheet.getSheets().some((sheet) => sheet.isSheetHidden())).toBe(false);
    // One wave (a full one of DEFAULT_MAX_PARALLEL_PAGES): the schema, the first pages and the
    // probe; no row was fetched past it.
    expect(log.length).toBeLessThanOrEqual(DEFAULT_MAX_PARALLEL_PAGES);
  });
});
