// When to try a request again and how long to wait: status rules per method, backoff, Retry-After.

import { SyncError } from '../core/errors';
import type { HttpMethod, HttpResponse } from './http-port';

/** How hard the client retries. Defaults in {@link DEFAULT_RETRY}. */
export interface RetryPolicy {
  /** Tries per request, the first included. */
  maxAttempts: number;
  /** Backoff before the second try; doubles per try. */
  baseDelayMs: number;
  /** Backoff never waits longer than this. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the request fails with the wait in `retryAfterMs`. */
  maxRetryAfterMs: number;
}

/**
 * 8 tries, 500 ms doubling (with jitter: 50-100 % of the step) up to 30 s, Retry-After up to 60 s;
 * the execution's deadline bounds it all, so a storm costs time, never a lost edit.
 */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** What to do with an answer that is not a success. */
export type RetryVerdict =
  /** Try again: the request was not processed, or repeating it is harmless. */
  | 'retry'
  /** A write whose outcome is unknown: never repeat, the caller checks for a duplicate. */
  | 'unknown-outcome'
  /** A final answer. */
  | 'final';

/**
 * Classifies a failed answer. Reads (GET) and PATCH are idempotent: 429, 500, 502, 503, 504 and
 * network errors (status 0) are retried. A POST is retried only after 429, the one answer that says
 * the request was not processed. A POST that got no answer or any 5xx may have been committed (a
 * proxy answers 503 when the upstream resets after committing): never retried, outcome unknown.
 */
export function retryVerdict(method: HttpMethod, status: number): RetryVerdict {
  const idempotent = method !== 'post';
  if (status === 429) return 'retry';
  if (status === 0 || status >= 500) {
    if (!idempotent) return 'unknown-outcome';
    return status === 0 || status === 500 || status === 502 || status === 503 || status === 504
      ? 'retry'
      : 'final';
  }
  return 'final';
}

/**
 * Reads `Retry-After` as seconds (`120`) or an HTTP date, relative to `nowMs`. Returns milliseconds
 * (0 for a date in the past), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** A deterministic source of numbers in [0, 1) (mulberry32), so backoff jitter is reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Backoff before try `failures + 1`: `base * 2^(failures-1)` capped at `maxDelayMs`, scaled by a
 * jitter factor between 0.5 and 1 drawn from `random`.
 */
export function backoffDelay(failures: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step * (0.5 + 0.5 * random()));
}

/**
 * A 429 that says no time to wait (no usable Retry-After): the platform's rolling windows (60 a
 * minute, 1,800 an hour). The pace waits it out (a minute, then longer) instead of a quick backoff.
 */
export function isPlatformRateLimit(response: HttpResponse): boolean {
  return response.status === 429 && parseRetryAfter(response.headers?.['retry-after'], 0) === undefined;
}

/** "about 3 minutes", "about a minute", "a few seconds": a wait as a person reads it. */
export function aboutTime(ms: number): string {
  if (ms < 45_000) return 'a few seconds';
  const minutes = Math.round(ms / 60_000);
  if (minutes <= 1) return 'about a minute';
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? 'about an hour' : `about ${hours} hours`;
}

/**
 * What a request held back by the pace gets: the service limits requests (429 without Retry-After),
 * so it waits `waitMs` for a later run. Nothing was sent, nothing is lost.
 */
export function rateLimitPauseError(waitMs: number): SyncError {
  return new SyncError(
    'RATE_LIMITED',
    `The service limits how many requests the add-on may send (it refused more with 429), so this waits: the service takes more in ${aboutTime(waitMs)}. Nothing was lost; run it again then if it does not go on by itself.`,
    { retryAfterMs: waitMs },
  );
}
