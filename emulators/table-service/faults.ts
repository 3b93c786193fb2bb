// Fault injection for public requests: latency, a share of 500/503, 429 over a rate, commit-then-drop for writes,
// and a queue of exact next answers. Every random choice comes from the seeded RNG so runs replay.

import type { Rng } from './rng.js';
import type { FaultConfig, QueuedAnswer } from './types.js';

/** What to do with a request before the real operation runs. */
export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'queued'; answer: QueuedAnswer }
  | { kind: 'rate-limit'; retryAfterSeconds: number }
  | { kind: 'error'; status: number };

function share(value: number | undefined, name: string): void {
  if (value !== undefined && !(value >= 0 && value <= 1))
    throw new RangeError(`${name} must be within 0..1.`);
}

/** Checks a fault configuration; throws RangeError on nonsense. */
export function checkFaults(config: FaultConfig): FaultConfig {
  share(config.errorRate, 'errorRate');
  share(config.dropAfterCommitRate, 'dropAfterCommitRate');
  for (const key of ['latencyMs', 'jitterMs', 'rateLimitPerSecond', 'retryAfterSeconds'] as const) {
    const v = config[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0))
      throw new RangeError(`${key} must be a number >= 0.`);
  }
  if (config.errorStatuses?.some((s) => !Number.isInteger(s) || s < 100 || s > 599)) {
    throw new RangeError('errorStatuses must be HTTP statuses.');
  }
  return config;
}

/** Checks queued answers; throws RangeError on nonsense (bad status, bad regex). */
export function checkAnswers(answers: QueuedAnswer[]): QueuedAnswer[] {
  for (const a of answers) {
    if (!Number.isInteger(a.status) || a.status < 100 || a.status > 599) {
      throw new RangeError(`Queued answer status ${String(a.status)} is not an HTTP status.`);
    }
    if (a.match?.path !== undefined) new RegExp(a.match.path);
  }
  return answers;
}

/** Holds the fault settings and decides per request. */
export class FaultInjector {
  config: FaultConfig = {};
  queue: QueuedAnswer[] = [];
  private window: number[] = [];

  constructor(
    private readonly rng: Rng,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Merges settings into the current ones (a key set to undefined/null is switched off). */
  set(config: FaultConfig): FaultConfig {
    const merged: Record<string, unknown> = { ...this.config };
    for (const [key, value] of Object.entries(checkFaults(config))) {
      if (value === undefined || value === null) delete merged[key];
      else merged[key] = value;
    }
    this.config = merged as FaultConfig;
    return this.config;
  }

  /** Switches every fault off and empties the answer queue. */
  clear(): void {
    this.config = {};
    this.queue = [];
    this.window = [];
  }

  enqueue(answers: QueuedAnswer[]): number {
    this.queue.push(...checkAnswers(answers));
    return this.queue.length;
  }

  /** Delay for this request, ms (latency plus seeded jitter). */
  delayMs(): number {
    const { latencyMs = 0, jitterMs = 0 } = this.config;
    return latencyMs + (jitterMs > 0 ? Math.floor(this.rng.next() * (jitterMs + 1)) : 0);
  }

  /** The first queued answer matching the request (removed), then rate limit, then the error share. */
  decide(method: string, path: string): FaultDecision {
    const at = this.queue.findIndex((a) => matches(a, method, path));
    if (at >= 0) {
      const [answer] = this.queue.splice(at, 1);
      return { kind: 'queued', answer: answer as QueuedAnswer };
    }
    const limit = this.config.rateLimitPerSecond;
    if (limit !== undefined && limit > 0) {
      const now = this.clock();
      this.window = this.window.filter((t) => t > now - 1000);
      if (this.window.length >= limit) {
        const oldest = this.window[0] ?? now;
        const wait = Math.max(1, Math.ceil((oldest + 1000 - now) / 1000));
        return { kind: 'rate-limit', retryAfterSeconds: this.config.retryAfterSeconds ?? wait };
      }
      this.window.push(now);
    }
    const rate = this.config.errorRate ?? 0;
    if (rate > 0 && this.rng.next() < rate) {
      const statuses = this.config.errorStatuses?.length ? this.config.errorStatuses : [500, 503];
      return { kind: 'error', status: this.rng.pick(statuses) };
    }
    return { kind: 'none' };
  }

  /** Whether a committed write is answered by dropping the connection. */
  dropAfterCommit(): boolean {
    const rate = this.config.dropAfterCommitRate ?? 0;
    return rate > 0 && this.rng.next() < rate;
  }
}

function matches(answer: QueuedAnswer, method: string, path: string): boolean {
  const m = answer.match;
  if (!m) return true;
  if (m.method !== undefined && m.method.toUpperCase() !== method.toUpperCase()) return false;
  if (m.path !== undefined && !new RegExp(m.path).test(path)) return false;
  return true;
}
