// A push of 1,000 edits to a service with the platform's limits (60 requests a minute, 1,800 an hour,
// 429 without Retry-After; the emulator's platform mode): it finishes across executions, saying that
// the service limits requests and about how long is left, with nothing lost, nothing sent twice and
// one refused request. The emulator's windows run on the simulator's clock (test/e2e/service-clock.ts),
// so the simulated minutes pass without a wall-clock wait.

import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, SimulatorOptions } from '../../emulators/apps-script';
import type { RequestLogEntry } from '../../emulators/table-service';
import { followSimulatedClock } from '../../emulators/table-service/simulated-clock';
import type { SyncSummary } from '../../src/shared/types';
import { expectWithinLimit, runContinuations, summaryOf } from './continuations';
import { CRM, startWorld, type World } from './world';

const TABLE = 'tbl_paced';
const EDITS = 1_000;
const MINUTE = 60_000;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A world whose service has the platform's limits from the start, with a 1,000-row table linked and pulled. */
async function limitedWorld(simulator: SimulatorOptions = {}): Promise<World> {
  const holder: { world?: World } = {};
  const w = await startWorld({
    emulator: { logLimit: 20_000, platform: true },
    simulator: {
      costs: 'central',
      countRealTime: false,
      onBeforeFetch: followSimulatedClock(
        () => holder.world?.emulator.url ?? '',
        () => holder.world?.sim.clock.now() ?? 0,
      ),
      ...simulator,
    },
  });
  holder.world = w;
  world = w;
  await w.emulator.admin.seedTable({ appId: CRM, tableId: TABLE, rows: EDITS, columns: 6, hostile: false });
  w.connect();
  w.call('linkActiveSheet', { tableAppId: CRM, tableId: TABLE });
  expect(summaryOf(w.sim.callFromClient('pullActiveSheet', []))).toMatchObject({ ok: true, added: EDITS });
  await w.emulator.admin.clearLog();
  return w;
}

/** The person retitles every line at once (one paste). */
function editEveryTitle(w: World): Map<string, string> {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const header = w.values()[0] as string[];
  const idCol = header.indexOf('id');
  const titleCol = header.indexOf('title') + 1;
  const ids = w
    .values()
    .slice(1)
    .map((line) => String(line[idCol]));
  const titles = ids.map((_, i) => `paced edit ${i}`);
  sheet.getRange(2, titleCol, ids.length, 1).setValues(titles.map((title) => [title]));
  return new Map(ids.map((id, i) => [id, titles[i] as string]));
}

/** Every edit is on the service once: no PATCH twice to a row, none lost, and how many were refused. */
async function expectEachSentOnce(w: World, expected: Map<string, string>): Promise<RequestLogEntry[]> {
  const log = await w.emulator.admin.requestLog();
  expect(log.filter((entry) => entry.method === 'POST')).toEqual([]);
  const accepted = new Map<string, number>();
  for (const entry of log.filter((e) => e.method === 'PATCH' && e.status === 200)) {
    const id = entry.path.split('/').at(-1) as string;
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
  }
  expect(accepted.size).toBe(EDITS);
  expect([...accepted.values()].every((n) => n === 1)).toBe(true);
  const state = await w.emulator.admin.state();
  const rows = state.apps.find((app) => app.id === CRM)?.tables.find((t) => t.id === TABLE)?.rows ?? [];
  const wrong = rows.filter((row) => row.title !== expected.get(String(row.id)));
  expect(wrong.map((row) => row.id)).toEqual([]);
  return log;
}

const refusedIn = (log: RequestLogEntry[]) => log.filter((entry) => entry.fault === 'platform-limit');

describe('a push of 1,000 edits to a service that limits requests (60 a minute, 1,800 an hour)', () => {
  it('goes on by itself across executions: nothing lost or sent twice, one refused request', async () => {
    const w = await limitedWorld();
    const expected = editEveryTitle(w);
    const started = w.sim.clock.now();

    // A whole column changed at once is held as a likely accident: the person confirms (Push anyway).
    const first = w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }]);
    const firstSummary = summaryOf(first);
    expect(firstSummary).toMatchObject({ ok: true, continuing: true });
    expect(firstSummary.message).toMatch(/the service limits how many requests the add-on may send/);
    expect(firstSummary.message).toMatch(/\d+ changes are left, about \d+ minutes at the pace it allows/);
    expect(firstSummary.message).toMatch(
      /goes on by itself in about a minute; nothing is lost or sent twice/,
    );
    // The first execution does not sleep a minute away: it stops and leaves the rest to a trigger.
    expect(first.simulatedMs).toBeLessThan(MINUTE);
    // The lines not sent yet carry no error: they are still edits, sent by a later execution.
    expect(firstSummary.errors).toBe(0);
    const header = w.values()[0] as string[];
    const statuses = w
      .values()
      .slice(1)
      .map((line) => String(line[header.indexOf('_sync')]));
    expect(statuses.filter((status) => /not pushed|✖/.test(status))).toEqual([]);
    // The sidebar shows the same words while the push goes on.
    const shown = w.call<{ lastSummary: SyncSummary }>('getState').lastSummary;
    expect(shown.message).toBe(firstSummary.message);
    expect(w.call<{ progress: { phase: string } | null }>('getState').progress?.phase).toBe(
      'waiting: the service limits how many requests the add-on may send',
    );
    const minutesSaid = Number(/about (\d+) minutes at the pace/.exec(firstSummary.message)?.[1]);

    const executions: ExecutionResult[] = [first, ...runContinuations(w, 60)];
    expectWithinLimit(executions);
    expect(w.sim.triggers()).toEqual([]);
    const last = w.call<{ lastSummary: SyncSummary }>('getState').lastSummary;
    expect(last).toMatchObject({ ok: true, continuing: false, updated: EDITS, errors: 0 });
    expect(last.rateLimited).toBeUndefined();

    const log = await expectEachSentOnce(w, expected);
    // One request went past the limits to find them out; after that the pace kept every window.
    expect(refusedIn(log)).toHaveLength(1);
    expect((await w.emulator.admin.platform()).refused).toBe(1); // the pull before was refused nothing
    const minutes = (w.sim.clock.now() - started) / MINUTE;
    // About what the first message said: 1,000 PATCHes at 60 a minute, plus each execution's reads.
    expect(minutes).toBeGreaterThan(16);
    expect(minutes).toBeGreaterThan(minutesSaid * 0.8);
    expect(minutes).toBeLessThan(minutesSaid * 1.25 + 1);
    // Each execution sends about a minute's worth: 1,000 edits need about 20, not hundreds.
    expect(executions.length).toBeGreaterThanOrEqual(17);
    expect(executions.length).toBeLessThanOrEqual(25);
  }, 120_000);

  it('as an add-on (no continuation triggers) finishes by runs the person starts, each saying how it goes on', async () => {
    const w = await limitedWorld({ installation: 'addon' });
    const expected = editEveryTitle(w);
    const runs: ExecutionResult[] = [];
    let summary: SyncSummary | undefined;
    for (let run = 0; run < 8; run++) {
      const result = w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }]);
      runs.push(result);
      summary = summaryOf(result);
      if (!summary.continuing) break;
      // Each run waits for the service within its own time, and says the person goes on with it.
      expect(summary.message).toMatch(/the service limits how many requests the add-on may send/);
      expect(summary.message).toMatch(
        /\d+ changes are left, about (\d+ minutes|a minute) at the pace it allows/,
      );
      expect(summary.message).toMatch(/Run push again in .+ to go on/);
      expect(w.sim.triggers()).toEqual([]);
      w.sim.clock.advance(MINUTE); // the person reads the message and pushes again a minute later
    }
    expect(summary).toMatchObject({ ok: true, continuing: false, errors: 0 });
    expectWithinLimit(runs);
    // A run holds about 4 minutes of the service's pace: 1,000 edits in a handful of runs, not twenty.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(6);
    const log = await expectEachSentOnce(w, expected);
    expect(refusedIn(log)).toHaveLength(1);
  }, 120_000);
});

describe('a first pull of 6,000 rows from a service that limits requests', () => {
  it('stops at the limits and goes on by itself a minute later: every row once, one refused request', async () => {
    const ROWS = 6_000;
    const holder: { world?: World } = {};
    const w = await startWorld({
      emulator: { logLimit: 20_000, platform: true },
      simulator: {
        costs: 'central',
        countRealTime: false,
        onBeforeFetch: followSimulatedClock(
          () => holder.world?.emulator.url ?? '',
          () => holder.world?.sim.clock.now() ?? 0,
        ),
      },
    });
    holder.world = w;
    world = w;
    await w.emulator.admin.seedTable({ appId: CRM, tableId: TABLE, rows: ROWS, columns: 4, hostile: false });
    w.connect();
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: TABLE });
    // 60 pages and the schema are more than a minute's 60 requests.
    const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    expect(first).toMatchObject({ ok: true, continuing: true });
    expect(first.message).toMatch(/the service limits how many requests the add-on may send/);
    expect(first.message).toMatch(/goes on by itself in about a minute/);
    const executions = runContinuations(w, 5);
    expectWithinLimit(executions);
    const last = w.call<{ lastSummary: SyncSummary }>('getState').lastSummary;
    expect(last).toMatchObject({ ok: true, continuing: false, added: ROWS });
    const header = w.values()[0] as string[];
    const ids = w
      .values()
      .slice(1)
      .map((line) => String(line[header.indexOf('id')]));
    expect(new Set(ids).size).toBe(ROWS);
    expect(ids).toHaveLength(ROWS);
    const log = await w.emulator.admin.requestLog();
    expect(refusedIn(log).length).toBeLessThanOrEqual(1);
  }, 120_000);
});

describe('a push of edits to a 6,000-row table under the limits', () => {
  it('reads the table within its run (waiting for the windows) instead of starting over each execution', async () => {
    const ROWS = 6_000;
    const EDITED = 300;
    const holder: { world?: World } = {};
    const w = await startWorld({
      emulator: { logLimit: 20_000, platform: true },
      simulator: {
        costs: 'central',
        countRealTime: false,
        onBeforeFetch: followSimulatedClock(
          () => holder.world?.emulator.url ?? '',
          () => holder.world?.sim.clock.now() ?? 0,
        ),
      },
    });
    holder.world = w;
    world = w;
    await w.emulator.admin.seedTable({ appId: CRM, tableId: TABLE, rows: ROWS, columns: 4, hostile: false });
    w.connect();
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: TABLE });
    summaryOf(w.sim.callFromClient('pullActiveSheet', []));
    runContinuations(w, 5);
    await w.emulator.admin.clearLog();
    // Every 20th line: rows all over the table, most of them past the pages read with the schema.
    const sheet = w.sim.spreadsheet.getActiveSheet();
    const header = w.values()[0] as string[];
    const titleCol = header.indexOf('title') + 1;
    for (let i = 0; i < EDITED; i++) sheet.getRange(2 + i * 20, titleCol).setValue(`big table edit ${i}`);

    // 300 edits of 6,000 rows: the push lists the table (60 pages) to know each row's state first.
    const first = w.sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }]);
    const executions = [first, ...runContinuations(w, 30)];
    expectWithinLimit(executions);
    const last = w.call<{ lastSummary: SyncSummary }>('getState').lastSummary;
    expect(last).toMatchObject({ ok: true, continuing: false, updated: EDITED });
    const log = await w.emulator.admin.requestLog();
    const patched = new Map<string, number>();
    for (const entry of log.filter((e) => e.method === 'PATCH' && e.status === 200)) {
      const id = entry.path.split('/').at(-1) as string;
      patched.set(id, (patched.get(id) ?? 0) + 1);
    }
    expect(patched.size).toBe(EDITED);
    expect([...patched.values()].every((n) => n === 1)).toBe(true);
    expect(refusedIn(log).length).toBeLessThanOrEqual(1);
    expect(executions.length).toBeLessThanOrEqual(8);
  }, 180_000);
});
