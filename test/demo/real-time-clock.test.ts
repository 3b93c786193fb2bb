// The playground's simulated clock follows real time between clicks in `npm run demo` (issue 26, point
// 9: every log line said 15:43 while the service said 15:50). The real clock is injected, so the test
// moves it by hand: no waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../demo/playground-server';

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
