// Pull what changed (issue 25), end to end: a scheduled pull reads the poll only (the rows changed
// since, three-way merged, no removed marks), "Pull everything" from the sidebar and the menu lists
// the whole table and marks rows removed on the service, and a service without the poll is listed
// whole, remembered with the connection. Simulator (dist/Code.js) + table-service emulator.
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../emulators/table-service';
import { STATUS } from '../../src/core/status';
import type { SyncSummary } from '../../src/shared/types';
import { CRM, cellOf, DEALS, startWorld, typeInto, type World } from './world';

const MINUTE = 60_000;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The requests that read rows: the poll or the whole listing. */
function rowReads(log: RequestLogEntry[]): string[] {
  return log
    .filter((entry) => /\/rows(\/updates)?$/.test(entry.path) && entry.method === 'GET')
    .map((entry) => (entry.path.endsWith('/updates') ? 'poll' : 'listing'));
}

async function firstRowIds(w: World): Promise<string[]> {
  return (await w.serviceRows()).map((row) => String(row.id));
}

describe('a pull reads only what changed, where the service has the poll', () => {
  it('a scheduled pull by poll merges a change and a new row, marks nothing removed; "Pull everything" does', async () => {
    const w = await startWorld({ emulator: { poll: 'on' } });
    world = w;
    w.connect();
    w.linkAndPull();
    const [edited, mine, gone] = await firstRowIds(w);
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    await w.emulator.admin.editRow(CRM, DEALS, edited as string, { status: 'Won by poll' }, 'u_bob');
    typeInto(w, mine as string, 'status', 'typed here');
    const created = await w.emulator.admin.createRow(CRM, DEALS, { title: 'New by poll' }, 'u_bob');
    await w.emulator.admin.deleteRow(CRM, DEALS, gone as string);
    await w.emulator.admin.clearLog();
    const fired = w.sim.advanceAndFire(15 * MINUTE);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.error).toBeUndefined();
    const scheduled = await w.emulator.admin.requestLog();
    expect(rowReads(scheduled)).toEqual(['poll']);
    const poll = scheduled.find((entry) => entry.path.endsWith('/rows/updates'));
    expect(poll?.query.since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(cellOf(w, edited as string, 'status')).toBe('Won by poll');
    expect(cellOf(w, mine as string, 'status')).toBe('typed here');
    expect(cellOf(w, created.id, 'title')).toBe('New by poll');
    expect(cellOf(w, gone as string, '_sync')).not.toBe(STATUS.removed);

    await w.emulator.admin.clearLog();
    const everything = w.call<SyncSummary>('pullEverything');
    expect(everything.ok).toBe(true);
    expect(rowReads(await w.emulator.admin.requestLog())).toContain('listing');
    expect(cellOf(w, gone as string, '_sync')).toBe(STATUS.removed);
    expect(everything.removedOnService).toBe(1);
    expect(cellOf(w, mine as string, 'status')).toBe('typed here');
  });

  it('the menu has "Pull everything", and it lists the whole table', async () => {
    const w = await startWorld({ emulator: { poll: 'on' } });
    world = w;
    w.connect();
    w.linkAndPull();
    w.sim.run('onOpen', [{ authMode: 'FULL' }]);
    const items = (w.sim.ui.menus.at(-1)?.items ?? []).map((item) => `${item.caption} → ${item.fn}`);
    expect(items).toContain('Pull everything → menuPullEverything');
    await w.emulator.admin.clearLog();
    expect(w.sim.run('menuPullEverything').error).toBeUndefined();
    expect(rowReads(await w.emulator.admin.requestLog())).toEqual(expect.arrayContaining(['listing']));
    expect(rowReads(await w.emulator.admin.requestLog())).not.toContain('poll');
  });
});

describe('a service without the poll', () => {
  it('is listed whole, and the connection remembers it: the next pull asks no poll', async () => {
    const w = await startWorld({ emulator: { poll: 'off' } });
    world = w;
    w.connect();
    w.linkAndPull();
    const [edited, gone] = await firstRowIds(w);
    await w.emulator.admin.editRow(CRM, DEALS, edited as string, { status: 'Listed' }, 'u_bob');
    await w.emulator.admin.deleteRow(CRM, DEALS, gone as string);
    await w.emulator.admin.clearLog();
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    const reads = rowReads(await w.emulator.admin.requestLog());
    expect(reads[0]).toBe('poll');
    // The listing's pages (a capacity probe riding along): the schema read with the poll is not read again.
    expect(reads.slice(1).length).toBeGreaterThan(0);
    expect(reads.slice(1).every((read) => read === 'listing')).toBe(true);
    expect(cellOf(w, edited as string, 'status')).toBe('Listed');
    expect(cellOf(w, gone as string, '_sync')).toBe(STATUS.removed);
    await w.emulator.admin.clearLog();
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    const next = rowReads(await w.emulator.admin.requestLog());
    expect(next).not.toContain('poll');
    expect(next).toContain('listing');
  });
});

describe('pulls that must reach every line list the whole table, even where the poll is served', () => {
  it('the first pull after the link options change (every line shows the new fixed field)', async () => {
    const w = await startWorld({ emulator: { poll: 'on' } });
    world = w;
    w.connect();
    w.linkAndPull();
    w.call('setLinkOptions', { fixedFields: ['createdBy'] });
    await w.emulator.admin.clearLog();
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    expect(rowReads(await w.emulator.admin.requestLog())).not.toContain('poll');
    for (const row of await w.serviceRows())
      expect(cellOf(w, String(row.id), 'createdBy')).toBe(row.createdBy);
    await w.emulator.admin.clearLog();
    w.call<SyncSummary>('pullActiveSheet');
    expect(rowReads(await w.emulator.admin.requestLog())).toEqual(['poll']);
  });

  it('the pull after "Take theirs" of a value too large to keep in the base', async () => {
    const w = await startWorld({ emulator: { poll: 'on' } });
    world = w;
    w.connect();
    w.linkAndPull();
    const [rowId] = await firstRowIds(w);
    typeInto(w, rowId as string, 'notes', 'mine');
    const theirs = 'x'.repeat(49_000);
    await w.emulator.admin.editRow(CRM, DEALS, rowId as string, { notes: theirs }, 'u_bob');
    w.call<SyncSummary>('pullActiveSheet');
    await w.emulator.admin.clearLog();
    const resolved = w.call<SyncSummary>('resolveConflicts', { keep: 'theirs' });
    expect(resolved.ok).toBe(true);
    expect(rowReads(await w.emulator.admin.requestLog())).toContain('listing');
    expect(cellOf(w, rowId as string, 'notes')).toBe(theirs);
  });
});

describe('a scheduled sync by poll', () => {
  it('whose push sends nothing polls once, with the schema; a line typed during that poll is sent, and its pull reads and polls again', async () => {
    let duringPoll: (() => void) | undefined;
    const w = await startWorld({
      emulator: { poll: 'on' },
      simulator: {
        onBeforeFetch: (requests) => {
          if (!duringPoll || !requests.some((request) => request.url.includes('/rows/updates'))) return;
          const act = duringPoll;
          duringPoll = undefined;
          act();
        },
      },
    });
    world = w;
    w.connect();
    w.linkAndPull();
    const [theirs, mine] = await firstRowIds(w);
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    await w.emulator.admin.editRow(CRM, DEALS, theirs as string, { status: 'Won by sync' }, 'u_bob');
    await w.emulator.admin.clearLog();
    expect(w.sim.advanceAndFire(15 * MINUTE)[0]?.error).toBeUndefined();
    const quiet = await w.emulator.admin.requestLog();
    // The schema and the poll, in one round: the pull took the push's poll, lines and base.
    expect(quiet.map((entry) => entry.method)).toEqual(['GET', 'GET']);
    expect(rowReads(quiet)).toEqual(['poll']);
    expect(cellOf(w, theirs as string, 'status')).toBe('Won by sync');

    await w.emulator.admin.editRow(CRM, DEALS, theirs as string, { status: 'Lost by sync' }, 'u_bob');
    duringPoll = () => typeInto(w, mine as string, 'status', 'typed during the poll');
    await w.emulator.admin.clearLog();
    expect(w.sim.advanceAndFire(15 * MINUTE)[0]?.error).toBeUndefined();
    const sent = await w.emulator.admin.requestLog();
    expect(duringPoll).toBeUndefined();
    expect(sent.filter((entry) => entry.method === 'PATCH')).toHaveLength(1);
    expect(rowReads(sent)).toEqual(['poll', 'poll']);
    expect((await w.serviceRows()).find((row) => row.id === mine)?.status).toBe('typed during the poll');
    expect(cellOf(w, mine as string, 'status')).toBe('typed during the poll');
    expect(cellOf(w, mine as string, '_sync')).toBe(STATUS.pushed);
    expect(cellOf(w, theirs as string, 'status')).toBe('Lost by sync');
  });
});
