// Helpers for end-to-end tests of runs that go on over several executions: a seeded large table
// linked to the active sheet, continuation triggers fired in order, and the 6-minute limit checked.
import { expect } from 'vitest';
import type { ExecutionResult, SimulatorOptions } from '../../emulators/apps-script';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, startWorld, type World } from './world';

/** The seeded table these tests pull. */
export const BIG = 'tbl_big';
/** Apps Script's limit on one execution. */
export const EXECUTION_LIMIT_MS = 6 * 60_000;
/** A slow service (90 s a request wave): a pull of a few thousand rows needs several executions. */
export const SLOW_SERVICE: SimulatorOptions['costs'] = { httpLatencyMs: 90_000, sheetCellMs: 0.01 };

/**
 * A world with `rows` x `columns` seeded in BIG and linked to the active sheet (not pulled). The
 * script's own time counts, as on Google.
 */
export async function startBigWorld(
  rows: number,
  simulator: SimulatorOptions = { costs: SLOW_SERVICE },
  columns = 12,
): Promise<World> {
  const world = await startWorld({
    emulator: { logLimit: 60_000 },
    simulator: { countRealTime: true, ...simulator },
  });
  await world.emulator.admin.seedTable({ appId: CRM, tableId: BIG, rows, columns });
  world.connect();
  world.call('linkActiveSheet', { tableAppId: CRM, tableId: BIG });
  return world;
}

/** The summary of a run that must have succeeded as an execution. */
export function summaryOf(result: ExecutionResult): SyncSummary {
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as SyncSummary;
}

/** Fires due one-shot clock triggers (continuations) until none is left or `max` executions ran. */
export function runContinuations(w: World, max: number): ExecutionResult[] {
  const executions: ExecutionResult[] = [];
  while (executions.length < max) {
    const pending = w.sim
      .triggers()
      .filter((t) => t.source === 'CLOCK' && !t.fired && t.everyMs === undefined);
    if (pending.length === 0) break;
    executions.push(
      ...w.sim.advanceAndFire(
        Math.max(0, Math.min(...pending.map((t) => t.nextAt ?? 0)) - w.sim.clock.now()) + 1,
      ),
    );
  }
  return executions;
}

/** A first pull of the linked table, to completion over as many executions as it takes. */
export function pullToEnd(w: World): void {
  summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  for (const result of runContinuations(w, 10)) summaryOf(result);
}

/** Every execution ended on its own, successfully and inside the 6-minute limit. */
export function expectWithinLimit(executions: ExecutionResult[]): void {
  for (const [i, result] of executions.entries()) {
    expect(result.killed, `execution ${i} killed after ${result.simulatedMs} ms`).toBe(false);
    expect(result.ok, `execution ${i}: ${result.error?.message}`).toBe(true);
    expect(result.simulatedMs, `execution ${i} took ${result.simulatedMs} ms`).toBeLessThan(
      EXECUTION_LIMIT_MS,
    );
  }
}
