// Review of issue 18 (seen marks written apart, chunks that grow): a pull that continues over several
// executions while the service, a push or a person changes things between them must not take a row
// for removed on the service that is not, lose a row, or put one on two lines.
// Simulator (dist/Code.js) + table-service emulator over real HTTP.

import { afterEach, expect, it } from 'vitest';
import { STATUS } from '../../src/core/status';
import type { SyncSummary } from '../../src/shared/types';
import { BIG, pullToEnd, runContinuations, startBigWorld, summaryOf } from './continuations';
import { CRM, mismatches, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function bigWorld(rows: number): Promise<World> {
  world = await startBigWorld(rows, undefined, 8);
  return world;
}

/** Lines by id, and the ids of lines whose status says removed on the service. */
function sheetState(w: World): { lines: Map<string, number>; removed: string[] } {
  const values = w.values();
  const header = values[0] as string[];
  const idCol = header.indexOf('id');
  const statusCol = header.indexOf('_sync');
  const lines = new Map<string, number>();
  const removed: string[] = [];
  for (const line of values.slice(1)) {
    const id = String(line[idCol]);
    lines.set(id, (lines.get(id) ?? 0) + 1);
    if (line[statusCol] === STATUS.removed) removed.push(id);
  }
  return { lines, removed };
}

async function serviceIds(w: World): Promise<string[]> {
  return (await w.serviceRows(CRM, BIG)).map((row) => String(row.id));
}

it('rows deleted or moved on the service between two executions of a pull: no line says removed that is not', async () => {
  const w = await bigWorld(3000);
  // A first pull, complete, so the sheet and the base hold every row.
  pullToEnd(w);
  expect(sheetState(w).removed).toEqual([]);
  // A second pull that continues; between its executions bob deletes 50 rows it has already listed
  // (the 50 rows after its offset move down into what it listed) and moves the last row to the top.
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing, 'the second pull needs another execution').toBe(true);
  const ids = await serviceIds(w);
  const deleted = ids.slice(10, 60);
  for (const id of deleted) await w.emulator.admin.deleteRow(CRM, BIG, id);
  await w.emulator.admin.moveRow(CRM, BIG, ids.at(-1) as string, ids[0] as string);
  for (const result of runContinuations(w, 10)) summaryOf(result);
  const present = await serviceIds(w);
  const after = sheetState(w);
  // This pull listed the deleted rows before they went: the next one marks them. None still there is.
  expect(after.removed.filter((id) => present.includes(id))).toEqual([]);
  for (const id of present) expect(after.lines.get(id), `row ${id}`).toBe(1);
  // Later pulls mark the deleted rows, each asked about while time allows (90 s a request wave here).
  for (let pull = 0; pull < 4 && sheetState(w).removed.length < deleted.length; pull++) {
    pullToEnd(w);
    expect(deleted).toEqual(expect.arrayContaining(sheetState(w).removed));
  }
  expect(sheetState(w).removed.sort()).toEqual([...deleted].sort());
  // A line confirmed removed is not asked about again.
  await w.emulator.admin.clearLog();
  pullToEnd(w);
  const rowReads = (await w.emulator.admin.requestLog()).filter((entry) =>
    /\/rows\/[^/?]+$/.test(entry.path),
  );
  expect(rowReads).toEqual([]);
  expect(sheetState(w).removed.sort()).toEqual([...deleted].sort());
}, 180_000);

it('a push (edits and a new line) between two executions of a pull: nothing lost, doubled or taken for removed', async () => {
  const w = await bigWorld(3000);
  pullToEnd(w);
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing, 'the second pull needs another execution').toBe(true);
  // Between its executions alice edits a line it has pulled and one it has not, adds a line, pushes.
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const header = w.values()[0] as string[];
  const textCol = header.indexOf('c01_text') + 1;
  const idCol = header.indexOf('id');
  const lastLine = w.values().length;
  w.sim.person.edit(sheet.getName(), 2, textCol, 'alice early');
  w.sim.person.edit(sheet.getName(), lastLine, textCol, 'alice late');
  w.sim.person.edit(sheet.getName(), lastLine + 1, textCol, 'alice new');
  // The push is quick (a fast moment of the service), so the pull goes on after it, as it said.
  w.sim.setCosts({ httpLatencyMs: 250 });
  const pushed = summaryOf(w.sim.callFromClient('pushActiveSheet', []));
  expect(pushed).toMatchObject({ ok: true, continuing: false, created: 1, updated: 2 });
  w.sim.setCosts({ httpLatencyMs: 90_000 });
  const rest = runContinuations(w, 10);
  expect(rest.length).toBeGreaterThan(0);
  for (const result of rest) summaryOf(result);
  expect(w.sim.triggers()).toEqual([]);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    operation: 'pull',
    continuing: false,
    removedOnService: 0,
  });
  const present = await serviceIds(w);
  expect(present.length).toBe(3001);
  const after = sheetState(w);
  expect(after.removed).toEqual([]);
  for (const id of present) expect(after.lines.get(id), `row ${id}`).toBe(1);
  const rows = await w.serviceRows(CRM, BIG);
  const texts = rows.map((row) => row.c01_text);
  expect(texts).toEqual(expect.arrayContaining(['alice early', 'alice late', 'alice new']));
  const lines = w.values().slice(1);
  for (const row of rows) {
    const line = lines.find((each) => each[idCol] === row.id) as unknown[];
    expect(line[textCol - 1], `row ${row.id}`).toBe(row.c01_text ?? '');
  }
  // A pull afterwards finds nothing to change and a push nothing to send.
  await w.emulator.admin.clearLog();
  summaryOf(w.sim.callFromClient('pushActiveSheet', []));
  for (const result of runContinuations(w, 10)) summaryOf(result);
  expect((await w.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET')).toEqual([]);
}, 180_000);

it('a sort while a continuing pull asks the service about rows it did not list: the marks land on their own lines', async () => {
  const w = await bigWorld(3000);
  pullToEnd(w);
  // Bob deletes 30 rows before the next pull: its listing does not show them, so it asks for each.
  const ids = await serviceIds(w);
  const deleted = ids.filter((_, i) => i % 100 === 7);
  for (const id of deleted) await w.emulator.admin.deleteRow(CRM, BIG, id);
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing, 'the pull needs another execution').toBe(true);
  // While those reads are out (lines read lazily in the continuation), the person sorts the sheet.
  const sheetName = w.sim.spreadsheet.getActiveSheet().getName();
  let sorted = 0;
  w.sim.person.at(
    {
      on: 'fetchAll',
      when: (point) => point.requests.some((request) => /\/rows\/[^/?]+$/.test(request.url)),
    },
    () => {
      w.sim.person.sortSheet(sheetName, 'c02_number', false);
      sorted++;
    },
  );
  for (const result of runContinuations(w, 10)) summaryOf(result);
  expect(sorted).toBe(1);
  const after = sheetState(w);
  // Each mark on the line of a deleted row (asked about while time allowed: 90 s a request wave here).
  expect(after.removed.length).toBeGreaterThan(0);
  expect(deleted).toEqual(expect.arrayContaining(after.removed));
  const present = await serviceIds(w);
  for (const id of present) expect(after.lines.get(id), `row ${id}`).toBe(1);
  // Lines of removed rows keep their last values; every other line equals its row on the service.
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 180_000);

it('a continuation that fires while a push holds the lock is tried again later: the pull finishes, no trigger is left', async () => {
  const w = await bigWorld(3000);
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing, 'the pull needs another execution').toBe(true);
  // A slow push (90 s a request) runs past the minute after which the pull's continuation fires.
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const header = w.values()[0] as string[];
  w.sim.person.edit(sheet.getName(), 2, header.indexOf('c01_text') + 1, 'alice');
  const pushed = summaryOf(w.sim.callFromClient('pushActiveSheet', []));
  // The pull is still filling every column: the edit waits for it to finish (and is said so).
  expect(pushed, pushed.message).toMatchObject({ ok: true, updated: 0 });
  expect(pushed.message).toMatch(
    /A pull is still filling "title", .* sent by the first push after it has finished/,
  );
  expect(pushed.message).not.toMatch(/missing from row 1/);
  const skipped = w.sim.overlappedRuns.flatMap((run) => run.value as SyncSummary[]);
  expect(
    skipped.some((summary) => summary.skipped),
    'the continuation fired during the push',
  ).toBe(true);
  // The pull goes on by itself, as it said, and leaves no trigger behind.
  for (const result of runContinuations(w, 10)) summaryOf(result);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    operation: 'pull',
    continuing: false,
    added: 3000,
  });
  expect(w.sim.triggers()).toEqual([]);
  // The pull kept alice's edit, and the push after it sends it.
  w.sim.setCosts({ httpLatencyMs: 250 });
  expect(summaryOf(w.sim.callFromClient('pushActiveSheet', []))).toMatchObject({ ok: true, updated: 1 });
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 180_000);

it('a push that itself continues while a pull goes on: both finish, the pull after the push', async () => {
  const w = await bigWorld(3000);
  pullToEnd(w);
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing, 'the second pull needs another execution').toBe(true);
  // Alice edits 40 lines and pushes: at 90 s a request wave, the push needs executions of its own.
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const header = w.values()[0] as string[];
  const textCol = header.indexOf('c01_text') + 1;
  for (let line = 2; line < 2 + 40; line++)
    w.sim.person.edit(sheet.getName(), line, textCol, `alice ${line}`);
  w.sim.setCosts({ httpLatencyMs: 60_000 });
  const pushed = summaryOf(w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }]));
  expect(pushed.continuing, pushed.message).toBe(true);
  for (const result of runContinuations(w, 20)) summaryOf(result);
  expect(w.sim.triggers()).toEqual([]);
  // The pull went on after the push and finished; the push's edits are on the service.
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    operation: 'pull',
    continuing: false,
    removedOnService: 0,
  });
  const rows = await w.serviceRows(CRM, BIG);
  expect(rows.filter((row) => String(row.c01_text).startsWith('alice '))).toHaveLength(40);
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 240_000);

it('conflicts resolved between two executions of a pull: each keeps its choice, nothing taken for removed', async () => {
  const w = await bigWorld(3000);
  pullToEnd(w);
  // Two fields changed on both sides, then a pull (quick) marks both lines conflicting.
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const header = w.values()[0] as string[];
  const textCol = header.indexOf('c01_text') + 1;
  const ids = await serviceIds(w);
  const [mine, theirs] = [ids[3] as string, ids[2900] as string];
  const rowOf = (id: string) => w.values().findIndex((line) => line[header.indexOf('id')] === id) + 1;
  w.sim.person.edit(sheet.getName(), rowOf(mine), textCol, 'alice mine');
  w.sim.person.edit(sheet.getName(), rowOf(theirs), textCol, 'alice theirs');
  await w.emulator.admin.editRow(CRM, BIG, mine, { c01_text: 'bob mine' }, 'u_bob');
  await w.emulator.admin.editRow(CRM, BIG, theirs, { c01_text: 'bob theirs' }, 'u_bob');
  w.sim.setCosts({ httpLatencyMs: 250 });
  expect(summaryOf(w.sim.callFromClient('pullActiveSheet', []))).toMatchObject({ conflicts: 2 });
  // A slow pull that continues; between its executions alice resolves both (quickly).
  w.sim.setCosts({ httpLatencyMs: 90_000 });
  expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
  w.sim.setCosts({ httpLatencyMs: 250 });
  w.call('resolveConflicts', { keep: 'mine', rowIds: [mine] });
  w.call('resolveConflicts', { keep: 'theirs', rowIds: [theirs] });
  w.sim.setCosts({ httpLatencyMs: 90_000 });
  await w.emulator.admin.clearLog();
  for (const result of runContinuations(w, 10)) summaryOf(result);
  // The resolves rewrote two base records and left the pull's seen marks: no row is read by id.
  const rowReads = (await w.emulator.admin.requestLog()).filter((entry) =>
    /\/rows\/[^/?]+$/.test(entry.path),
  );
  expect(rowReads.map((entry) => entry.path)).toEqual([]);
  expect(w.sim.triggers()).toEqual([]);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    operation: 'pull',
    continuing: false,
    removedOnService: 0,
    conflicts: 0,
  });
  expect(sheetState(w).removed).toEqual([]);
  const rows = await w.serviceRows(CRM, BIG);
  expect(rows.find((row) => row.id === mine)?.c01_text).toBe('alice mine');
  expect(rows.find((row) => row.id === theirs)?.c01_text).toBe('bob theirs');
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 240_000);

it('unlinking while a skipped continuation waits for its retry leaves no trigger behind', async () => {
  const w = await bigWorld(3000);
  expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
  // A slow push holds the lock when the continuation fires: it is skipped and a retry is made.
  summaryOf(w.sim.callFromClient('pushActiveSheet', []));
  const skipped = w.sim.overlappedRuns.flatMap((run) => run.value as SyncSummary[]);
  expect(skipped.some((summary) => summary.skipped)).toBe(true);
  expect(w.sim.triggers().filter((t) => !t.fired)).toHaveLength(1);
  expect(w.call('unlinkActiveSheet')).toEqual({ unlinked: true });
  // The retry may linger until it fires; then it finds no link, deletes itself and does nothing.
  for (const result of runContinuations(w, 5)) expect(result.ok, result.error?.message).toBe(true);
  expect(w.sim.triggers()).toEqual([]);
  expect(Object.keys(w.sim.properties('document')).filter((key) => key.startsWith('tas.'))).toEqual([]);
}, 120_000);
