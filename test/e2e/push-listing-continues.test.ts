// A push whose check of the edited rows needs more than one execution (issue 33, case 3): each
// execution reads the service only as far as it can still send what it read, sends it, and the next
// execution goes on from where the listing stopped, so every edit goes out, once. Before the fix every
// execution listed the table from its start until its budget ran out and sent nothing.
// Simulator (dist/Code.js, modelled costs) + table-service emulator over real HTTP.
import { afterEach, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import {
  BIG,
  expectWithinLimit,
  pullToEnd,
  runContinuations,
  startBigWorld,
  summaryOf,
} from './continuations';
import type { World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ROWS = 3000;
const EDITS = 40;
/** 90 s a request round: the listing of 3,000 rows (30 pages, 3 rounds and more) fills an execution. */
const SLOW = { costs: { httpLatencyMs: 90_000, sheetCellMs: 0.01 }, countRealTime: false };

it('40 edits spread over a table too slow to list in one execution all go, each once, across executions', async () => {
  world = await startBigWorld(ROWS, SLOW);
  const w = world;
  pullToEnd(w);
  const header = w.values()[0] as string[];
  const idCol = header.indexOf('id');
  const titleCol = header.indexOf('title') + 1;
  const sheet = w.sim.spreadsheet.getActiveSheet();
  // Every 70th line: edits all over the table, most of them past the rows the schema's wave reads.
  const expected = new Map<string, string>();
  for (let i = 0; i < EDITS; i++) {
    const line = 2 + i * 70;
    sheet.getRange(line, titleCol).setValue(`slow edit ${i}`);
    expected.set(String(w.values()[line - 1]?.[idCol]), `slow edit ${i}`);
  }
  await w.emulator.admin.clearLog();

  const first = w.sim.callFromClient('pushActiveSheet', []);
  summaryOf(first);
  const executions = [first, ...runContinuations(w, 10)];
  expectWithinLimit(executions);
  expect(w.sim.triggers(), 'the push finished').toEqual([]);
  // Each execution reads a wave of pages from where the last one stopped and sends what it read: 13
  // edits in each of 3 executions (the schema and 9 pages, 13 PATCHes), the last one in a fourth.
  expect(executions.length).toBeLessThanOrEqual(5);
  expect(w.call<{ lastSummary: SyncSummary }>('getState').lastSummary).toMatchObject({
    ok: true,
    continuing: false,
    updated: EDITS,
  });
  const log = await w.emulator.admin.requestLog();
  const patched = new Map<string, number>();
  for (const entry of log.filter((e) => e.method === 'PATCH' && e.status === 200)) {
    const id = entry.path.split('/').at(-1) as string;
    patched.set(id, (patched.get(id) ?? 0) + 1);
  }
  expect([...patched.keys()].sort()).toEqual([...expected.keys()].sort());
  expect([...patched.values()].every((n) => n === 1)).toBe(true);
  const rows = await w.serviceRows(undefined, BIG);
  const wrong = rows.filter(
    (row) => expected.has(String(row.id)) && row.title !== expected.get(String(row.id)),
  );
  expect(wrong.map((row) => row.id)).toEqual([]);
}, 120_000);
