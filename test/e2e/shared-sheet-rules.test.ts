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

describe('a push that looks like an accident is held', () => {
  const titleRange = (): string => {
    const letter = String.fromCharCode(64 + column('title'));
    return `${letter}2:${letter}${sheet().getLastRow()}`;
  };

  it('a one-column sort is held: nothing sent, examples shown; Push anyway sends it', async () => {
    const before = await world.serviceRows();
    world.sim.person.sortRange(sheet().getName(), titleRange(), 'title');
    let summary: SyncSummary | undefined;
    const log = await logOf(() => {
      summary = push();
    });
    expect(writes(log)).toEqual([]);
    const held = summary?.held;
    expect(held?.columns.map((each) => each.columnId)).toEqual(['title']);
    expect(held?.columns[0]?.lines).toBeGreaterThanOrEqual(10);
    const example = held?.columns[0]?.examples[0];
    expect(example?.before).toBe(before.find((row) => row.id === example?.rowId)?.title);
    expect(summary?.message).toMatch(/Held, not sent: title/);
    // Cancel = do nothing: a second plain push holds again and still sends nothing.
    expect(writes(await logOf(() => push()))).toEqual([]);
    // Push anyway.
    const sent = await logOf(() => {
      const anyway = push({ confirmHeld: true });
      expect(anyway.held).toBeUndefined();
      expect(anyway.updated).toBe(held?.columns[0]?.lines);
    });
    expect(writes(sent)).toHaveLength(held?.columns[0]?.lines ?? -1);
  });

  it('a fill-down of 5 cells goes out unasked', async () => {
    const letter = String.fromCharCode(64 + column('status'));
    world.sim.person.fillDown(sheet().getName(), `${letter}2:${letter}7`);
    let summary: SyncSummary | undefined;
    const log = await logOf(() => {
      summary = push();
    });
    expect(summary?.held).toBeUndefined();
    expect(writes(log).length).toBeGreaterThan(0);
    expect(writes(log).length).toBeLessThanOrEqual(5);
  });

  it('a menu push asks in a dialog', async () => {
    world.sim.person.sortRange(sheet().getName(), titleRange(), 'title');
    // The simulated dialog answers Yes: the held edits go out after it.
    const log = await logOf(() => world.run('menuPush'));
    const alerts = world.sim.ui.alerts;
    expect(alerts[alerts.length - 1]?.prompt).toMatch(/title: moves values between \d+ lines[\s\S]*→/);
    expect(writes(log).length).toBeGreaterThanOrEqual(10);
  });

  it('a scheduled push holds it, logs it, mails once and keeps pulling', async () => {
    world.call('setSchedule', { mode: 'sync', every: 'm15' });
    world.sim.person.sortRange(sheet().getName(), titleRange(), 'title');
    const log = await logOf(() => {
      world.sim.advanceAndFire(15 * 60_000);
      world.sim.advanceAndFire(15 * 60_000);
    });
    expect(writes(log)).toEqual([]);
    const logSheet = world.values('Sync log').slice(1);
    expect(String(logSheet[logSheet.length - 1]?.[13])).toMatch(/Held, not sent: title/);
    expect(world.sim.mail.filter((mail) => /held/.test(mail.subject))).toHaveLength(1);
    world.call('clearSchedule');
  });
});
