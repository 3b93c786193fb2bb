// A pull whose budget runs out near the table's end finishes in the same execution, past the 4.5-minute
// budget by at most the grace it planned (FINISH_GRACE_MS), rather than paying a continuation's restart
// for its last rows (issue 25); one whose end is far still continues cleanly. The end is known by a
// probe riding in the last page waves (a first pull does not know the table's size).
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, expect, it } from 'vitest';
import { FINISH_GRACE_MS } from '../../src/core/sync/pull/chunks';
import { WORK_BUDGET_MS } from '../../src/gas/operation';
import type { SyncSummary } from '../../src/shared/types';
import { BIG, expectWithinLimit, runContinuations, startBigWorld, summaryOf } from './continuations';
import { CRM, mismatches, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** 20 s a request, cells cheap: the listing, not the writes, fills the budget (simulated time only). */
const SLOW_WAVES = { costs: { httpLatencyMs: 20_000, sheetCellMs: 0.01 }, countRealTime: false };

it('finishes a first pull of 12,750 rows in one execution where the stop check alone would continue', async () => {
  world = await startBigWorld(12_750, SLOW_WAVES, 4);
  const w = world;
  const first = w.sim.callFromClient('pullActiveSheet', []);
  expect(summaryOf(first)).toMatchObject({ ok: true, continuing: false, added: 12_750 });
  expect(w.sim.triggers(), 'no continuation').toEqual([]);
  // The stop check alone stops short of 12,750 rows here (next test); finishing stays within the grace.
  expect(first.simulatedMs).toBeLessThan(WORK_BUDGET_MS + FINISH_GRACE_MS);
  expectWithinLimit([first]);
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 120_000);

it('continues a pull of 15,500 rows whose end is far past the probe, every execution inside the limit', async () => {
  world = await startBigWorld(15_500, SLOW_WAVES, 4);
  const w = world;
  const first = w.sim.callFromClient('pullActiveSheet', []);
  expect(summaryOf(first).continuing).toBe(true);
  // Where the stop check stops this listing: short of the 12,750 rows the test above finishes.
  expect(summaryOf(first).added).toBeLessThan(12_750);
  expect(first.simulatedMs).toBeLessThan(WORK_BUDGET_MS);
  const executions = [first, ...runContinuations(w, 4)];
  expectWithinLimit(executions);
  expect(w.sim.triggers()).toEqual([]);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    ok: true,
    continuing: false,
    added: 15_500,
  });
  expect(await mismatches(w, undefined, CRM, BIG)).toEqual([]);
}, 180_000);
