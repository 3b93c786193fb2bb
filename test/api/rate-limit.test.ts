// The client against a service with the platform's rolling windows (60 a minute, 1,800 an hour, 429
// without Retry-After): it paces itself so the service seldom refuses, backs off a minute and longer
// when it does, never hammers, and leaves what it cannot send in this run unsent (never lost).
// The service here is the emulator's own limiter over a fake port whose clock a round trip moves.

import { describe, expect, it } from 'vitest';
import {
  PLATFORM_RATE_LIMIT_TEXT,
  PlatformLimiter,
  platformMode,
} from '../../emulators/table-service/platform';
import { type RowResult, TableClient } from '../../src/api/client';
import type { HttpRequest, HttpResponse } from '../../src/api/http-port';
import { Pacer, type PaceState, RATE_LIMIT_BACKOFF_MS } from '../../src/api/pace';
import { FakePort, json, listing, makeRow } from './fake-port';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNlY3JldA';
const ROW = /^\/api\/public\/tableApps\/A1\/tables\/T1\/rows\/r\d+$/;
const ROUND_TRIP_MS = 400;

/** A fake port whose every round trip takes 400 ms, in front of a service with the platform's windows. */
class LimitedService extends FakePort {
  readonly limiter: PlatformLimiter;
  refused = 0;
  /** Sizes of the waves that held a refused request. */
  readonly refusedWaves: number[] = [];

  constructor(limited = true) {
    super();
    this.limiter = new PlatformLimiter(platformMode(true), () => this.clock);
    this.on('patch', ROW, (request) => this.answer(request, limited));
  }

  private answer(request: HttpRequest, limited: boolean): HttpResponse {
    if (limited && !this.limiter.admit('key')) {
      this.refused += 1;
      return json(429, {
        statusCode: 429,
        customCode: 429,
        errors: [{ msg: PLATFORM_RATE_LIMIT_TEXT, code: 429 }],
        message: PLATFORM_RATE_LIMIT_TEXT,
        name: 'TooManyRequests',
      });
    }
    const id = request.url.slice(request.url.lastIndexOf('/') + 1);
    return json(200, makeRow(Number(id.slice(1)), JSON.parse(request.payload ?? '{}')));
  }

  /** Runs before each round: another client of the same key, say. */
  beforeRound: () => void = () => {};

  override fetchAll(requests: HttpRequest[]): HttpResponse[] {
    this.beforeRound();
    const before = this.refused;
    const answers = super.fetchAll(requests);
    if (this.refused > before) this.refusedWaves.push(requests.length);
    this.clock += ROUND_TRIP_MS;
    return answers;
  }
}

function clientOf(
  port: FakePort,
  pacer = new Pacer(),
  options: { maxSleepMs?: number; left?: () => number } = {},
) {
  return new TableClient(
    port,
    { baseUrl: 'https://svc.example.com', apiKey: KEY, prefix: '/api/public' },
    {
      pace: { pacer, ...(options.maxSleepMs === undefined ? {} : { maxSleepMs: options.maxSleepMs }) },
      ...(options.left ? { deadline: options.left } : {}),
    },
  );
}

function edits(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => ({
    rowId: `r${from + i}`,
    patch: { title: `t${from + i}` },
  }));
}

const sent = (results: RowResult[]) => results.filter((r) => r.ok).length;

describe('when the service limits requests to 60 a minute without Retry-After', () => {
  it('sends 300 edits with one refused request: 60, one alone to find out, then 60 a minute', () => {
    const service = new LimitedService();
    const started = service.clock;
    const results = clientOf(service, new Pacer(), { maxSleepMs: Number.POSITIVE_INFINITY }).updateRows(
      'A1',
      'T1',
      edits(300),
    );
    expect(sent(results)).toBe(300);
    expect(service.refused).toBe(1);
    // The refused request went alone: no burst of refusals.
    expect(service.refusedWaves).toEqual([1]);
    // Every edit went through once, the refused one twice.
    expect(service.requests).toHaveLength(301);
    // It waited a minute after the 429, never a quick retry, and then only for free slots.
    expect(Math.max(...service.sleeps)).toBeGreaterThanOrEqual(RATE_LIMIT_BACKOFF_MS - 5_000);
    expect(service.sleeps.every((ms) => ms >= 1)).toBe(true);
    // 300 at 60 a minute: a little over 4 minutes, not much more.
    expect(service.clock - started).toBeGreaterThan(4 * 60_000);
    expect(service.clock - started).toBeLessThan(6 * 60_000);
  });

  it('leaves what the pace holds back longer than the run may wait unsent, saying when the service takes more', () => {
    const service = new LimitedService();
    const results = clientOf(service, new Pacer(), { maxSleepMs: 5_000 }).updateRows('A1', 'T1', edits(100));
    expect(sent(results)).toBe(60);
    const unsent = results.filter((r) => !r.ok);
    expect(unsent).toHaveLength(40);
    for (const r of unsent) {
      expect(r.ok === false && r.notSent).toBe(true);
      expect(r.ok === false && r.error.code).toBe('RATE_LIMITED');
      expect(r.ok === false && r.error.retryAfterMs).toBeGreaterThanOrEqual(55_000);
      expect(r.ok === false && r.error.message).toMatch(
        /limits how many requests.*about a minute.*Nothing was lost/,
      );
    }
    // One refused (the one sent alone to find out); nothing else was even sent.
    expect(service.refused).toBe(1);
    expect(service.requests).toHaveLength(61);
  });

  it('never goes past the limits again once it knows them, in a later run with the kept state', () => {
    const service = new LimitedService();
    const first = new Pacer();
    clientOf(service, first, { maxSleepMs: 5_000 }).updateRows('A1', 'T1', edits(100));
    const kept: PaceState = JSON.parse(JSON.stringify(first.state(service.clock)));
    expect(kept.mode).toBe('limited');
    service.clock += 61_000; // the continuation runs a minute later
    const refusedBefore = service.refused;
    const results = clientOf(service, new Pacer(kept), { maxSleepMs: 5_000 }).updateRows(
      'A1',
      'T1',
      edits(100, 60),
    );
    expect(sent(results)).toBe(60);
    expect(service.refused).toBe(refusedBefore);
  });

  it('keeps its state small enough for a property (9 KB) after an hour of requests', () => {
    const service = new LimitedService();
    const pacer = new Pacer();
    clientOf(service, pacer, { maxSleepMs: Number.POSITIVE_INFINITY }).updateRows('A1', 'T1', edits(1_000));
    expect(JSON.stringify(pacer.state(service.clock)).length).toBeLessThan(4_000);
  });

  it('estimates how long the rest takes at the allowed pace', () => {
    const service = new LimitedService();
    const client = clientOf(service, new Pacer(), { maxSleepMs: 5_000 });
    expect(client.rateLimitEstimateMs(100)).toBeUndefined(); // not known to limit yet
    client.updateRows('A1', 'T1', edits(100));
    const estimate = client.rateLimitEstimateMs(600) ?? 0;
    // 600 more at 60 a minute, after the pause: about 10 minutes.
    expect(estimate).toBeGreaterThan(9 * 60_000);
    expect(estimate).toBeLessThan(12 * 60_000);
  });

  it('does not sleep past the deadline: the rest is left unsent', () => {
    const service = new LimitedService();
    const ends = service.clock + 30_000;
    const results = clientOf(service, new Pacer(), {
      maxSleepMs: Number.POSITIVE_INFINITY,
      left: () => ends - service.clock,
    }).updateRows('A1', 'T1', edits(100));
    expect(sent(results)).toBe(60);
    expect(service.clock).toBeLessThan(ends);
  });
});

describe('when 429s without Retry-After keep coming (another client uses the same key)', () => {
  it('backs off a minute, then two, then four, never hammering', () => {
    const port = new FakePort();
    port.on(
      'patch',
      ROW,
      json(429, { message: PLATFORM_RATE_LIMIT_TEXT }),
      json(429, {}),
      json(429, {}),
      json(200, makeRow(1)),
    );
    const results = clientOf(port, new Pacer(), { maxSleepMs: Number.POSITIVE_INFINITY }).updateRows(
      'A1',
      'T1',
      edits(1, 1),
    );
    expect(results[0]?.ok).toBe(true);
    expect(port.sleeps).toEqual([60_000, 120_000, 240_000]);
    expect(port.requests).toHaveLength(4);
  });

  it('gives up after its tries with a message that names the limit, and the request is known unprocessed', () => {
    const port = new FakePort().on('patch', ROW, json(429, { errors: [{ msg: PLATFORM_RATE_LIMIT_TEXT }] }));
    const results = clientOf(port, new Pacer(), { maxSleepMs: Number.POSITIVE_INFINITY }).updateRows(
      'A1',
      'T1',
      edits(1, 1),
    );
    const [only] = results;
    expect(only?.ok).toBe(false);
    if (only && !only.ok) {
      expect(only.notSent).toBe(true);
      expect(only.error.code).toBe('RATE_LIMITED');
      expect(only.error.message).toContain(PLATFORM_RATE_LIMIT_TEXT);
    }
    expect(port.requests).toHaveLength(8);
    // A minute, then longer, up to an hour: 1 + 2 + 4 + 8 + 16 + 32 + 60 minutes.
    expect(port.sleeps).toEqual([1, 2, 4, 8, 16, 32, 60].map((m) => m * 60_000));
  });
});

describe('when the service has no such limits', () => {
  it('finds out with one request past 60 a minute, then goes on at full speed (believed for a day)', () => {
    const service = new LimitedService(false);
    const pacer = new Pacer();
    const results = clientOf(service, pacer).updateRows('A1', 'T1', edits(200));
    expect(sent(results)).toBe(200);
    expect(service.sleeps).toEqual([]);
    expect(pacer.mode).toBe('unlimited');
    // Waves of 10 up to the platform's limit, one request alone past it, the rest of its wave, then 10 again.
    expect(service.waves).toEqual([10, 10, 10, 10, 10, 10, 1, 9, ...Array(13).fill(10)]);
  });

  it('sends the request past the limit in the round the budget ends in, when the budget ends inside one', () => {
    const service = new LimitedService(false);
    const pacer = new Pacer();
    const client = clientOf(service, pacer);
    client.updateRows('A1', 'T1', edits(55));
    const before = service.waves.length;
    const results = client.updateRows('A1', 'T1', edits(100, 55));
    expect(sent(results)).toBe(100);
    expect(pacer.mode).toBe('unlimited');
    // 5 left of 60 and 10 wanted: 5 + 1 in one round, the wave's other 4, then full waves.
    expect(service.waves.slice(before)).toEqual([6, 4, ...Array(9).fill(10)]);
  });
});

describe('a listing on a service whose limits are not known yet', () => {
  it('sizes the round the budget ends in to what goes now: no page is left to go alone a round later', () => {
    const port = new FakePort().on(
      'get',
      '/api/public/tableApps/A1/tables/T1/rows',
      listing(10_000, 'rows+hasMore'),
    );
    const pacer = new Pacer();
    const client = clientOf(port, pacer);
    // 5 requests of the minute spent elsewhere (connecting, the table list): 55 left.
    client.updateRows('A1', 'T1', []);
    for (let i = 0; i < 5; i++) pacer.answered(1, 0, port.clock, port.clock);
    const before = port.waves.length;
    let rows = 0;
    const result = client.listAllRows('A1', 'T1', {
      firstWave: 10,
      onPage: (page) => {
        rows += page.length;
      },
    });
    expect(result.done).toBe(true);
    expect(rows).toBe(10_000);
    expect(pacer.mode).toBe('unlimited');
    // 55 in full rounds and one of 5 + 1 past the limit (it proves there is none), then full rounds:
    // never a lone page after a round the pace cut short.
    const waves = port.waves.slice(before);
    expect(waves.slice(0, 7)).toEqual([10, 10, 10, 10, 10, 6, 10]);
    expect(waves.slice(0, -1).filter((size) => size < 6)).toEqual([]);
  });
});

describe('when the service limits requests and the budget ends inside a round', () => {
  it('is refused once, in that round, and then never', () => {
    const service = new LimitedService();
    const pacer = new Pacer();
    const client = clientOf(service, pacer, { maxSleepMs: Number.POSITIVE_INFINITY });
    client.updateRows('A1', 'T1', edits(55));
    const results = client.updateRows('A1', 'T1', edits(100, 55));
    expect(sent(results)).toBe(100);
    expect(pacer.mode).toBe('limited');
    expect(service.refused).toBe(1);
    expect(service.refusedWaves).toEqual([6]);
    expect(service.requests).toHaveLength(156);
  });
});

describe('when the service counts fewer requests than the pacer (its window just reset)', () => {
  it('believes it has no limits for one round: that round is refused, then it never is again', () => {
    const service = new LimitedService();
    const pacer = new Pacer();
    // Seven requests the pacer counted and the service did not (its window started after them).
    pacer.answered(7, 0, service.clock, service.clock);
    const results = clientOf(service, pacer, { maxSleepMs: Number.POSITIVE_INFINITY }).updateRows(
      'A1',
      'T1',
      edits(150),
    );
    expect(sent(results)).toBe(150);
    expect(pacer.mode).toBe('limited');
    // The round the pacer's budget ended in (3 + 1) went through, the rest of its wave filled the
    // service's 60, and the next wave of 10 was refused whole: one wave, the cost of a wrong belief.
    expect(service.refusedWaves).toEqual([10]);
    expect(service.refused).toBe(10);
    // Each refused edit went again once, after the pause.
    expect(service.requests).toHaveLength(160);
  });
});

describe('when another client of the same key keeps filling the window', () => {
  it('costs one refused wave, then after each pause starts at one request and doubles: never a wave again', () => {
    const service = new LimitedService();
    const pacer = new Pacer();
    const client = clientOf(service, pacer, { maxSleepMs: Number.POSITIVE_INFINITY });
    client.updateRows('A1', 'T1', edits(100)); // learns the limits (one refusal)
    expect(pacer.mode).toBe('limited');
    service.clock += 61_000;
    // Someone else sends 58 requests with the same key each minute, for three minutes; this pacer cannot know.
    let nextBurst = service.clock;
    let bursts = 0;
    service.beforeRound = () => {
      if (bursts >= 3 || service.clock < nextBurst) return;
      for (let i = 0; i < 58; i++) service.limiter.admit('key');
      bursts++;
      nextBurst = service.clock + 60_000;
    };
    const refusedBefore = service.refused;
    const wavesBefore = service.refusedWaves.length;
    const results = client.updateRows('A1', 'T1', edits(60, 100));
    expect(sent(results)).toBe(60);
    const refusedWaves = service.refusedWaves.slice(wavesBefore);
    expect(refusedWaves.length).toBeGreaterThan(1);
    expect(refusedWaves.slice(1).every((size) => size <= 2)).toBe(true);
    expect(service.refused - refusedBefore).toBeLessThanOrEqual(10 + 2 * bursts);
  });
});
