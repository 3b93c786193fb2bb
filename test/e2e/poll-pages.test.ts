// The poll's pages when rows change between them (issue 33, case 6): a row edited or deleted on the
// service after the poll's first page moves the rows after it back by one; paged by offset, the poll
// skipped one of them, and its cursor moved past it, so the sheet stayed stale until the day's whole
// listing. The emulator changes the rows between the pages (admin /poll/between-pages).
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, mismatches, startWorld, type World } from './world';

const TABLE = 'tbl_polled';
const ROWS = 400;
/** Rows changed on the service since the last pull: two pages of the poll and then some. */
const CHANGED = 150;
const HOUR = 60 * 60_000;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/**
 * A pulled table of ROWS rows changed over time (a minute apart, the newest at 09:00), whose oldest
 * CHANGED rows were then changed on the service at 10:00 (the service's stamps follow its clock,
 * stopped there: those changes share one lMod, more than a page of them), the clock moved on to 11:00.
 * The next poll brings the 11 rows of its overlap, then the CHANGED rows (`changed`, in the poll's
 * order: lMod, then id); a row it misses is an hour older than its next overlap.
 */
async function changedWorld(): Promise<{ w: World; changed: string[] }> {
  const w = await startWorld({ emulator: { poll: 'on', stampsFollowClock: true } });
  world = w;
  const admin = w.emulator.admin;
  const nine = '2026-03-02T09:00:00.000Z';
  await admin.setClock({ nowMs: Date.parse(nine) });
  await admin.seedTable({
    appId: CRM,
    tableId: TABLE,
    rows: ROWS,
    columns: 4,
    hostile: false,
    modifiedAt: nine,
  });
  w.connect();
  w.linkAndPull(CRM, TABLE);
  const ids = (await w.serviceRows(CRM, TABLE)).map((row) => String(row.id));
  await admin.setClock({ advanceMs: HOUR });
  const changed = ids.slice(0, CHANGED);
  for (const id of changed) await admin.editRow(CRM, TABLE, id, { title: `changed ${id}` }, 'u_bob');
  await admin.setClock({ advanceMs: HOUR });
  return { w, changed: changed.sort() };
}

/** The poll's requests of the last run: their `since` and `offset`. */
async function pollRequests(w: World): Promise<Array<{ since: string; offset: string }>> {
  return (await w.emulator.admin.requestLog())
    .filter((entry) => entry.path.endsWith('/rows/updates'))
    .map((entry) => ({ since: String(entry.query.since), offset: String(entry.query.offset) }));
}

describe('a pull by poll whose rows change between its pages', () => {
  it('an edited row of the first page: no row after it is skipped, and the edit arrives too', async () => {
    const { w, changed } = await changedWorld();
    // Between the poll's first page and the rest, Bob edits a row the first page brought.
    const moved = changed[0] as string;
    await w.emulator.admin.changeBetweenPollPages(1, [
      {
        appId: CRM,
        tableId: TABLE,
        rowId: moved,
        values: { title: 'edited between pages' },
        asUserId: 'u_bob',
      },
    ]);
    await w.emulator.admin.clearLog();
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    // Read by poll, not by a whole listing: its second page did not start on the first page's last
    // row, so it went on from that row's lMod (10:00, the changed rows') rather than skip one.
    expect(await pollRequests(w)).toContainEqual({ since: '2026-03-02T10:00:00.000Z', offset: '0' });
    expect(await mismatches(w, undefined, CRM, TABLE)).toEqual([]);
    // The next pull polls from the newest lMod seen: nothing is owed.
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    expect(await mismatches(w, undefined, CRM, TABLE)).toEqual([]);
  });

  it('a row of the first page deleted on the service: no row after it is skipped', async () => {
    const { w, changed } = await changedWorld();
    const gone = changed[5] as string;
    await w.emulator.admin.changeBetweenPollPages(1, [
      { appId: CRM, tableId: TABLE, rowId: gone, delete: true },
    ]);
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    // The deleted row's line stays until a whole listing marks it; every other line matches its row.
    const problems = await mismatches(w, undefined, CRM, TABLE);
    expect(problems.filter((problem) => !problem.includes(gone))).toEqual([]);
  });
});
