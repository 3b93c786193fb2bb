// The sheet is shared and hand-edited: header changes, a person's column named like a synced one,
// and pushes that look like accidents never become writes nobody made (built add-on, simulator, emulator).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../emulators/table-service';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, DEALS, mismatches, startWorld, type World } from './world';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

const sheet = (): Sheet => world.sim.spreadsheet.getActiveSheet() as unknown as Sheet;
const headers = (): string[] => (world.values()[0] ?? []).map(String);
const column = (header: string): number => headers().indexOf(header) + 1;

async function logOf(work: () => unknown): Promise<RequestLogEntry[]> {
  await world.emulator.admin.clearLog();
  work();
  return world.emulator.admin.requestLog();
}

const writes = (log: RequestLogEntry[]) =>
  log.filter((entry) => entry.method === 'PATCH' || entry.method === 'POST' || entry.method === 'DELETE');
const push = (options?: unknown): SyncSummary =>
  options === undefined
    ? world.call<SyncSummary>('pushActiveSheet')
    : world.call<SyncSummary>('pushActiveSheet', options);
const pull = (): SyncSummary => world.call<SyncSummary>('pullActiveSheet');

beforeEach(async () => {
  await world.emulator.admin.reset('sample');
  await world.emulator.admin.clearFaults();
  world.connect();
  const spreadsheet = world.sim.spreadsheet;
  spreadsheet.setActiveSheet(spreadsheet.insertSheet(`t${Math.random().toString(36).slice(2, 8)}`));
  world.linkAndPull(CRM, DEALS);
});

describe('a synced column is its header, exactly once', () => {
  it('a renamed header sends nothing for that column, says which header to restore, and a pull puts it back', async () => {
    sheet().getRange(1, column('notes')).setValue('My notes');
    const log = await logOf(() => {
      const summary = push();
      expect(summary.ok).toBe(true);
      expect(summary.message).toContain('"notes"');
    });
    expect(writes(log)).toEqual([]);
    const pulled = pull();
    expect(pulled.ok).toBe(true);
    expect(pulled.keptLocal).toBe(0);
    expect(headers()).toContain('notes');
    expect(headers()).toContain('My notes');
    expect(await mismatches(world)).toEqual([]);
    // The next push sends nothing: the column came back with the service's values.
    const after = await logOf(() => push());
    expect(writes(after)).toEqual([]);
  });

  it('a deleted column sends nothing, and the pull adds it back filled', async () => {
    sheet().deleteColumn(column('amount'));
    expect(writes(await logOf(() => push()))).toEqual([]);
    const pulled = pull();
    expect(pulled.keptLocal).toBe(0);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a person’s own column headed like a synced one takes nothing over: neither is synced until one is renamed', async () => {
    const width = sheet().getLastColumn();
    sheet()
      .getRange(1, width + 1)
      .setValue('status');
    const lines = sheet().getLastRow();
    for (let row = 2; row <= lines; row++)
      sheet()
        .getRange(row, width + 1)
        .setValue(`mine ${row}`);
    const log = await logOf(() => {
      const summary = push();
      expect(summary.message).toContain('"status"');
    });
    expect(writes(log)).toEqual([]);
    const pulled = pull();
    expect(pulled.message).toContain('"status"');
    // Nothing was written into either column, and no third one was added.
    expect(headers().filter((header) => header === 'status')).toHaveLength(2);
    expect(
      sheet()
        .getRange(2, width + 1)
        .getValue(),
    ).toBe('mine 2');
    // Renaming the person's column makes the synced one whole again.
    sheet()
      .getRange(1, width + 1)
      .setValue('my status');
    expect(writes(await logOf(() => push()))).toEqual([]);
    expect(await mismatches(world)).toEqual([]);
  });
});
