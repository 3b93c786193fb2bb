// Retry rules per method and status, Retry-After parsing and the bounded, deterministic backoff.

import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY,
  parseRetryAfter,
  retryVerdict,
  seededRandom,
} from '../../src/api/retry';

describe('retryVerdict', () => {
  it.each(['get', 'patch'] as const)('%s retries 429, 500, 502, 503, 504 and network errors', (method) => {
    for (const status of [0, 429, 500, 502, 503, 504]) expect(retryVerdict(method, status)).toBe('retry');
    for (const status of [400, 401, 403, 404, 409, 413, 501])
      expect(retryVerdict(method, status)).toBe('final');
  });
  it('POST retries only 429, the one answer that says it was not processed', () => {
    expect(retryVerdict('post', 429)).toBe('retry');
    // 503 included: a proxy answers it when the upstream resets after committing.
    for (const status of [0, 500, 502, 503, 504])
      expect(retryVerdict('post', status)).toBe('unknown-outcome');
    expect(retryVerdict('post', 400)).toBe('final');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it('reads seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
  it('reads an HTTP date relative to the port clock', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const v of [undefined, '', '-1', 'soon-ish?', '12abc'])
      expect(parseRetryAfter(v, now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles from the base, jittered between 50 and 100 %, capped', () => {
    const random = seededRandom(42);
    for (let failures = 1; failures <= 10; failures++) {
      const step = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (failures - 1));
      const d = backoffDelay(failures, DEFAULT_RETRY, random);
      expect(d).toBeGreaterThanOrEqual(step / 2);
      expect(d).toBeLessThanOrEqual(step);
    }
  });
  it('is deterministic for a seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
