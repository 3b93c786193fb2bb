// Long runs (issue 7): pulls and pushes that need more than one execution continue through their own
// one-shot triggers, stay under the 6-minute limit, never duplicate, and read as one operation; a
// killed execution is recovered; the daily UrlFetch quota stops a run with a word on when it goes on.
// Simulator (dist/Code.js, modelled costs) + table-service emulator over real HTTP.

import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, SimulatorOptions } from '../../emulators/apps-script';
import type { SyncSummary } from '../../src/shared/types';
import { BIG, expectWithinLimit, runContinuations, startBigWorld, summaryOf } from './continuations';
import { CRM, logLines, type World } from './world';

const MINUTE = 60_000;

type Summary = SyncSummary;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function bigWorld(rows: number, simulator: SimulatorOptions, columns = 12): Promise<World> {
  world = await startBigWorld(rows, simulator, columns);
  return world;
}

const LOG = { run: 3, mode: 4, added: 5, updated: 6, outcome: 12, message: 13 };

interface ServiceTable {
  columns: Array<{ id: string; type: string; deleted?: boolean }>;
  rows: Array<Record<string, unknown>>;
}

async function serviceTable(w: World, tableId = BIG): Promise<ServiceTable> {
  const state = await w.emulator.admin.state();
  const table = state.apps.find((app) => app.id === CRM)?.tables.find((each) => each.id === tableId);
  if (!table) throw new Error(`no table ${tableId}`);
  return table as unknown as ServiceTable;
}

function cellEquals(cell: unknown, value: unknown, type: string): boolean {
  if (value === null || value === undefined) return cell === '';
  if (type === 'multiSelect' || type === 'json') {
    if (typeof cell !== 'string') return false;
    // A multi-select's choices may show separated by commas.
    if (type === 'multiSelect' && !/^\s*[[{"]/.test(cell)) {
      const choices = cell
        .split(',')
        .map((choice) => choice.trim())
        .filter((choice) => choice !== '');
      return isDeepStrictEqual(choices, value);
    }
    try {
      return isDeepStrictEqual(JSON.parse(cell), value);
    } catch {
      return false;
    }
  }
  return cell === value;
}

/**
 * Mismatches between the linked sheet and the service: every service row must be exactly one line
 * whose table cells equal the service's values (lines in `localEdits` may differ in those columns).
 */
async function mismatches(w: World, localEdits = new Map<string, Set<string>>()): Promise<string[]> {
  const table = await serviceTable(w);
  const values = w.values();
  const header = values[0] as string[];
  const idCol = header.indexOf('id');
  const lineOf = new Map<string, unknown[]>();
  const problems: string[] = [];
  for (const line of values.slice(1)) {
    const id = String(line[idCol]);
    if (lineOf.has(id)) problems.push(`row ${id} is on two lines`);
    lineOf.set(id, line);
  }
  if (values.length - 1 !== table.rows.length)
    problems.push(`${values.length - 1} lines for ${table.rows.length} rows`);
  const live = table.columns.filter((column) => !column.deleted);
  for (const column of live) if (!header.includes(column.id)) problems.push(`no column ${column.id}`);
  for (const row of table.rows) {
    const line = lineOf.get(String(row.id));
    if (!line) {
      problems.push(`row ${row.id} missing`);
      continue;
    }
    if (line[header.indexOf('lMod')] !== row.lMod && !localEdits.has(String(row.id)))
      problems.push(`row ${row.id} lMod`);
    for (const column of live) {
      if (localEdits.get(String(row.id))?.has(column.id)) continue;
      const cell = line[header.indexOf(column.id)];
      if (!cellEquals(cell, row[column.id], column.type)) {
        problems.push(
          `row ${row.id} ${column.id}: sheet ${JSON.stringify(cell)} service ${JSON.stringify(row[column.id])}`,
        );
      }
    }
    if (problems.length > 20) break;
  }
  return problems;
}

describe('a pull that needs several executions', () => {
  it('continues through its one-shot trigger, completes, cleans up, and reads as one operation', async () => {
    // A slow service (90 s a request) makes one execution unable to read 3,000 rows.
    const w = await bigWorld(3000, { costs: { httpLatencyMs: 90_000, sheetCellMs: 0.01 } });
    const first = w.sim.callFromClient('pullActiveSheet', []);
    const summary = summaryOf(first);
    expect(summary.ok).toBe(true);
    expect(summary.continuing).toBe(true);
    expect(summary.message).toMatch(/continues/);
    const pendingTriggers = w.sim.triggers();
    expect(pendingTriggers).toHaveLength(1);
    expect(pendingTriggers[0]?.everyMs).toBeUndefined();
    const between = w.call<{ lastSummary: Summary; progress: Record<string, unknown> | null }>('getState');
    expect(between.lastSummary.continuing).toBe(true);
    // Between executions the sidebar shows how far the run got and that it goes on by itself.
    expect(between.progress).toMatchObject({
      continuing: true,
      execution: 1,
      phase: 'waiting for the next execution',
    });
    expect(between.progress?.rowsFetched).toBeGreaterThan(0);
    expect(between.progress?.rowsFetched).toBeLessThan(3000);

    const rest = runContinuations(w, 10);
    const executions = [first, ...rest];
    expectWithinLimit(executions);
    expect(rest.length).toBeGreaterThanOrEqual(1);
    expect(w.sim.triggers(), 'continuation triggers cleaned up').toEqual([]);
    expect(await mismatches(w)).toEqual([]);

    const final = w.call<{ lastSummary: Summary; progress: unknown }>('getState');
    // Rows added in an earlier execution were seen by this pull: none is taken for removed on the service.
    expect(final.lastSummary).toMatchObject({
      ok: true,
      continuing: false,
      operation: 'pull',
      added: 3000,
      removedOnService: 0,
    });
    expect(final.progress).toBeNull();
    const lines = logLines(w);
    expect(lines.map((line) => line[LOG.outcome])).toEqual(
      [...executions.slice(1).map(() => 'continuing'), 'ok'].slice(-executions.length),
    );
    expect(lines.at(-1)?.[LOG.added]).toBe(3000);
    // A pull followed by a push with no edits sends nothing.
    await w.emulator.admin.clearLog();
    const push = summaryOf(w.sim.callFromClient('pushActiveSheet', []));
    expect(push).toMatchObject({ ok: true, updated: 0, created: 0 });
    expect((await w.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET')).toEqual([]);
  }, 90_000);

  it('a re-pull of a 20,000-line sheet with 1% changed on the service fits one execution', async () => {
    const ROWS = 20_000;
    const w = await bigWorld(ROWS, { costs: { httpLatencyMs: 250, sheetCellMs: 0.01 } });
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', []))).toMatchObject({ continuing: false });
    const header = w.values()[0] as string[];
    const ids = w
      .values()
      .slice(1)
      .map((line) => String(line[header.indexOf('id')]));
    for (let i = 0; i < ids.length; i += 100) {
      await w.emulator.admin.editRow(CRM, BIG, ids[i] as string, { title: `changed ${i}` }, 'u_bob');
    }
    const again = w.sim.callFromClient('pullActiveSheet', []);
    expectWithinLimit([again]);
    // The merge of a whole sheet read at once must not guess its write cost so high that it stops.
    expect(summaryOf(again)).toMatchObject({ continuing: false, updated: ROWS / 100 });
    expect(w.sim.triggers()).toEqual([]);
    expect(await mismatches(w)).toEqual([]);
  }, 120_000);

  it('a 20,000-row x 12-column table at 250 ms per request and 1 ms per cell completes in a few executions', async () => {
    const w = await bigWorld(20_000, { costs: { httpLatencyMs: 250, sheetCellMs: 1 } });
    const first = w.sim.callFromClient('pullActiveSheet', []);
    expect(summaryOf(first).continuing, 'one execution cannot finish').toBe(true);
    const executions = [first, ...runContinuations(w, 7)];
    expectWithinLimit(executions);
    expect(w.sim.triggers(), 'finished within 8 executions').toEqual([]);
    expect(await mismatches(w)).toEqual([]);
    expect(w.call<{ lastSummary: Summary }>('getState').lastSummary).toMatchObject({
      ok: true,
      continuing: false,
      added: 20_000,
      removedOnService: 0,
    });
  }, 120_000);

  it('unlinking while a continuation is pending leaves no trigger behind', async () => {
    const w = await bigWorld(3000, { costs: { httpLatencyMs: 90_000 } });
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
    expect(w.call('unlinkActiveSheet')).toEqual({ unlinked: true });
    const left = w.sim.triggers();
    // The trigger may linger until it fires, but must then delete itself and do nothing.
    const fired = w.sim.advanceAndFire(2 * MINUTE);
    expect(fired.length).toBeLessThanOrEqual(left.length);
    for (const result of fired) expect(result.ok).toBe(true);
    expect(w.sim.triggers()).toEqual([]);
    expect(w.call('getState')).toMatchObject({ link: null });
  }, 60_000);

  it('at the trigger cap a long pull still continues (or says it cannot)', async () => {
    const w = await bigWorld(3000, { costs: { httpLatencyMs: 0 } });
    w.call('setSchedule', { mode: 'pull', every: 'd3' });
    for (let i = 0; i < 18; i++) {
      w.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_contacts', newSheet: true });
      w.call('setSchedule', { mode: 'pull', every: 'd3' });
    }
    expect(w.sim.triggers()).toHaveLength(19);
    const bigSheet = w.sim.spreadsheet.getSheets()[0];
    w.sim.spreadsheet.setActiveSheet(bigSheet as never);
    // The service slows down only now (linking 18 sheets at 90 s a request would not fit a run):
    // the pull cannot finish in one execution and needs a trigger, with 19 of 20 in use.
    w.sim._costs.httpLatencyMs = 90_000;
    const summary = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    if (summary.continuing) {
      expect(
        w.sim.triggers().filter((t) => t.everyMs === undefined),
        'a continuation trigger exists',
      ).toHaveLength(1);
    } else {
      expect(summary.message).toMatch(/trigger/i);
    }
  }, 60_000);
});

describe('a push of many edited lines', () => {
  it('sends exactly one PATCH per edited line across executions, none over the limit', async () => {
    const ROWS = 5000;
    // 500 waves of PATCHes at 500 ms, plus reading the sheet at 1 ms a cell: well over one budget.
    const w = await bigWorld(ROWS, { costs: { httpLatencyMs: 500, sheetCellMs: 1 } });
    const pulled = w.sim.callFromClient('pullActiveSheet', []);
    expect(summaryOf(pulled)).toMatchObject({ ok: true, continuing: false, added: ROWS });
    // The person pastes a whole column of new amounts (one paste, no script runs).
    const sheet = w.sim.spreadsheet.getActiveSheet();
    const header = w.values()[0] as string[];
    const amountCol = header.indexOf('c02_number') + 1;
    const newAmounts = Array.from({ length: ROWS }, (_, i) => [100_000 + i + 0.25]);
    sheet.getRange(2, amountCol, ROWS, 1).setValues(newAmounts);
    await w.emulator.admin.clearLog();

    // A whole column changed at once is held as a likely accident: the person confirms (Push anyway),
    // and the continuations keep that answer.
    const first = w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }]);
    const firstSummary = summaryOf(first);
    expect(firstSummary.ok).toBe(true);
    expect(firstSummary.continuing, 'one execution cannot send 5,000 PATCHes here').toBe(true);
    const executions = [first, ...runContinuations(w, 10)];
    expectWithinLimit(executions);
    expect(w.sim.triggers()).toEqual([]);

    const log = await w.emulator.admin.requestLog();
    expect(log.filter((entry) => entry.method === 'POST')).toEqual([]);
    const patches = log.filter((entry) => entry.method === 'PATCH');
    const perRow = new Map<string, number>();
    for (const entry of patches) {
      const id = entry.path.split('/').at(-1) as string;
      perRow.set(id, (perRow.get(id) ?? 0) + 1);
      expect(Object.keys(JSON.parse(entry.body))).toEqual(['c02_number']);
    }
    expect(patches.length).toBe(ROWS);
    expect(perRow.size).toBe(ROWS);
    expect([...perRow.values()].every((n) => n === 1)).toBe(true);
    expect(await mismatches(w)).toEqual([]);
    const service = await serviceTable(w);
    const byId = new Map(service.rows.map((row) => [String(row.id), row]));
    const idCol = header.indexOf('id');
    w.values()
      .slice(1)
      .forEach((line, i) => {
        expect(byId.get(String(line[idCol]))?.c02_number).toBe(100_000 + i + 0.25);
      });
    const lines = logLines(w).slice(1);
    expect(lines.at(-1)?.[LOG.outcome]).toBe('ok');
    expect(lines.slice(0, -1).every((line) => line[LOG.outcome] === 'continuing')).toBe(true);
  }, 120_000);

  it('a push confirmed by its key sends in a continuation no held edit the person did not see', async () => {
    const ROWS = 5000;
    const w = await bigWorld(ROWS, { costs: { httpLatencyMs: 500, sheetCellMs: 1 } });
    summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    const sheet = w.sim.spreadsheet.getActiveSheet();
    const header = w.values()[0] as string[];
    const amountCol = header.indexOf('c02_number') + 1;
    const textCol = header.indexOf('c07_text') + 1;
    sheet.getRange(2, amountCol, ROWS, 1).setValues(Array.from({ length: ROWS }, (_, i) => [i + 0.5]));
    const held = summaryOf(w.sim.callFromClient('pushActiveSheet', [])).held;
    expect(held?.key).toBeTruthy();
    await w.emulator.admin.clearLog();
    const first = summaryOf(w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: held?.key }]));
    expect(first.continuing, 'one execution cannot send 5,000 PATCHes here').toBe(true);
    // Between the executions somebody sorts one text column alone: an accident nobody confirmed.
    const letter = String.fromCharCode(64 + textCol);
    w.sim.person.sortRange(sheet.getName(), `${letter}2:${letter}${ROWS + 1}`, 'c07_text');
    runContinuations(w, 10);
    const patches = (await w.emulator.admin.requestLog()).filter((entry) => entry.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.filter((entry) => Object.keys(JSON.parse(entry.body)).includes('c07_text'))).toEqual([]);
    expect(w.call<{ lastSummary: Summary }>('getState').lastSummary.held).toBeDefined();
  }, 120_000);

  it('the final summary of a continued push counts every line it updated', async () => {
    const ROWS = 5000;
    // 500 waves of PATCHes at 500 ms, plus reading the sheet at 1 ms a cell: well over one budget.
    const w = await bigWorld(ROWS, { costs: { httpLatencyMs: 500, sheetCellMs: 1 } });
    summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    const sheet = w.sim.spreadsheet.getActiveSheet();
    const amountCol = (w.values()[0] as string[]).indexOf('c02_number') + 1;
    sheet.getRange(2, amountCol, ROWS, 1).setValues(Array.from({ length: ROWS }, (_, i) => [i + 0.5]));
    expect(summaryOf(w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }])).continuing).toBe(true);
    runContinuations(w, 10);
    expect(w.call<{ lastSummary: Summary }>('getState').lastSummary).toMatchObject({
      continuing: false,
      updated: ROWS,
    });
  }, 120_000);
});

describe('an execution killed by the time limit', () => {
  it('mid-pull is recovered by the next pull: nothing lost, nothing doubled, local edits kept', async () => {
    const w = await bigWorld(1200, { costs: { httpLatencyMs: 250, sheetCellMs: 0.05 } });
    summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    const admin = w.emulator.admin;
    const header = w.values()[0] as string[];
    const idCol = header.indexOf('id');
    const ids = w
      .values()
      .slice(1)
      .map((line) => String(line[idCol]));
    const sheetName = w.sim.spreadsheet.getActiveSheet().getName();
    const localEdits = new Map<string, Set<string>>();
    let round = 0;
    for (const killAfter of [3, 8, 15, 25, 40, 70]) {
      round++;
      // Service changes and a local edit before the killed pull.
      await admin.editRow(CRM, BIG, ids[round] as string, { c01_text: `bob round ${round}` }, 'u_bob');
      for (let i = 0; i < 150; i++) await admin.createRow(CRM, BIG, { title: `new ${round}.${i}` }, 'u_bob');
      const editId = ids[100 + round] as string;
      const line = w.values().findIndex((each) => each[idCol] === editId) + 1;
      w.sim.personEdit(sheetName, line, header.indexOf('c07_text') + 1, `local edit ${round}`);
      localEdits.set(editId, new Set(['c07_text']));

      const killed = w.sim.run('pullActiveSheet', [], { kill: { afterServiceCalls: killAfter } });
      expect(killed.killed, `round ${round} killed`).toBe(true);
      const next = w.sim.callFromClient('pullActiveSheet', []);
      const executions = [next, ...runContinuations(w, 5)];
      expectWithinLimit(executions);
      expect(w.sim.triggers()).toEqual([]);
      expect(await mismatches(w, localEdits), `round ${round}`).toEqual([]);
      for (const [id] of localEdits) {
        const at = w.values().find((each) => each[idCol] === id) as unknown[];
        expect(String(at[header.indexOf('c07_text')])).toMatch(/^local edit/);
        expect(String(at[header.indexOf('_sync')])).toMatch(/local edits not pushed/);
      }
    }
    // The local edits go out once each.
    await admin.clearLog();
    const push = summaryOf(w.sim.callFromClient('pushActiveSheet', []));
    expect(push).toMatchObject({ ok: true, updated: localEdits.size, created: 0 });
    const writes = (await admin.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes.map((entry) => entry.method)).toEqual(Array(localEdits.size).fill('PATCH'));
    expect(await mismatches(w)).toEqual([]);
  }, 120_000);
});

describe('the daily UrlFetch quota', () => {
  /**
   * A first pull (3,000 rows: 39 requests with the first wave's speculation and the size probes) fits
   * in the quota of 55 a day; bob edits; the second pull of the day would exceed it.
   */
  async function overQuota(): Promise<{ w: World; edited: string; summary: Summary }> {
    const w = await bigWorld(3000, { urlFetchDailyQuota: 55 });
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', []))).toMatchObject({ ok: true, added: 3000 });
    const idCol = (w.values()[0] as string[]).indexOf('id');
    const edited = String(w.values()[1]?.[idCol]);
    await w.emulator.admin.editRow(CRM, BIG, edited, { c01_text: 'bob after the first pull' }, 'u_bob');
    const result = w.sim.callFromClient('pullActiveSheet', []);
    expect(result.killed).toBe(false);
    return { w, edited, summary: summaryOf(result) };
  }

  it('stops a run that would exceed it, says when it can go on, loses nothing, and pulls after the reset', async () => {
    const { w, edited, summary } = await overQuota();
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/daily limit/i);
    expect(summary.message).toMatch(/24 hours/);
    expect(w.sim.stats.urlFetchToday).toBeLessThanOrEqual(55);
    expect(logLines(w).at(-1)?.[LOG.outcome]).toBe('failed');
    // Nothing lost or doubled: the sheet still holds every row once, as last pulled.
    const header = w.values()[0] as string[];
    const ids = w
      .values()
      .slice(1)
      .map((line) => line[header.indexOf('id')]);
    expect(ids.length).toBe(3000);
    expect(new Set(ids).size).toBe(3000);

    w.sim.clock.advance(24 * 60 * MINUTE + 1);
    const executions = [w.sim.callFromClient('pullActiveSheet', [])];
    executions.push(...runContinuations(w, 5));
    expectWithinLimit(executions);
    expect(summaryOf(executions[0] as ExecutionResult).ok).toBe(true);
    expect(w.sim.triggers()).toEqual([]);
    expect(await mismatches(w)).toEqual([]);
    const line = w.values().find((each) => each[header.indexOf('id')] === edited);
    expect(line?.[header.indexOf('c01_text')]).toBe('bob after the first pull');
  }, 60_000);

  it('a manual run that hit the quota says to run it again, and then resumes where it stopped', async () => {
    const { w, summary } = await overQuota();
    expect(summary.message).toMatch(/run it again then/);
    expect(w.sim.triggers(), 'no trigger that would only fail again').toEqual([]);
    w.sim.clock.advance(24 * 60 * MINUTE + 2 * MINUTE);
    await w.emulator.admin.clearLog();
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', []))).toMatchObject({
      ok: true,
      continuing: false,
    });
    const pages = (await w.emulator.admin.requestLog()).filter((entry) => entry.path.endsWith('/rows'));
    expect(pages.length, 'resumed after the pages already written').toBeLessThan(30);
    expect(await mismatches(w)).toEqual([]);
  }, 60_000);

  it('a scheduled run that hits the quota fails, is logged, mailed once, and the schedule recovers after the reset', async () => {
    const w = await bigWorld(3000, { urlFetchDailyQuota: 45 });
    w.call('setSchedule', { mode: 'pull', every: 'h4' });
    // 3,000 rows take ~39 requests: the first run fits, the second of the same day does not.
    const day = w.sim.advanceAndFire(8 * 60 * MINUTE);
    expect(day).toHaveLength(2);
    const [ok, over] = day.flatMap((result) => result.value as Summary[]);
    expect(ok?.ok, ok?.message).toBe(true);
    expect(over?.ok).toBe(false);
    expect(over?.message).toMatch(/daily limit/i);
    expect(day[1]?.killed).toBe(false);
    expect(logLines(w).at(-1)?.[LOG.outcome]).toBe('failed');
    expect(logLines(w).at(-1)?.[LOG.message]).toMatch(/24 hours/);
    // Runs at 12, 16 and 20 h fail too; the quota resets 24 h after the first request.
    const later = w.sim.advanceAndFire(16 * 60 * MINUTE + MINUTE);
    const outcomes = later.flatMap((result) => (result.value as Summary[]).map((each) => each.ok));
    expect(outcomes).toEqual([false, false, false, true]);
    expect(w.sim.mail.filter((mail) => /failed/.test(mail.subject))).toHaveLength(1);
    expect(w.sim.mail.filter((mail) => /recovered/.test(mail.subject))).toHaveLength(1);
    w.call('clearSchedule');
    expect(await mismatches(w)).toEqual([]);
  }, 60_000);
});
