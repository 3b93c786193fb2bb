// A create the service committed but answered as a failure (503 from a proxy whose upstream reset, a
// 2xx carrying an error body): the push never sends it again, and the next push adopts the row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QueuedAnswer } from '../../emulators/table-service';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, DEALS, mismatches, startWorld, type World } from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

const headers = (): string[] => (world.values()[0] ?? []).map(String);
const push = (): SyncSummary => world.call<SyncSummary>('pushActiveSheet');
const sheetName = (): string => world.sim.spreadsheet.getActiveSheet().getName();

function cellOf(title: string, header: string): unknown {
  const line = world.values().find((each) => each[headers().indexOf('title')] === title);
  return line?.[headers().indexOf(header)];
}

async function rowsTitled(title: string): Promise<Array<Record<string, unknown>>> {
  return (await world.serviceRows()).filter((row) => row.title === title);
}

async function postsDuring(work: () => unknown): Promise<number> {
  await world.emulator.admin.clearLog();
  work();
  return (await world.emulator.admin.requestLog()).filter((entry) => entry.method === 'POST').length;
}

/** Types a new line and pushes it with the next POST answered by `answer`; returns the first push's summary. */
async function pushNewLineAnswered(title: string, answer: Omit<QueuedAnswer, 'match'>): Promise<SyncSummary> {
  world.sim.person.edit(sheetName(), world.values().length + 1, 'title', title);
  await world.emulator.admin.queueAnswers([{ match: { method: 'POST' }, ...answer }]);
  return push();
}

beforeEach(async () => {
  await world.emulator.admin.reset('sample');
  await world.emulator.admin.clearFaults();
  world.connect();
  const spreadsheet = world.sim.spreadsheet;
  spreadsheet.setActiveSheet(spreadsheet.insertSheet(`t${Math.random().toString(36).slice(2, 8)}`));
  world.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
  expect(world.call<SyncSummary>('pullActiveSheet')).toMatchObject({ ok: true });
});

describe('a create the service committed, then answered', () => {
  it.each<[string, Omit<QueuedAnswer, 'match'>]>([
    [
      '503 (a proxy whose upstream reset after the commit)',
      { status: 503, body: '{"error":{"code":"service_unavailable","message":"upstream reset"}}' },
    ],
    ['200 with an error body', { status: 200, body: '{"error":{"message":"write timed out"}}' }],
    ['201 with a body that is not a row', { status: 201, body: '{"ok":true}' }],
  ])('%s: one row, adopted by the next push, never sent again', async (_, answer) => {
    const title = `Committed, then ${answer.status}`;
    const first = await pushNewLineAnswered(title, { ...answer, commitFirst: true });
    expect(await rowsTitled(title)).toHaveLength(1);
    expect(first.created).toBe(0);
    expect(cellOf(title, 'id')).toBe('');

    expect(await postsDuring(() => expect(push()).toMatchObject({ ok: true }))).toBe(0);
    const rows = await rowsTitled(title);
    expect(rows).toHaveLength(1);
    expect(cellOf(title, 'id')).toBe(rows[0]?.id);
    expect(await mismatches(world)).toEqual([]);
    expect(await postsDuring(() => push())).toBe(0);
  });
});

describe('a create answered 503 that the service did not commit', () => {
  it('stays pending, and the next push, finding no row, creates it once', async () => {
    const title = 'Refused by a busy service';
    await pushNewLineAnswered(title, { status: 503, body: '{"error":{"message":"busy"}}' });
    expect(await rowsTitled(title)).toHaveLength(0);
    expect(await postsDuring(() => push())).toBe(1);
    const rows = await rowsTitled(title);
    expect(rows).toHaveLength(1);
    expect(cellOf(title, 'id')).toBe(rows[0]?.id);
    expect(await mismatches(world)).toEqual([]);
  });
});

describe('a create whose answer was lost, then another person runs', () => {
  const lostAnswer = { status: 200, commitFirst: true, dropConnection: true };

  it('a push under another key adopts the row its sender made and never sends it again', async () => {
    const title = 'Sent by Alice, answer lost';
    await pushNewLineAnswered(title, lostAnswer);
    expect(await rowsTitled(title)).toHaveLength(1);
    world.connect('u_bob');
    expect(await postsDuring(() => expect(push()).toMatchObject({ ok: true }))).toBe(0);
    const rows = await rowsTitled(title);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.createdBy).toBe('u_alice');
    expect(cellOf(title, 'id')).toBe(rows[0]?.id);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a pull under another key puts the row on the pending line, not on a second line', async () => {
    const title = 'Sent by Alice, pulled by Bob';
    await pushNewLineAnswered(title, lostAnswer);
    world.connect('u_bob');
    expect(world.call<SyncSummary>('pullActiveSheet')).toMatchObject({ ok: true, added: 0 });
    const lines = world.values().filter((each) => each[headers().indexOf('title')] === title);
    expect(lines).toHaveLength(1);
    const rows = await rowsTitled(title);
    expect(cellOf(title, 'id')).toBe(rows[0]?.id);
    expect(await postsDuring(() => push())).toBe(0);
    expect(await rowsTitled(title)).toHaveLength(1);
  });
});

describe('a create whose answer was lost, then the hidden base sheet removed', () => {
  it('is never sent again: every run stops while the base is gone, and says how to go on', async () => {
    const title = 'Sent, then its record removed';
    await pushNewLineAnswered(title, { status: 200, commitFirst: true, dropConnection: true });
    expect(await rowsTitled(title)).toHaveLength(1);
    const spreadsheet = world.sim.spreadsheet;
    const sheetId = spreadsheet.getActiveSheet().getSheetId();
    const base = spreadsheet.getSheetByName(`_tas_base_${sheetId}`);
    expect(base).not.toBeNull();
    spreadsheet.deleteSheet(base as NonNullable<typeof base>);
    expect(await postsDuring(() => push())).toBe(0);
    expect(await postsDuring(() => push())).toBe(0);
    expect(await rowsTitled(title)).toHaveLength(1);
    // Every run stops and says how to go on: nothing is sent while the base is gone.
    const pushed = world.sim.callFromClient('pushActiveSheet', []);
    expect(JSON.stringify(pushed.value ?? pushed.error)).toMatch(
      /was deleted, so nothing was sent or written/,
    );
  });
});

describe('the hidden base sheet sorted with its header row', () => {
  it('stops push and pull with a message, and nothing is sent or added', async () => {
    const spreadsheet = world.sim.spreadsheet;
    const sheetId = spreadsheet.getActiveSheet().getSheetId();
    const base = spreadsheet.getSheetByName(`_tas_base_${sheetId}`);
    expect(base).not.toBeNull();
    const baseSheet = base as NonNullable<typeof base>;
    // A person unhides it and sorts all of it, header row included (Z→A on the id column).
    baseSheet.getRange(1, 1, baseSheet.getLastRow(), 3).sort({ column: 1, ascending: false });
    const before = world.values();
    const linesBefore = before.length;
    expect(await postsDuring(() => expect(push()).toMatchObject({ ok: false }))).toBe(0);
    const pulled = world.call<SyncSummary>('pullActiveSheet');
    expect(pulled.ok).toBe(false);
    expect(pulled.message).toMatch(/hidden sheet .* was changed by hand/);
    expect(world.values()).toHaveLength(linesBefore);
  });
});
