// Whose key acts: a bound script says plainly, where a key or a schedule is saved, that other
// editors could run code as the person; the sidebar says whose key runs the schedule; link options
// and resuming need the caller's own connection; resuming another person's schedule makes it theirs.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../emulators/apps-script';
import { CRM, DEALS, startWorld, type World } from './world';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const MINUTE = 60_000;

interface Schedule {
  paused: boolean;
  ownerName?: string;
  ownedByYou?: boolean;
  notice?: string | null;
  keySafetyWarning?: string | null;
}
interface State {
  keySafety?: { installation: string; warning: string | null };
  schedule: Schedule | null;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function as(w: World, user: string, fn: string, ...args: unknown[]): ExecutionResult {
  return w.sim.callFromClient(fn, args, { user });
}

function ok<T>(result: ExecutionResult): T {
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as T;
}

describe('key safety in a bound script', () => {
  it('warns where a key or a schedule is saved', async () => {
    world = await startWorld();
    const w = world;
    const state = w.call<State>('getState');
    expect(state.keySafety?.installation).toBe('bound');
    expect(state.keySafety?.warning).toMatch(/every editor of the spreadsheet can change its code/);
    expect(state.keySafety?.warning).toMatch(/install Table App Sync as an add-on/);
    const connected = w.call<{ keySafetyWarning?: string | null }>('saveConnection', {
      baseUrl: w.emulator.url,
      apiKey: w.emulator.keys.u_alice,
    });
    expect(connected.keySafetyWarning).toBe(state.keySafety?.warning);
    w.linkAndPull();
    const schedule = w.call<Schedule>('setSchedule', { mode: 'pull', every: 'h1' });
    expect(schedule.keySafetyWarning).toBe(state.keySafety?.warning);
  });

  it('says nothing of the kind in an installed add-on', async () => {
    world = await startWorld({ simulator: { installation: 'addon' } });
    const w = world;
    expect(w.call<State>('getState').keySafety).toEqual({ installation: 'addon', warning: null });
    const connected = w.call<{ keySafetyWarning?: string | null }>('saveConnection', {
      baseUrl: w.emulator.url,
      apiKey: w.emulator.keys.u_alice,
    });
    expect(connected.keySafetyWarning).toBeNull();
  });
});

describe('whose key runs the schedule', () => {
  async function sharedWorld(): Promise<World> {
    world = await startWorld({ simulator: { users: [{ email: ALICE }, { email: BOB }] } });
    const w = world;
    ok(as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice }));
    ok(as(w, ALICE, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS }));
    ok(as(w, ALICE, 'pullActiveSheet'));
    ok(as(w, ALICE, 'setSchedule', { mode: 'pull', every: 'm1' }));
    return w;
  }

  it('the sidebar says whose key runs it, to its owner and to everyone else', async () => {
    const w = await sharedWorld();
    const mine = ok<State>(as(w, ALICE, 'getState')).schedule;
    expect(mine).toMatchObject({ ownedByYou: true });
    expect(mine?.ownerName).toContain('alice@acme.test');
    const theirs = ok<State>(as(w, BOB, 'getState')).schedule;
    expect(theirs?.ownedByYou).toBe(false);
    expect(theirs?.ownerName).toContain('alice@acme.test');
  });

  it('changing link options needs the caller’s own connection', async () => {
    const w = await sharedWorld();
    const refused = as(w, BOB, 'setLinkOptions', { showEmails: true });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toMatch(/Not connected yet/);
    ok(as(w, BOB, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_bob }));
    ok(as(w, BOB, 'setLinkOptions', { showEmails: true }));
  });

  it('resuming another person’s paused schedule needs a connection and says it becomes yours', async () => {
    const w = await sharedWorld();
    // Alice disconnects: her scheduled runs fail until the schedule pauses itself.
    ok(as(w, ALICE, 'disconnect'));
    w.sim.advanceAndFire(12 * MINUTE);
    expect(ok<State>(as(w, BOB, 'getState')).schedule?.paused).toBe(true);
    expect(w.sim.triggers().filter((t) => t.source === 'CLOCK')).toEqual([]);

    const unconnected = as(w, BOB, 'resumeSchedule');
    expect(unconnected.ok).toBe(false);
    expect(unconnected.error?.message).toMatch(/Not connected yet/);

    ok(as(w, BOB, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_bob }));
    const resumed = ok<Schedule>(as(w, BOB, 'resumeSchedule'));
    expect(resumed.notice).toMatch(/This schedule was set by .*alice@acme\.test.* It is yours now/);
    expect(resumed).toMatchObject({ paused: false, ownedByYou: true });
    expect(resumed.ownerName).toContain('bob@acme.test');
    const triggers = w.sim.triggers().filter((t) => t.source === 'CLOCK');
    expect(triggers.map((t) => t.owner)).toEqual([BOB]);
    // It runs with Bob's key now.
    const fired = w.sim.advanceAndFire(MINUTE);
    expect(fired.length).toBeGreaterThan(0);
    expect(fired.every((run) => run.ok)).toBe(true);
    expect(ok<State>(as(w, ALICE, 'getState')).schedule?.ownedByYou).toBe(false);
  });

  it('resuming one’s own paused schedule says nothing about owners', async () => {
    const w = await sharedWorld();
    ok(as(w, ALICE, 'disconnect'));
    w.sim.advanceAndFire(12 * MINUTE);
    ok(as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice }));
    const resumed = ok<Schedule>(as(w, ALICE, 'resumeSchedule'));
    expect(resumed.notice).toBeNull();
    expect(resumed.ownedByYou).toBe(true);
  });
});
