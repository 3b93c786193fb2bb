// Review of issue 18 (chunks grow from 5,000 to 20,000 rows once a chunk's cost is measured): a chunk
// measured cheap (rows unchanged: little written) must not let the next, larger chunk of rows that
// all changed run the execution past Apps Script's 6-minute limit. Extreme write costs (1 ms a cell,
// 15 times the pessimistic figure): with 20,000-row chunks after a cheap one the first execution was
// killed at 360 s; with 5,000-row chunks it ends at about 250 s.
// Simulator (dist/Code.js) + table-service emulator over real HTTP.

import { afterEach, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import { BIG, expectWithinLimit, pullToEnd, runContinuations, startBigWorld } from './continuations';
import { CRM, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Changes every column of the service's rows from `from` on, as a bulk import by bob would. */
async function changeRowsFrom(w: World, from: number): Promise<number> {
  const rows = await w.serviceRows(CRM, BIG);
  const edits = rows.slice(from).map((row) => {
    const values: Record<string, unknown> = {};
    for (const key of Object.keys(row)) {
      if (!/^c\d\d_/.test(key)) continue;
      const value = row[key];
      if (typeof value === 'string' && key.endsWith('_text')) values[key] = `${value} changed`.slice(0, 200);
      else if (typeof value === 'number') values[key] = value + 1;
      else if (typeof value === 'boolean') values[key] = !value;
    }
    return { id: String(row.id), values };
  });
  for (let i = 0; i < edits.length; i += 50) {
    await Promise.all(
      edits
        .slice(i, i + 50)
        .map((edit) => w.emulator.admin.editRow(CRM, BIG, edit.id, edit.values as never, 'u_bob')),
    );
  }
  return edits.length;
}

it('a re-pull whose first 5,000 rows are unchanged and the rest all changed stays under the limit', async () => {
  world = await startBigWorld(25_000, {}, 24);
  const w = world;
  // The first pull at no cost; then writing a cell costs 1 ms (reads stay cheap).
  pullToEnd(w);
  expect(w.sim.triggers()).toEqual([]);
  const changed = await changeRowsFrom(w, 5000);
  w.sim.setCosts({
    httpLatencyMs: 250,
    cellWriteMs: 1,
    cellReadMs: 0.01,
    sheetWaitMs: 20,
  });
  const executions = [w.sim.callFromClient('pullActiveSheet', []), ...runContinuations(w, 15)];
  expectWithinLimit(executions);
  expect(w.sim.triggers()).toEqual([]);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    ok: true,
    continuing: false,
    updated: changed,
    removedOnService: 0,
  });
}, 300_000);
