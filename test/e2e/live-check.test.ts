// Live sync, "Changes in while the sidebar is open" (issue 25): the sidebar's checkForChanges. An
// unchanged table costs one request and no Spreadsheet write; a change comes in through the pull, under
// its rules (a person's edit kept, a conflict marked); a run going on makes the check say so at once.
// Simulator (dist/Code.js) + table-service emulator with the poll.
import { afterEach, describe, expect, it } from 'vitest';
import { installSheetCallCensus, startCensus, stopCensus } from '../../bench/sheet-call-census';
import type { ExecutionResult } from '../../emulators/apps-script';
import type { RequestLogEntry } from '../../emulators/table-service';
import { SCHEMA_RECHECK_MS } from '../../src/core/sync/pull/live-check';
import type { LiveCheckResult, SyncSummary } from '../../src/shared/types';
import { CRM, cellOf, DEALS, logLines, startWorld, typeInto, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function pulledWorld(): Promise<World> {
  const w = await startWorld({ emulator: { poll: 'on' } });
  world = w;
  w.connect();
  w.linkAndPull();
  return w;
}

/** Runs checkForChanges as the sidebar does, with the Spreadsheet calls it made (by method). */
function check(w: World): {
  result: ExecutionResult;
  value: LiveCheckResult;
  sheetCalls: Record<string, number>;
} {
  installSheetCallCensus();
  startCensus();
  const result = w.sim.callFromClient('checkForChanges');
  const sheetCalls = stopCensus();
  expect(result.ok, result.error?.message).toBe(true);
  return { result, value: result.value as LiveCheckResult, sheetCalls };
}

async function checkWithRequests(
  w: World,
): Promise<ReturnType<typeof check> & { requests: RequestLogEntry[] }> {
  await w.emulator.admin.clearLog();
  const checked = check(w);
  return { ...checked, requests: await w.emulator.admin.requestLog() };
}

function describeRequests(log: RequestLogEntry[]): string[] {
  return log.map((entry) => `${entry.method} ${entry.path.replace(/^\/api\/public/, '')}`);
}

const POLL = `GET /tableApps/${CRM}/tables/${DEALS}/rows/updates`;
const SCHEMA = `GET /tableApps/${CRM}/tables/${DEALS}`;

async function firstRowIds(w: World): Promise<string[]> {
  return (await w.serviceRows()).map((row) => String(row.id));
}

describe('a check of an unchanged table', () => {
  it('costs exactly one request (the poll) and writes nothing to the spreadsheet', async () => {
    const w = await pulledWorld();
    const sheetBefore = w.values();
    const logBefore = logLines(w);
    const summaryBefore = w.call<{ lastSummary: SyncSummary | null }>('getState').lastSummary;
    for (let round = 0; round < 3; round++) {
      w.sim.clock.advance(30_000);
      const { result, value, requests, sheetCalls } = await checkWithRequests(w);
      expect(value.state).toBe('up-to-date');
      expect(value.message).toBe('Up to date');
      expect(describeRequests(requests)).toEqual([POLL]);
      expect(result.stats.httpRequests).toBe(1);
      expect(result.stats.cellsWritten).toBe(0);
      // Only what finds the active sheet's id: no read of its cells, no write of any kind.
      expect(Object.keys(sheetCalls).sort()).toEqual([
        'Sheet.getSheetId',
        'Spreadsheet.getActiveSheet',
        'SpreadsheetApp.getActiveSpreadsheet',
      ]);
    }
    expect(w.values()).toEqual(sheetBefore);
    expect(logLines(w)).toEqual(logBefore);
    expect(w.call<{ lastSummary: SyncSummary | null }>('getState').lastSummary).toEqual(summaryBefore);
  });

  it('reads the schema with the poll (one round) every ten minutes, and a column added on the service comes in', async () => {
    const w = await pulledWorld();
    w.sim.clock.advance(SCHEMA_RECHECK_MS);
    const due = await checkWithRequests(w);
    expect(due.value.state).toBe('up-to-date');
    expect(describeRequests(due.requests).sort()).toEqual([POLL, SCHEMA].sort());
    expect(due.result.stats.fetchAllCalls).toBe(1);
    // Read just now: the next check is the poll alone again.
    w.sim.clock.advance(30_000);
    expect(describeRequests((await checkWithRequests(w)).requests)).toEqual([POLL]);

    // A column added touches no row's lMod: the poll alone cannot see it, the schema read does.
    await w.emulator.admin.addColumn(CRM, DEALS, { id: 'region', name: 'Region', type: 'text' });
    w.sim.clock.advance(30_000);
    expect((await checkWithRequests(w)).value.state).toBe('up-to-date');
    w.sim.clock.advance(SCHEMA_RECHECK_MS);
    const added = await checkWithRequests(w);
    expect(added.value.state).toBe('pulled');
    expect(w.values()[0]).toContain('region');
  });
});

describe('a check that finds changes applies them as a pull does', () => {
  it('takes the service change, keeps a person’s edit on another column, and marks a conflict', async () => {
    const w = await pulledWorld();
    const [merged, conflicting] = await firstRowIds(w);
    typeInto(w, merged as string, 'notes', 'typed beside it');
    typeInto(w, conflicting as string, 'status', 'typed here');
    await w.emulator.admin.editRow(CRM, DEALS, merged as string, { status: 'Won on the service' }, 'u_bob');
    await w.emulator.admin.editRow(CRM, DEALS, conflicting as string, { status: 'theirs' }, 'u_bob');
    w.sim.clock.advance(30_000);
    const { value } = await checkWithRequests(w);
    expect(value.state).toBe('pulled');
    // The merged line counts as a kept local edit in the pull's numbers: the headline names the conflict.
    expect(value.message).toBe('1 conflict');
    expect(value.summary?.conflicts).toBe(1);
    expect(cellOf(w, merged as string, 'status')).toBe('Won on the service');
    expect(cellOf(w, merged as string, 'notes')).toBe('typed beside it');
    expect(cellOf(w, conflicting as string, 'status')).toBe('typed here');
    expect(String(cellOf(w, conflicting as string, '_sync'))).toMatch(/conflict: status/);
    // What it brought is the last run on show, and logged like a pull.
    expect(w.call<{ lastSummary: SyncSummary | null }>('getState').lastSummary?.conflicts).toBe(1);
    expect(logLines(w).length).toBeGreaterThan(0);

    // Then it is quiet again: the rows it brought are no change, nothing is written.
    w.sim.clock.advance(30_000);
    const after = await checkWithRequests(w);
    expect(after.value.state).toBe('up-to-date');
    expect(describeRequests(after.requests)).toEqual([POLL]);
    expect(after.result.stats.cellsWritten).toBe(0);
    expect(cellOf(w, merged as string, 'notes')).toBe('typed beside it');
  });

  it('after a push of this sheet, finds its own rows again without writing or replacing the last run', async () => {
    const w = await pulledWorld();
    const [edited] = await firstRowIds(w);
    typeInto(w, edited as string, 'status', 'pushed from here');
    const pushed = w.call<SyncSummary>('pushActiveSheet');
    expect(pushed.updated).toBe(1);
    const logged = logLines(w).length;
    w.sim.clock.advance(30_000);
    const { value, result } = await checkWithRequests(w);
    expect(value.state).toBe('pulled');
    expect(value.message).toBe('Up to date');
    expect(result.stats.cellsWritten).toBe(0);
    expect(w.call<{ lastSummary: SyncSummary | null }>('getState').lastSummary?.operation).toBe('push');
    expect(logLines(w)).toHaveLength(logged);
    w.sim.clock.advance(30_000);
    expect(describeRequests((await checkWithRequests(w)).requests)).toEqual([POLL]);
  });
});

describe('one run at a time', () => {
  it('a check that finds a run going says so at once, asks nothing, and the next check goes', async () => {
    const w = await pulledWorld();
    await w.emulator.admin.editRow(
      CRM,
      DEALS,
      (await firstRowIds(w))[0] as string,
      { status: 'later' },
      'u_bob',
    );
    w.sim.holdDocumentLock(w.sim.clock.now() + 60_000);
    const started = w.sim.clock.now();
    const busy = await checkWithRequests(w);
    expect(busy.value.state).toBe('busy');
    expect(busy.value.message).toBe('A sync of this spreadsheet is running: the next check looks again.');
    expect(busy.requests).toEqual([]);
    expect(w.sim.clock.now() - started).toBeLessThan(2_000);
    w.sim.clock.advance(60_000);
    expect((await checkWithRequests(w)).value.state).toBe('pulled');
  });

  it('on a sheet that is not linked says so, and asks nothing', async () => {
    const w = await pulledWorld();
    const logged = logLines(w);
    w.sim.spreadsheet.insertSheet('Other');
    const { value, requests, result } = await checkWithRequests(w);
    expect(value.state).toBe('not-linked');
    expect(requests).toEqual([]);
    expect(result.stats.cellsWritten).toBe(0);
    expect(logLines(w)).toEqual(logged);
  });
});

describe('a service without the poll', () => {
  it('is said once and the check lists nothing (Pull still works)', async () => {
    const w = await startWorld({ emulator: { poll: 'off' } });
    world = w;
    w.connect();
    w.linkAndPull();
    // A pull that listed the whole table never asked the poll: the first check does, once.
    const first = await checkWithRequests(w);
    expect(first.value.state).toBe('unavailable');
    expect(first.value.message).toMatch(/cannot say what changed since a time/);
    expect(describeRequests(first.requests)).toEqual([POLL]);
    expect(first.result.stats.cellsWritten).toBe(0);
    // Remembered with the connection: not asked again (for a day), and the table is never listed.
    w.sim.clock.advance(30_000);
    const next = await checkWithRequests(w);
    expect(next.value.state).toBe('unavailable');
    expect(next.requests).toEqual([]);
  });
});
