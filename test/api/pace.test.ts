// The pacer alone, on a stepped clock: both rolling windows held (never more than 60 in any minute
// nor 1,800 in any hour once the limits are known), a kept state that is small and checked, and the
// estimate of how long the rest takes.

import { describe, expect, it } from 'vitest';
import { freshPace, Pacer, PLATFORM_WINDOWS, paceStateOf } from '../../src/api/pace';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A pacer that knows the service limits requests (one 429 seen at T0, its pause over). */
function limitedPacer(): Pacer {
  const pacer = new Pacer();
  pacer.answered(1, 1, T0, T0);
  return pacer;
}

/** Sends `wanted` requests a round as fast as the pacer allows, 400 ms a round; returns the send times. */
function sendFor(pacer: Pacer, start: number, until: number, wanted = 10): number[] {
  const sent: number[] = [];
  let now = start;
  while (now < until) {
    const gate = pacer.admit(wanted, now);
    if (gate.waitMs > 0) {
      now += gate.waitMs;
      continue;
    }
    for (let i = 0; i < gate.send; i++) sent.push(now);
    now += 400;
    pacer.answered(gate.send, 0, now, now - 400);
  }
  return sent;
}

function most(sent: readonly number[], windowMs: number): number {
  let best = 0;
  let from = 0;
  for (let to = 0; to < sent.length; to++) {
    while ((sent[to] as number) - (sent[from] as number) >= windowMs) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

describe('a pacer that knows the service limits requests', () => {
  it('never sends more than 60 in any minute nor 1,800 in any hour, and comes close to both', () => {
    const pacer = limitedPacer();
    const sent = sendFor(pacer, T0 + MINUTE, T0 + 2 * HOUR);
    expect(most(sent, MINUTE)).toBeLessThanOrEqual(60);
    expect(most(sent, HOUR)).toBeLessThanOrEqual(1_800);
    // The hour's 1,800 are reached (in about half an hour at 60 a minute), not wasted.
    expect(most(sent, HOUR)).toBeGreaterThanOrEqual(1_700);
    expect(most(sent, MINUTE)).toBeGreaterThanOrEqual(55);
  });

  it('keeps a state under 4 KB that a new pacer continues from', () => {
    const pacer = limitedPacer();
    const until = T0 + 45 * MINUTE;
    sendFor(pacer, T0 + MINUTE, until);
    const kept = pacer.state(until);
    expect(JSON.stringify(kept).length).toBeLessThan(4_000);
    // A later execution with the kept state waits as this one would.
    const again = new Pacer(JSON.parse(JSON.stringify(kept)));
    expect(again.admit(10, until + 1_000)).toEqual(pacer.admit(10, until + 1_000));
  });

  it('estimates the rest at the pace the windows allow', () => {
    const pacer = limitedPacer();
    const estimate = pacer.estimateMs(600, T0 + MINUTE) ?? 0;
    expect(estimate).toBeGreaterThanOrEqual(9 * MINUTE);
    expect(estimate).toBeLessThanOrEqual(11 * MINUTE);
    // Past the hour's 1,800 the estimate counts the hour too.
    expect(pacer.estimateMs(2_000, T0 + MINUTE) ?? 0).toBeGreaterThanOrEqual(HOUR);
  });
});

describe('a pacer that does not know the service yet', () => {
  it('sends the one request past the limit with the round the budget ends in: 5 left and 10 wanted, 6 go', () => {
    const pacer = new Pacer();
    pacer.answered(55, 0, T0 + 3_000, T0 + 2_600);
    expect(pacer.admit(10, T0 + 3_000)).toEqual({ send: 6, waitMs: 0 });
    // No 429 among 61 requests the service surely counted in one minute: it has no such limit.
    pacer.answered(6, 0, T0 + 3_400, T0 + 3_000);
    expect(pacer.mode).toBe('unlimited');
    expect(pacer.admit(100, T0 + 3_400)).toEqual({ send: 100, waitMs: 0 });
  });

  it('learns the limits from a 429 in that round, and then keeps to them', () => {
    const pacer = new Pacer();
    pacer.answered(55, 0, T0 + 3_000, T0 + 2_600);
    expect(pacer.admit(10, T0 + 3_000).send).toBe(6);
    pacer.answered(6, 1, T0 + 3_400, T0 + 3_000);
    expect(pacer.mode).toBe('limited');
    expect(pacer.admit(10, T0 + 3_400).waitMs).toBeGreaterThanOrEqual(MINUTE);
  });

  it('takes a request past the limit as proof only if the requests before it were surely still counted', () => {
    // 60 answered at T0, then the one request past them sent at `sentAt`, answered 0.4 s later.
    const modeAfterOnePast = (sentAt: number): string => {
      const pacer = new Pacer();
      pacer.answered(60, 0, T0 + 400, T0);
      expect(pacer.admit(10, sentAt)).toEqual({ send: 1, waitMs: 0 });
      pacer.answered(1, 0, sentAt + 400, sentAt);
      return pacer.mode;
    };
    // Sent 59.8 s after the 60: the service may have taken it after they left its minute, so its
    // going through proves nothing.
    expect(modeAfterOnePast(T0 + MINUTE - 200)).toBe('unknown');
    // The same request sent a second earlier is proof.
    expect(modeAfterOnePast(T0 + MINUTE - 1_200)).toBe('unlimited');
  });

  it('believes a service has no limits for a day, then finds out again with one request past them', () => {
    const pacer = new Pacer();
    pacer.answered(60, 0, T0 + 400, T0);
    expect(pacer.admit(10, T0 + 400).send).toBe(1);
    pacer.answered(1, 0, T0 + 800, T0 + 400);
    expect(pacer.mode).toBe('unlimited');
    const dayLater = T0 + 24 * HOUR + 1_000;
    // Seventy in the last minute, more than the platform's 60: still one request, never none.
    pacer.answered(70, 0, dayLater, dayLater - 400);
    expect(pacer.admit(10, dayLater)).toEqual({ send: 1, waitMs: 0 });
    expect(pacer.mode).toBe('unknown');
    pacer.answered(1, 1, dayLater + 400, dayLater);
    expect(pacer.mode).toBe('limited');
  });
});

describe('a kept state', () => {
  it.each([
    null,
    'x',
    42,
    {},
    { mode: 'limited' },
    { ...freshPace(), seconds: [[1, 'a', 3]] },
    { ...freshPace(), mode: 'odd' },
  ])('that is not a pace state (%j) gives a fresh pacer, never an error', (value) => {
    expect(paceStateOf(value)).toEqual(freshPace());
  });

  it('of an earlier version (with its proof count `beyond`) is kept without it', () => {
    const earlier = { ...freshPace(), mode: 'limited', learnedAt: T0, beyond: 3 };
    expect(paceStateOf(earlier)).toEqual({ ...freshPace(), mode: 'limited', learnedAt: T0 });
  });

  it('uses the platform’s windows: 60 a minute and 1,800 an hour', () => {
    expect(PLATFORM_WINDOWS).toEqual([
      { windowMs: MINUTE, max: 60 },
      { windowMs: HOUR, max: 1_800 },
    ]);
  });
});
