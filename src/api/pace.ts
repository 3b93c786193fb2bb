// Pacing against the platform's rolling windows (table-api.md, "Errors and limits the real service may
// have": 60 requests a minute, 1,800 an hour, 429 with no Retry-After). The pacer counts the requests
// this connection sent in each window and lets through only what fits, so the service need not refuse.

/** A rolling window: at most `max` requests in any `windowMs`. */
export interface RateWindow {
  windowMs: number;
  max: number;
}

/** The platform's windows: 60 requests a minute and 1,800 an hour, both enforced. */
export const PLATFORM_WINDOWS: readonly RateWindow[] = [
  { windowMs: 60_000, max: 60 },
  { windowMs: 3_600_000, max: 1_800 },
];

/**
 * What the pacer knows of the service: `unknown` (it sends freely up to the platform's limits, then
 * one request past them to find out), `limited` (a 429 without Retry-After came: it never goes past
 * the limits), `unlimited` (a request surely past them went through: it sends freely, and asks again
 * after a day).
 */
export type PaceMode = 'unknown' | 'limited' | 'unlimited';

/** The pacer's memory, JSON-safe and small (about 130 buckets at most): kept per connection across executions. */
export interface PaceState {
  mode: PaceMode;
  /** When the mode was learnt (ms since the epoch). */
  learnedAt: number;
  /**
   * Requests of the last minute or so, as [start ms of the second their answers arrived in, count,
   * when the earliest of them was sent], oldest first.
   */
  seconds: Array<[number, number, number]>;
  /** Older requests, as [minute start ms, count], oldest first (dropped once the longest window let them go). */
  minutes: Array<[number, number]>;
  /** 429s without Retry-After in a row: each doubles the backoff (a minute, then longer). */
  strikes: number;
  /** Nothing is sent before this time (ms), set by a 429 without Retry-After. */
  pausedUntil: number;
  /**
   * After a 429 the windows held more than this pacer counted (another client of the same key?):
   * rounds may hold this many requests at most, doubling after each round that went through (0: no cap).
   */
  ramp: number;
}

/** How long `unlimited` is believed before the pacer finds out again. */
export const UNLIMITED_BELIEVED_MS = 24 * 3_600_000;
/** The first backoff after a 429 without Retry-After; it doubles with each one in a row. */
export const RATE_LIMIT_BACKOFF_MS = 60_000;
/** The backoff after 429s without Retry-After never grows past this. */
export const MAX_RATE_LIMIT_BACKOFF_MS = 3_600_000;

const SECOND = 1_000;
const MINUTE = 60_000;

/** Backoff after the `strikes`-th 429 without Retry-After in a row: 1 min, 2, 4, … up to 1 h. */
export function rateLimitBackoff(strikes: number): number {
  return Math.min(MAX_RATE_LIMIT_BACKOFF_MS, RATE_LIMIT_BACKOFF_MS * 2 ** Math.max(0, strikes - 1));
}

/** A fresh state: nothing known, nothing sent. */
export function freshPace(): PaceState {
  return {
    mode: 'unknown',
    learnedAt: 0,
    seconds: [],
    minutes: [],
    strikes: 0,
    pausedUntil: 0,
    ramp: 0,
  };
}

/**
 * A stored state if it has the right shape, else a fresh one (a stored value is never trusted
 * blindly). Members it does not know (`beyond`, the proof's count of earlier versions) are dropped.
 */
export function paceStateOf(value: unknown): PaceState {
  const v = value as Partial<PaceState> | null;
  const modes: PaceMode[] = ['unknown', 'limited', 'unlimited'];
  const ok =
    typeof v === 'object' &&
    v !== null &&
    modes.includes(v.mode as PaceMode) &&
    typeof v.learnedAt === 'number' &&
    typeof v.strikes === 'number' &&
    typeof v.pausedUntil === 'number' &&
    typeof v.ramp === 'number' &&
    isBuckets(v.seconds, 3) &&
    isBuckets(v.minutes, 2);
  if (!ok) return freshPace();
  const { mode, learnedAt, seconds, minutes, strikes, pausedUntil, ramp } = v as PaceState;
  return JSON.parse(
    JSON.stringify({ mode, learnedAt, seconds, minutes, strikes, pausedUntil, ramp }),
  ) as PaceState;
}

function isBuckets(value: unknown, length: number): boolean {
  return (
    Array.isArray(value) &&
    value.every((b) => Array.isArray(b) && b.length === length && b.every((n) => Number.isFinite(n)))
  );
}

/**
 * Windows up to this long are counted in second buckets only: a second bucket becomes part of a
 * minute bucket once it has left all of them, so minute buckets count in the longer windows alone.
 */
const SHORT_WINDOW_MS = 2 * MINUTE;

/** Every bucket that counts in `window`, with the time its last request counts as sent (its end). */
function* counted(pace: PaceState, window: RateWindow): Generator<[end: number, count: number]> {
  if (window.windowMs > SHORT_WINDOW_MS) for (const [start, n] of pace.minutes) yield [start + MINUTE, n];
  for (const [start, n] of pace.seconds) yield [start + SECOND, n];
}

/** What the pacer allows now: send this many of the requests, or wait this long first. */
export type PaceGate = { send: number; waitMs: 0 } | { send: 0; waitMs: number };

/**
 * Counts a connection's requests in rolling windows and decides how many may go now. Counting is
 * conservative: a request is counted at the time its answer arrived (after the service counted it)
 * and as if at the end of its bucket, so it leaves a window never before the service lets it go.
 *
 * Finding out whether an unknown service limits requests takes one request past the limits, sent
 * alone or as the last of a round the budget ends in (5 left and 10 wanted: 5 + 1 in one fetchAll).
 * Whatever order the service takes a round's requests in, when it takes the last of them it has
 * taken the rest of the round and every request answered before the round went out. So when the
 * requests surely in its window at that moment (`surelyPast`: the round's own, and those answered
 * before it that were sent after the round's answer time minus the window) are more than the
 * window's `max` and none is refused, the service let more through than the platform's limit: it
 * has not got it. One such request is proof under the platform's rules (rolling windows that count
 * every request on arrival, table-api.md). More rounds (earlier versions sent 1, 2, 3 and 4) would
 * only guard against a service that counted fewer requests than this pacer did: one that does not
 * count some answers (errors from a proxy), a fixed window that just reset, another limit than the
 * platform's. Such a wrong belief costs one round refused, once: the next round goes out full, its
 * 429s make the service `limited` with a minute's pause and `ramp`, and the refused requests wait
 * unsent and go again. Against that, the rounds of 1, 2, 3 and 4 cost every service without the
 * limits four rounds more on its first busy minute of each day.
 */
export class Pacer {
  private readonly pace: PaceState;
  /** Whether the last request of the round in flight goes past the limits, sent to find out. */
  private probing = false;

  constructor(
    state: PaceState | null = null,
    private readonly windows: readonly RateWindow[] = PLATFORM_WINDOWS,
  ) {
    this.pace = state ? paceStateOf(state) : freshPace();
  }

  /** The state to keep for the next execution (old buckets merged or dropped). */
  state(now: number): PaceState {
    this.compact(now);
    return paceStateOf(this.pace);
  }

  get mode(): PaceMode {
    return this.pace.mode;
  }

  /** How many of `wanted` requests may go at `now`, or how long to wait before any may. */
  admit(wanted: number, now: number): PaceGate {
    this.probing = false;
    if (
      this.pace.mode === 'unlimited' &&
      now >= this.pace.pausedUntil &&
      now - this.pace.learnedAt >= UNLIMITED_BELIEVED_MS
    )
      this.pace.mode = 'unknown';
    const gate = this.gate(wanted, now);
    this.probing = gate.probing;
    return gate.paced;
  }

  /**
   * How many of `wanted` requests `admit` would let go at `now` (0 when it would have them wait),
   * without deciding anything: a caller sizes a round by it, so the round is not split into what
   * goes now and a lone remainder a round later.
   */
  allowance(wanted: number, now: number): number {
    return this.gate(wanted, now).paced.send;
  }

  private gate(wanted: number, now: number): { paced: PaceGate; probing: boolean } {
    const paced = (gate: PaceGate) => ({ paced: gate, probing: false });
    if (wanted <= 0) return paced({ send: 0, waitMs: 0 } as PaceGate);
    if (now < this.pace.pausedUntil) return paced({ send: 0, waitMs: this.pace.pausedUntil - now });
    if (this.pace.mode === 'unlimited' && now - this.pace.learnedAt < UNLIMITED_BELIEVED_MS)
      return paced({ send: wanted, waitMs: 0 });
    // Below zero when this pacer's own rounds past the limits are still counted.
    const free = Math.max(0, this.free(now));
    // After a 429 the service's windows held more than this pacer counted (another client of the
    // same key?): rounds start at one request and double, so a wrong count costs a refusal, not a wave.
    const cap = this.pace.ramp > 0 ? this.pace.ramp : free;
    if (this.pace.mode !== 'limited' && wanted > free && cap >= free) {
      // The round the budget ends in carries the one request past it (alone when nothing is left):
      // a 429 says the service has the platform's limits; none, that it has not (see the class).
      return { paced: { send: free + 1, waitMs: 0 }, probing: true };
    }
    if (free > 0) return paced({ send: Math.min(wanted, free, cap), waitMs: 0 });
    return paced({ send: 0, waitMs: Math.max(1, this.nextSlot(now) - now) });
  }

  /**
   * Counts `count` requests sent at `sentAt` whose answers arrived at `now`, and learns from them:
   * `refused` of them were 429s without Retry-After (the service has the platform's limits: pause a
   * minute, then longer); none refused in a round that surely went past the limits means it has not.
   */
  answered(count: number, refused: number, now: number, sentAt = now): void {
    if (count <= 0) return;
    // A round past this pacer's count proves nothing unless it surely went past the service's.
    const conclusive = this.probing && this.surelyPast(count, sentAt, now);
    this.add(now, count, sentAt);
    if (refused > 0) {
      this.pace.mode = 'limited';
      this.pace.learnedAt = now;
      this.pace.strikes += 1;
      const slot = this.nextSlot(now);
      this.pace.pausedUntil = Math.max(now + rateLimitBackoff(this.pace.strikes), slot);
      this.pace.ramp = 1;
    } else {
      this.pace.strikes = 0;
      if (this.pace.ramp > 0) this.pace.ramp = this.pace.ramp >= 64 ? 0 : this.pace.ramp * 2;
      if (conclusive) {
        this.pace.mode = 'unlimited';
        this.pace.learnedAt = now;
      }
    }
    this.probing = false;
    this.compact(now);
  }

  /**
   * About how long `requests` more would take from `now` at the pace the windows allow (undefined
   * while the service is not known to limit requests).
   */
  estimateMs(requests: number, now: number): number | undefined {
    if (this.pace.mode !== 'limited') return undefined;
    const trial = new Pacer(this.state(now), this.windows);
    let left = requests;
    let at = Math.max(now, this.pace.pausedUntil);
    for (let guard = 0; left > 0 && guard < 100_000; guard++) {
      const free = trial.free(at);
      if (free > 0) {
        const take = Math.min(free, left);
        trial.add(at, take);
        left -= take;
      } else at = Math.max(at + 1, trial.nextSlot(at));
    }
    return at - now;
  }

  /** Requests that fit in every window at `now`. */
  private free(now: number): number {
    return Math.min(...this.windows.map((w) => w.max - this.inWindow(w, now)));
  }

  private inWindow(window: RateWindow, now: number): number {
    let count = 0;
    for (const [end, n] of counted(this.pace, window)) if (end + window.windowMs > now) count += n;
    return count;
  }

  /** The first time at or after `now` when one more request fits in every window. */
  private nextSlot(now: number): number {
    const times = [now];
    for (const w of this.windows)
      for (const [end] of counted(this.pace, w)) {
        const leaves = end + w.windowMs;
        if (leaves > now) times.push(leaves);
      }
    times.sort((a, b) => a - b);
    for (const t of times) if (this.free(t) > 0) return t;
    return times[times.length - 1] ?? now;
  }

  private add(now: number, count: number, sentAt = now): void {
    const start = Math.floor(now / SECOND) * SECOND;
    const last = this.pace.seconds[this.pace.seconds.length - 1];
    if (last && last[0] === start) {
      last[1] += count;
      last[2] = Math.min(last[2], sentAt);
    } else this.pace.seconds.push([start, count, sentAt]);
  }

  /**
   * Whether a round of `count` requests sent at `sentAt` and answered at `now` surely went past some
   * window's `max` on the service's side. The service took each request between its sending and its
   * answer, so at the last of the round it took, its window (at most `now` minus the window long)
   * surely held the round and every earlier request (all answered before the round went out) that
   * was sent after `now` minus the window. A bucket counts from its earliest sending; older buckets
   * are taken as sent up to a minute before their own minute (no answer takes longer).
   */
  private surelyPast(count: number, sentAt: number, now: number): boolean {
    return this.windows.some((w) => {
      const from = now - w.windowMs;
      if (sentAt <= from) return false;
      let held = count;
      if (w.windowMs > SHORT_WINDOW_MS)
        for (const [start, n] of this.pace.minutes) if (start - MINUTE > from) held += n;
      for (const [, n, sent] of this.pace.seconds) if (sent > from) held += n;
      return held > w.max;
    });
  }

  /** Merges second buckets older than a minute into minute buckets; drops what every window has let go. */
  private compact(now: number): void {
    const longest = Math.max(...this.windows.map((w) => w.windowMs));
    // A second bucket joins its minute once it has left every short window (they never count minute buckets).
    const shortest = Math.max(
      MINUTE,
      ...this.windows.filter((w) => w.windowMs <= SHORT_WINDOW_MS).map((w) => w.windowMs),
    );
    const seconds: Array<[number, number, number]> = [];
    const minutes = this.pace.minutes.filter(([start]) => start + MINUTE + longest > now);
    for (const [start, count, sentAt] of this.pace.seconds) {
      if (start + SECOND + shortest > now) {
        seconds.push([start, count, sentAt]);
        continue;
      }
      // Counted from the end of its minute: later than the second it came in, so never too early.
      const minute = Math.floor(start / MINUTE) * MINUTE;
      if (minute + MINUTE + longest <= now) continue;
      const last = minutes[minutes.length - 1];
      if (last && last[0] === minute) last[1] += count;
      else minutes.push([minute, count]);
    }
    this.pace.seconds = seconds;
    this.pace.minutes = minutes;
  }
}
