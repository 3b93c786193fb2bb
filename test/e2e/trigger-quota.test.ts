// The daily trigger runtime quota: the simulator stops running a user's clock triggers once their
// runtime today reaches 90 minutes (Google's message), and the schedule picker estimates the daily
// runtime of each interval from the link's recent runs and warns before one would use it up.
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONSUMER_TRIGGER_RUNTIME_MS,
  createSimulator,
  TRIGGER_RUNTIME_MESSAGE,
  WORKSPACE_TRIGGER_RUNTIME_MS,
} from '../../emulators/apps-script';
import { startWorld, type World } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('simulator: trigger runtime quota', () => {
  const code = [
    'function install() { ScriptApp.newTrigger("work").timeBased().everyMinutes(10).create(); }',
    'function work() { Utilities.sleep(5 * 60 * 1000); return "done"; }',
  ].join('\n');

  it('runs 90 minutes of triggers a day, then refuses with Google’s message until the day resets', () => {
    const sim = createSimulator({ code, countRealTime: false, startTime: Date.UTC(2024, 0, 1) });
    expect(sim.run('install').ok).toBe(true);
    const day = sim.advanceAndFire(4 * HOUR);
    const ran = day.filter((result) => result.ok);
    const refused = day.filter((result) => !result.ok);
    // 18 runs of 5 minutes = 90 minutes; every later firing that day is refused.
    expect(ran).toHaveLength(CONSUMER_TRIGGER_RUNTIME_MS / (5 * MINUTE));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((result) => result.error?.message === TRIGGER_RUNTIME_MESSAGE)).toBe(true);
    expect(TRIGGER_RUNTIME_MESSAGE).toBe('Service using too much computer time for one day.');
    // 24 hours after the first run the quota starts again.
    const nextDay = sim.advanceAndFire(21 * HOUR);
    expect(nextDay.filter((result) => result.ok).length).toBeGreaterThan(0);
  });

  it('a Workspace account gets 6 hours', () => {
    const sim = createSimulator({
      code,
      countRealTime: false,
      triggerRuntimeDailyMs: WORKSPACE_TRIGGER_RUNTIME_MS,
    });
    sim.run('install');
    const fired = sim.advanceAndFire(4 * HOUR);
    // More runs of 5 minutes than a consumer account's 90 minutes allow, and every one ran.
    expect(fired.length).toBeGreaterThan(CONSUMER_TRIGGER_RUNTIME_MS / (5 * MINUTE));
    expect(fired.every((result) => result.ok)).toBe(true);
  });
});

interface Use {
  triggerMinutes: number | null;
  urlFetches: number | null;
  refusal: string | null;
}
interface Interval {
  every: string;
  minutesPerDay?: number | null;
  quotaWarning?: string | null;
  use?: Record<'pull' | 'push' | 'sync', Use>;
}
interface State {
  scheduleOptions: { intervals: Interval[]; runSeconds?: number | null; quotaMinutesPerDay?: number };
}

describe('schedule picker: estimated daily runtime', () => {
  it('shows no estimate before a first run', async () => {
    world = await startWorld();
    world.connect();
    world.call('linkActiveSheet', { tableAppId: 'ta_crm', tableId: 'tbl_deals' });
    const state = world.call<State>('getState');
    expect(state.scheduleOptions.runSeconds).toBeNull();
    expect(state.scheduleOptions.intervals.map((each) => each.every)).toEqual(
      expect.arrayContaining(['m1', 'h1']),
    );
    expect(state.scheduleOptions.intervals.every((each) => !each.minutesPerDay)).toBe(true);
  });

  it('estimates from recent runs and refuses an interval that would use up 90 minutes a day', async () => {
    // Each request takes 5 simulated seconds, so a pull takes several seconds.
    world = await startWorld({ simulator: { costs: { httpLatencyMs: 5_000 } } });
    const w = world;
    w.connect();
    w.linkAndPull();
    w.call('pullActiveSheet');
    const state = w.call<State>('getState');
    const runSeconds = state.scheduleOptions.runSeconds ?? 0;
    expect(runSeconds).toBeGreaterThan(4);
    expect(state.scheduleOptions.quotaMinutesPerDay).toBe(90);
    const byEvery = new Map(state.scheduleOptions.intervals.map((each) => [each.every, each]));
    const everyMinute = byEvery.get('m1')?.use?.pull;
    expect(everyMinute?.triggerMinutes).toBeGreaterThanOrEqual(Math.floor((1440 * runSeconds) / 60));
    expect(everyMinute?.refusal).toMatch(/^The schedule was not turned on\. .*trigger time/);
    const hourly = byEvery.get('h1')?.use?.pull;
    expect(hourly?.triggerMinutes).toBe(Math.ceil((24 * runSeconds) / 60));
    expect(hourly?.refusal).toBeNull();
    expect(byEvery.get('d9')?.use?.pull.triggerMinutes).toBe(Math.ceil(runSeconds / 60));
    // Saving such a schedule is refused on the server, and leaves no trigger behind.
    const refused = w.sim.callFromClient('setSchedule', [{ mode: 'pull', every: 'm1' }]);
    expect(refused.error?.message).toMatch(
      /was not turned on.*Choose a longer interval \(every \d+ minutes fits\)/,
    );
    expect(w.sim.triggers()).toHaveLength(0);
    const fine = w.call<{ quotaWarning?: string | null }>('setSchedule', { mode: 'pull', every: 'h1' });
    expect(fine.quotaWarning).toBeNull();
  });
});
