// The playground's simulated clock follows real time between clicks in `npm run demo` (issue 26, point
// 9: every log line said 15:43 while the service said 15:50). The real clock is injected, so the test
// moves it by hand: no waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, SAMPLE, startHarness } from '../../demo/playground-server';

const START = Date.UTC(2026, 10, 25, 15, 43);
let realNow = START;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ realTime: () => realNow });
});

afterAll(async () => {
  await h?.close();
});

/** The page's clock to the minute (the script's own run time adds milliseconds of simulated time). */
async function gridNow(): Promise<{ now: string; clockFollowsRealTime: boolean }> {
  const grid = (await (await fetch(`${h.url}/grid`)).json()) as {
    now: string;
    clockFollowsRealTime: boolean;
  };
  return { now: grid.now.slice(0, 16), clockFollowsRealTime: grid.clockFollowsRealTime };
}

describe('the playground clock in real time', () => {
  it('moves by the real time passed since the last request, and Advance still jumps it', async () => {
    expect(await gridNow()).toEqual({ now: '2026-11-25T15:43', clockFollowsRealTime: true });
    realNow += 7 * 60_000;
    expect((await gridNow()).now).toBe('2026-11-25T15:50');
    const advanced = await fetch(`${h.url}/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ minutes: 60 }),
    });
    expect(((await advanced.json()) as { now: string }).now.slice(0, 16)).toBe('2026-11-25T16:50');
    realNow += 60_000;
    expect((await gridNow()).now).toBe('2026-11-25T16:51');
    // Logged times come from the same clock.
    expect(new Date(h.sim.clock.now()).toISOString().slice(0, 16)).toBe('2026-11-25T16:51');
  });
});

describe('schedules that fire as the clock follows real time', () => {
  it('are said once each, a failure as a failure (issue 35, point 8)', async () => {
    const call = (fn: string, args: unknown[] = []): void => {
      const result = h.sim.callFromClient(fn, args);
      if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
    };
    call('connectFromSidebar', [{ baseUrl: h.emulator.url, apiKey: h.keys[SAMPLE.users.alice] }]);
    call('linkActiveSheet', [{ tableAppId: SAMPLE.apps.crm, tableId: SAMPLE.tables.deals }]);
    call('setSchedule', [{ mode: 'pull', every: 'm5' }]);
    await h.emulator.admin.expireToken(h.keys[SAMPLE.users.alice] as string);
    realNow += 6 * 60_000;
    const grid = (await (await fetch(`${h.url}/grid`)).json()) as { scheduled: unknown };
    expect(grid.scheduled).toEqual({
      id: 1,
      fired: 1,
      failed: true,
      said: expect.stringMatching(
        /^As the clock followed real time: 1 scheduled run fired and failed\. The last failure said: “Your API key is not valid.*1 mail sent: see the Outbox\.$/,
      ),
    });
  });
});
