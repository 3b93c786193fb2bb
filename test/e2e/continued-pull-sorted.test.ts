// A pull continuing in a later execution reads its lines after waits (the schema's, then whole lines
// lazily after page waits): lines a person sorted or inserted meanwhile must not make it merge one row's
// page into another row's cells, nor append a row again (rule "a write lands on the line it was meant
// for"). Simulator (dist/Code.js) + table-service emulator over real HTTP.

import { afterEach, expect, it } from 'vitest';
import { BIG, pullToEnd, runContinuations, startBigWorld, summaryOf } from './continuations';
import { CRM, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

it('a continued pull merges each page into its own row after the sheet was sorted during a page wait', async () => {
  world = await startBigWorld(5000);
  const w = world;
  pullToEnd(w);
  const header = w.values()[0] as string[];
  const idCol = header.indexOf('id');
  const textCol = header.indexOf('c07_text');
  const ids = w
    .values()
    .slice(1)
    .map((line) => String(line[idCol]));
  // Bob changes every 10th row: pages of every wave bring changed rows.
  for (let i = 0; i < ids.length; i += 10)
    await w.emulator.admin.editRow(CRM, BIG, ids[i] as string, { c07_text: `bob ${ids[i]}` }, 'u_bob');
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing).toBe(true);
  let sorted = 0;
  const sheetName = w.sim.spreadsheet.getActiveSheet().getName();
  // In the continuation (lines read lazily), the person sorts the sheet while a page wave is out.
  w.sim.person.at({ on: 'fetchAll', nth: 2 }, () => {
    w.sim.person.sortSheet(sheetName, 'c02_number', false);
    sorted++;
  });
  for (const result of runContinuations(w, 10)) summaryOf(result);
  expect(sorted).toBe(1);
  // Every line holds its own row's values: bob's where he edited, and nothing of another row.
  const lines = w.values().slice(1);
  expect(lines).toHaveLength(5000);
  expect(new Set(lines.map((line) => String(line[idCol]))).size).toBe(5000);
  const wrong: string[] = [];
  for (const [i, id] of ids.entries()) {
    const line = lines.find((each) => String(each[idCol]) === id) as unknown[];
    if (i % 10 === 0 && line[textCol] !== `bob ${id}`) wrong.push(`${id}: ${String(line[textCol])}`);
  }
  expect(wrong.slice(0, 5)).toEqual([]);
  // Nothing was edited in the sheet: a push sends nothing.
  await w.emulator.admin.clearLog();
  const push = summaryOf(w.sim.callFromClient('pushActiveSheet', []));
  const writes = (await w.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET');
  expect(writes.map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  expect(push).toMatchObject({ ok: true, updated: 0, created: 0 });
}, 240_000);

it('a continued pull reads every line after blank lines were inserted while it waited for the schema', async () => {
  world = await startBigWorld(5000);
  const w = world;
  pullToEnd(w);
  const idCol = (w.values()[0] as string[]).indexOf('id');
  const first = summaryOf(w.sim.callFromClient('pullActiveSheet', []));
  expect(first.continuing).toBe(true);
  let inserted = 0;
  const sheetName = w.sim.spreadsheet.getActiveSheet().getName();
  // The continuation asks the sheet's size, then waits for the schema: the person inserts lines.
  w.sim.person.at({ on: 'fetchAll', nth: 1 }, () => {
    w.sim.person.insertRows(sheetName, 2, 3);
    inserted++;
  });
  for (const result of runContinuations(w, 10)) summaryOf(result);
  expect(inserted).toBe(1);
  const ids = w
    .values()
    .slice(1)
    .map((line) => String(line[idCol]))
    .filter((id) => id !== '');
  // Every row on exactly one line: none appended again for a line the run did not read.
  expect(ids).toHaveLength(5000);
  expect(new Set(ids).size).toBe(5000);
}, 240_000);

it('a continued re-pull leaves the fixed fields of lines between the rows it updates as they are', async () => {
  world = await startBigWorld(5000);
  const w = world;
  pullToEnd(w);
  const header = w.values()[0] as string[];
  const idCol = header.indexOf('id');
  const lModCol = header.indexOf('lMod');
  const ids = w
    .values()
    .slice(1)
    .map((line) => String(line[idCol]));
  // Bob changes every 10th row: the continuation (lines read lazily) updates rows with others between.
  for (let i = 0; i < ids.length; i += 10)
    await w.emulator.admin.editRow(CRM, BIG, ids[i] as string, { c07_text: `bob ${ids[i]}` }, 'u_bob');
  expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
  for (const result of runContinuations(w, 10)) summaryOf(result);
  // Every line's lMod is the service's: none of the lines between was written over.
  const service = new Map((await w.serviceRows(CRM, BIG)).map((row) => [String(row.id), String(row.lMod)]));
  const wrong = w
    .values()
    .slice(1)
    .filter((line) => String(line[lModCol]) !== service.get(String(line[idCol])))
    .map((line) => `${String(line[idCol])}: ${String(line[lModCol])}`);
  expect(wrong.slice(0, 5)).toEqual([]);
}, 240_000);
