// Quotas planned, not discovered (issue 25): each run records its requests and whether it listed the
// whole table; a schedule or live sync that would use up the day's URL fetch calls or trigger time is
// refused on the server with what to pick instead; the account kind is the person's; the Sync log
// shows the day's use. Simulator (dist/Code.js) + table-service emulator.
import { afterEach, describe, expect, it } from 'vitest';
import type { QuotaUse, SyncSummary as Summary } from '../../src/shared/types';
import { CRM, DEALS, startWorld, type World } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface Recorded {
  operation: string;
  seconds: number;
  requests?: number;
  fullListing?: boolean;
}

function sheetIdOf(w: World): number {
  return w.sim.spreadsheet.getActiveSheet().getSheetId();
}

function recordedRuns(w: World): Recorded[] {
  return JSON.parse(w.sim.properties('document')[`tas.runtimes.${sheetIdOf(w)}`] ?? '[]') as Recorded[];
}

/** The link's recent runs as a 10,000-row table's: a full listing of 101 requests, then pulls by poll. */
function recordRuns(w: World, runs: Recorded[]): void {
  w.sim.writeProperty('document', `tas.runtimes.${sheetIdOf(w)}`, JSON.stringify(runs));
}

const LISTING: Recorded = { operation: 'pull', seconds: 11, requests: 101, fullListing: true };
const BY_POLL: Recorded = { operation: 'pull', seconds: 1.5, requests: 2, fullListing: false };

describe('each run records what it cost', () => {
  it('a first pull lists the whole table, the next one by poll reads only changes', async () => {
    const w = await startWorld({ emulator: { poll: 'on' } });
    world = w;
    w.connect();
    w.linkAndPull();
    w.call('pullActiveSheet');
    const [first, second] = recordedRuns(w);
    expect(first).toMatchObject({ operation: 'pull', fullListing: true });
    expect(second).toMatchObject({ operation: 'pull', fullListing: false });
    expect(first?.requests).toBeGreaterThan(0);
    expect(second?.requests).toBeGreaterThan(0);
  });
});

describe('a schedule that would use up the day’s URL fetch calls', () => {
  it('is refused on the server, naming a longer interval, the poll and Workspace; Workspace takes it', async () => {
    const w = await startWorld();
    world = w;
    w.connect();
    w.linkAndPull();
    recordRuns(w, [LISTING, LISTING]);
    const refused = w.sim.callFromClient('setSchedule', [{ mode: 'pull', every: 'm5' }]);
    const message = refused.error?.message ?? '';
    expect(message).toMatch(
      /^The schedule was not turned on\. A day: about 29,088 URL fetch calls \(146% of 20,000\)/,
    );
    expect(message).toMatch(/about 16 h 30 min into the day/);
    expect(message).toMatch(/a longer interval \(every 10 minutes fits\)/);
    expect(message).toMatch(/the poll for row updates/);
    expect(message).toMatch(/Google Workspace/);
    expect(message).not.toMatch(/tas_|apiKey|key_/);
    expect(w.sim.triggers()).toHaveLength(0);
    expect(w.call<{ schedule: unknown }>('getState').schedule).toBeNull();

    w.call('setAccountKind', 'workspace');
    const set = w.call<{ every: string }>('setSchedule', { mode: 'pull', every: 'm5' });
    expect(set.every).toBe('m5');
    expect(w.sim.triggers()).toHaveLength(1);
  });

  it('fits on a service with the poll: one listing a day, then runs that read only changes', async () => {
    const w = await startWorld();
    world = w;
    w.connect();
    w.linkAndPull();
    recordRuns(w, [LISTING, BY_POLL, BY_POLL]);
    // The connection found the poll (as a connection to a service that has it records).
    const key = 'tas.connection';
    const info = JSON.parse(w.sim.properties('user')[key] as string) as Record<string, unknown>;
    w.sim.writeProperty(
      'user',
      key,
      JSON.stringify({ ...info, poll: { supported: true, checkedAt: new Date().toISOString() } }),
    );
    const state = w.call<{
      scheduleOptions: { intervals: Array<{ every: string; use?: Record<string, QuotaUse> }> };
    }>('getState');
    const fiveMinutes = state.scheduleOptions.intervals.find((each) => each.every === 'm5')?.use?.pull;
    expect(fiveMinutes?.urlFetches).toBe(287 * 2 + 101);
    expect(fiveMinutes?.refusal).toBeNull();
    expect(w.call<{ every: string }>('setSchedule', { mode: 'pull', every: 'm5' }).every).toBe('m5');
  });
});

describe('the account kind', () => {
  it('is the person’s own, and refuses anything but the two kinds with what to choose', async () => {
    const w = await startWorld();
    world = w;
    w.connect();
    w.linkAndPull();
    expect(w.sim.callFromClient('setAccountKind', ['enterprise']).error?.message).toMatch(
      /Choose "Google account" \(gmail\.com\) or "Google Workspace"/,
    );
    w.call('setAccountKind', 'workspace');
    expect(w.sim.properties('user')['tas.accountKind']).toBe('workspace');
    expect(w.sim.properties('document')['tas.accountKind']).toBeUndefined();
    const options = w.call<{ scheduleOptions: { accountKind: string; quotaMinutesPerDay: number } }>(
      'getState',
    );
    expect(options.scheduleOptions).toMatchObject({ accountKind: 'workspace', quotaMinutesPerDay: 360 });
  });
});

describe('live sync', () => {
  it('planLiveSync says what the sidebar’s checks and typed pushes use, and refuses what runs out', async () => {
    const w = await startWorld();
    world = w;
    w.connect();
    w.linkAndPull();
    recordRuns(w, [LISTING, BY_POLL, { operation: 'push', seconds: 2, requests: 3 }]);
    const modest = w.call<QuotaUse>('planLiveSync', { sidebarHours: 8, typedPushes: 100 });
    expect(modest.urlFetches).toBe(8 * 120 + 100 * 3);
    expect(modest.refusal).toBeNull();
    expect(modest.usage).toMatch(/^A day: about 1,260 URL fetch calls/);
    const heavy = w.call<QuotaUse>('planLiveSync', { sidebarHours: 24, typedPushes: 6_000 });
    expect(heavy.refusal).toMatch(/^Live sync was not turned on\..*trigger time/);
    expect(w.sim.callFromClient('planLiveSync', [{ sidebarHours: 30 }]).error?.message).toMatch(
      /from 0 to 24 \(got 30\)/,
    );
  });
});

describe('"Send edits as I type" that would use up the day’s trigger time', () => {
  it('is refused on the server before its trigger is made; a modest plan turns it on', async () => {
    const w = await startWorld();
    world = w;
    w.connect();
    w.linkAndPull();
    const editTriggers = () => w.sim.triggers().filter((trigger) => trigger.eventType === 'ON_EDIT');
    // Pushes of 30 s: a day of typing (200 pushes, the plan's guess) takes 100 of the 90 minutes.
    recordRuns(w, [LISTING, BY_POLL, { operation: 'push', seconds: 30, requests: 3 }]);
    const refused = w.sim.callFromClient('setLinkOptions', [{ live: true }]);
    expect(refused.error?.message).toMatch(/^Live sync was not turned on\..*trigger time/);
    expect(editTriggers()).toEqual([]);
    recordRuns(w, [LISTING, BY_POLL, { operation: 'push', seconds: 2, requests: 3 }]);
    expect(w.sim.callFromClient('setLinkOptions', [{ live: true }]).ok).toBe(true);
    expect(editTriggers()).toHaveLength(1);
  });
});

describe('the Sync log shows the day’s use', () => {
  it('counts clean pulls from the sidebar, which it does not list, and scheduled runs’ trigger minutes, until the quota day ends', async () => {
    const w = await startWorld({ simulator: { costs: { httpLatencyMs: 6_000 }, countRealTime: false } });
    world = w;
    w.connect();
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
    // Two clean pulls from the sidebar: no row of their own (no Sync log sheet yet), their requests counted.
    const manual = [w.call<Summary>('pullActiveSheet'), w.call<Summary>('pullActiveSheet')];
    expect(manual.map((summary) => summary.ok)).toEqual([true, true]);
    expect(w.sim.spreadsheet.getSheetByName('Sync log')).toBeNull();
    const manualRequests = manual.reduce((sum, summary) => sum + summary.requests, 0);
    expect(manualRequests).toBeGreaterThan(0);
    w.call('setSchedule', { mode: 'pull', every: 'h1' });
    w.sim.advanceAndFire(HOUR);
    const log = w.values('Sync log');
    const header = log[0] as string[];
    const fetchesAt = header.indexOf('Fetch calls today');
    const minutesAt = header.indexOf('Trigger minutes today');
    const requestsAt = header.indexOf('Requests');
    const secondsAt = header.indexOf('Seconds');
    const runAt = header.indexOf('Run');
    expect(fetchesAt).toBeGreaterThan(0);
    const rows = log.slice(1);
    // The scheduled pull alone is listed, with the day's use of all three runs.
    expect(rows.map((row) => row[runAt])).toEqual(['scheduled']);
    const scheduled = rows[0] as unknown[];
    expect(Number(scheduled[fetchesAt])).toBe(manualRequests + Number(scheduled[requestsAt]));
    // Runs from the sidebar are not triggers; the scheduled one is.
    expect(Number(scheduled[minutesAt])).toBeCloseTo(Number(scheduled[secondsAt]) / 60, 1);
    expect(Number(scheduled[minutesAt])).toBeGreaterThan(0);
    // The day-use headers are written with the log's first row, though the day began unlogged.
    expect(
      w.sim.spreadsheet
        .getSheetByName('Sync log')
        ?.getRange(1, fetchesAt + 1)
        .getNote(),
    ).toContain('quota day');

    // A day after the first run the quotas start again, and so does the count: a push from the sidebar
    // is listed (what was written to the service), with its own requests only.
    w.call('clearSchedule');
    w.sim.clock.advance(24 * HOUR);
    const push = w.call<Summary>('pushActiveSheet');
    expect(push.ok).toBe(true);
    const last = w.values('Sync log').at(-1) as unknown[];
    expect(last[runAt]).toBe('manual');
    expect(Number(last[fetchesAt])).toBe(Number(last[requestsAt]));
    expect(Number(last[minutesAt])).toBe(0);
  });

  it('gives a log from before the day’s use its two headers with the first row logged, though the day began unlogged', async () => {
    const w = await startWorld();
    world = w;
    const old = w.sim.spreadsheet.insertSheet('Sync log');
    old.getRange(1, 1, 1, 2).setValues([['When (spreadsheet time)', 'Sheet']]);
    w.sim.spreadsheet.setActiveSheet(w.sim.spreadsheet.getSheets()[0] as typeof old);
    w.connect();
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
    expect(w.call<Summary>('pullActiveSheet').ok).toBe(true);
    expect(old.getLastRow()).toBe(1);
    expect(old.getRange(1, 15).getValue()).toBe('');
    expect(w.call<Summary>('pushActiveSheet').ok).toBe(true);
    expect(old.getRange(1, 15, 1, 2).getValues()[0]).toEqual(['Fetch calls today', 'Trigger minutes today']);
    expect(old.getLastRow()).toBe(2);
  });
});
