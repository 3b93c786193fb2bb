// What a pull by poll could not write is owed, not forgotten (issue 33, cases 7 and 12): a service
// change to a column whose header a person had renamed, and a fixed field turned on while a whole
// listing went on. The poll's cursor moved past them, so they waited for the day's whole listing while
// the sidebar said "Up to date". Simulator (dist/Code.js) + table-service emulator over real HTTP; the
// service's stamps follow its clock, moved on an hour between steps (past the poll's overlap).
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveCheckResult, SyncSummary } from '../../src/shared/types';
import { CRM, cellOf, DEALS, mismatches, startWorld, type World } from './world';

const HOUR = 60 * 60_000;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A linked, pulled Deals table whose service stamps follow the emulator's clock (stopped, moved by hand). */
async function pulledWorld(): Promise<World> {
  const w = await startWorld({ emulator: { poll: 'on', stampsFollowClock: true } });
  world = w;
  await w.emulator.admin.setClock({ nowMs: Date.parse('2026-03-02T09:00:00.000Z') });
  w.connect();
  w.linkAndPull();
  return w;
}

function pull(w: World): SyncSummary {
  const summary = w.call<SyncSummary>('pullActiveSheet');
  expect(summary.ok, summary.message).toBe(true);
  return summary;
}

describe('a service change to a column whose header was renamed', () => {
  it('arrives by the first pull after the header is back, and no check says "Up to date" before', async () => {
    const w = await pulledWorld();
    const sheet = w.sim.spreadsheet.getActiveSheet().getName();
    const [rowId, otherId] = (await w.serviceRows()).map((row) => String(row.id));
    w.sim.person.renameHeader(sheet, 'status', 'my status');
    await w.emulator.admin.setClock({ advanceMs: HOUR });
    await w.emulator.admin.editRow(CRM, DEALS, rowId as string, { status: 'Changed by Bob' }, 'u_bob');
    // A pull while the header is renamed writes nothing into that column, and says which header to restore.
    const renamed = pull(w);
    expect(renamed.warnings?.join(' ')).toMatch(/status/);
    expect(cellOf(w, rowId as string, 'my status')).not.toBe('Changed by Bob');
    // An hour later another row changes and is pulled: the poll's cursor moves past the first change.
    await w.emulator.admin.setClock({ advanceMs: HOUR });
    await w.emulator.admin.editRow(CRM, DEALS, otherId as string, { title: 'Retitled by Bob' }, 'u_bob');
    pull(w);
    // While the header is still renamed, the sidebar's check says what waits, not "Up to date".
    const waiting = w.sim.callFromClient('checkForChanges').value as LiveCheckResult;
    expect(waiting.message).toMatch(/status/);
    expect(cellOf(w, rowId as string, 'my status')).not.toBe('Changed by Bob');
    await w.emulator.admin.setClock({ advanceMs: HOUR });
    w.sim.person.renameHeader(sheet, 'my status', 'status');
    // The next look brings the change in: a pull that lists the whole table (the poll no longer names the row).
    await w.emulator.admin.clearLog();
    const check = w.sim.callFromClient('checkForChanges').value as LiveCheckResult;
    expect(check).toMatchObject({ state: 'pulled', message: '1 row updated' });
    expect((await w.emulator.admin.requestLog()).some((entry) => /\/rows$/.test(entry.path))).toBe(true);
    expect(cellOf(w, rowId as string, 'status')).toBe('Changed by Bob');
    expect(await mismatches(w)).toEqual([]);
    // Nothing is owed any more: the next pull reads only what changed.
    await w.emulator.admin.clearLog();
    pull(w);
    expect((await w.emulator.admin.requestLog()).some((entry) => /\/rows$/.test(entry.path))).toBe(false);
  });
});

describe('a fixed field turned on while a whole listing goes on', () => {
  it('shows on every line after the next pull', async () => {
    const w = await pulledWorld();
    // "Pull everything" lists the whole table; while its page wave waits, a person turns on "Created on".
    w.sim.person.at({ on: 'fetchAll' }, () => {
      w.call('setLinkOptions', { fixedFields: ['cOn'] });
    });
    expect(w.call<SyncSummary>('pullEverything').ok).toBe(true);
    await w.emulator.admin.setClock({ advanceMs: HOUR });
    pull(w);
    for (const row of await w.serviceRows()) expect(cellOf(w, String(row.id), 'cOn')).toBe(row.cOn);
  });
});
