// Fault injection over real HTTP: latency, the 500/503 share (seeded, replayable), 429 with Retry-After,
// commit-then-drop, queued exact answers, and the request log with the token redacted.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../emulators/table-service/faults.js';
import { createRng } from '../../../emulators/table-service/rng.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, DEALS, errorOf, type RowJson } from './helpers.js';

let svc: TableService;
let alice: string;

async function dealRows(service: TableService = svc) {
  return (await service.admin.state()).apps
    .find((a) => a.id === 'ta_crm')
    ?.tables.find((t) => t.id === 'tbl_deals')?.rows as RowJson[];
}

beforeAll(async () => {
  svc = await createTableService();
  alice = svc.keys.u_alice as string;
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.clearFaults();
  await svc.admin.clearLog();
});

describe('when latency is set', () => {
  it('delays public answers for real', async () => {
    await svc.admin.setFaults({ latencyMs: 200 });
    const t = Date.now();
    const r = await call(svc.url, 'GET', '/public/user/me', { key: alice });
    expect(r.status).toBe(200);
    // A lower bound only: a loaded machine makes answers slower, never faster.
    expect(Date.now() - t).toBeGreaterThanOrEqual(190);
  });

  it('never delays admin calls', async () => {
    // Ten minutes per public request: an admin call that waited too would outlast the test's timeout.
    await svc.admin.setFaults({ latencyMs: 600_000 });
    expect((await svc.admin.state()).version).toBe(1);
    expect((await svc.admin.faults()).faults).toEqual({ latencyMs: 600_000 });
  });

  it('adds a seeded jitter within 0..jitterMs', async () => {
    const injector = new FaultInjector(createRng(3));
    injector.set({ latencyMs: 10, jitterMs: 60 });
    const delays = Array.from({ length: 200 }, () => injector.delayMs());
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...delays)).toBeLessThanOrEqual(70);
    expect(new Set(delays).size).toBeGreaterThan(20);
    const again = new FaultInjector(createRng(3));
    again.set({ latencyMs: 10, jitterMs: 60 });
    expect(Array.from({ length: 200 }, () => again.delayMs())).toEqual(delays);
  });
});

describe('when a share of requests fails with 500/503', () => {
  async function statuses(seed: number): Promise<number[]> {
    const s = await createTableService({ seed, faults: { errorRate: 0.5 } });
    try {
      const out: number[] = [];
      for (let i = 0; i < 30; i++)
        out.push((await call(s.url, 'GET', '/public/user/me', { key: s.keys.u_alice })).status);
      return out;
    } finally {
      await s.close();
    }
  }

  it('answers a seeded, replayable mix of 200, 500 and 503', async () => {
    const first = await statuses(7);
    expect(await statuses(7)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500, 503]));
    expect(await statuses(8)).not.toEqual(first);
  });

  it('does nothing before answering 5xx (no row is created)', async () => {
    const before = (await dealRows()).length;
    await svc.admin.setFaults({ errorRate: 1, errorStatuses: [503] });
    const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title: 'never' } });
    expect(r.status).toBe(503);
    expect(errorOf(r).code).toBe('service_unavailable');
    expect((await dealRows()).length).toBe(before);
    // Even a request that would be refused otherwise gets the injected answer first.
    expect((await call(svc.url, 'GET', '/public/user/me')).status).toBe(503);
  });
});

describe('when requests exceed the rate limit', () => {
  it('answers 429 with Retry-After in seconds, then lets requests through again', async () => {
    // The window runs on a clock the test steps: no sleeping, and a slow machine cannot empty it early.
    let now = 1_700_000_000_000;
    const limited = await createTableService({ faults: { rateLimitPerSecond: 3 }, clock: () => now });
    try {
      const key = limited.keys.u_alice as string;
      const got: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        now += 100;
        const r = await call(limited.url, 'GET', '/public/user/me', { key });
        got.push(r.status);
        if (r.status === 429) {
          retryAfter = r.headers.get('retry-after');
          expect(errorOf(r).code).toBe('rate_limited');
        }
      }
      expect(got).toEqual([200, 200, 200, 429, 429]);
      expect(retryAfter).toBe('1');
      now += 1000;
      expect((await call(limited.url, 'GET', '/public/user/me', { key })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('sends a fixed Retry-After when configured', async () => {
    // A clock that stands still: the two requests fall in one window however slow the machine is.
    const limited = await createTableService({ clock: () => 1_700_000_000_000 });
    try {
      const key = limited.keys.u_alice as string;
      await limited.admin.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: 7 });
      await call(limited.url, 'GET', '/public/user/me', { key });
      const r = await call(limited.url, 'GET', '/public/user/me', { key });
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('7');
    } finally {
      await limited.close();
    }
  });
});

describe('when writes are committed and then dropped', () => {
  beforeEach(() => svc.admin.setFaults({ dropAfterCommitRate: 1 }));

  it('creates the row although the client gets no answer', async () => {
    await expect(
      call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title: 'ghost row' } }),
    ).rejects.toThrow();
    const ghost = (await dealRows()).filter((r) => r.title === 'ghost row');
    expect(ghost).toHaveLength(1);
    expect(ghost[0]?.createdBy).toBe('u_alice');
    const log = await svc.admin.requestLog();
    expect(log.at(-1)).toMatchObject({
      method: 'POST',
      status: 0,
      dropped: true,
      fault: 'drop-after-commit',
    });
  });

  it('applies the patch although the client gets no answer', async () => {
    const target = (await dealRows())[0] as RowJson;
    await expect(
      call(svc.url, 'PATCH', `/public${DEALS}/rows/${target.id}`, {
        key: alice,
        body: { status: 'dropped-but-done' },
      }),
    ).rejects.toThrow();
    expect((await dealRows()).find((r) => r.id === target.id)?.status).toBe('dropped-but-done');
  });

  it('answers reads and refused writes normally', async () => {
    expect((await call(svc.url, 'GET', '/public/user/me', { key: alice })).status).toBe(200);
    const refused = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { nope: 1 } });
    expect(refused.status).toBe(400);
  });
});

describe('when exact answers are queued', () => {
  it('gives each once, in order, to the first request it matches', async () => {
    await svc.admin.queueAnswers([
      {
        match: { method: 'GET', path: '/user/me$' },
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html>login</html>',
      },
      { match: { path: '/user/me$' }, status: 502, body: 'Bad gateway' },
    ]);
    const rows = await call(svc.url, 'GET', `/public${DEALS}/rows?limit=1`, { key: alice });
    expect(rows.status).toBe(200);
    const first = await call(svc.url, 'GET', '/api/public/user/me', { key: alice });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html');
    expect(first.text).toBe('<html>login</html>');
    const second = await call(svc.url, 'GET', '/api/public/user/me', { key: alice });
    expect(second.status).toBe(502);
    expect(second.text).toBe('Bad gateway');
    expect((await call(svc.url, 'GET', '/api/public/user/me', { key: alice })).json).toMatchObject({
      userId: 'u_alice',
    });
    expect((await svc.admin.faults()).queue).toEqual([]);
  });

  it('drops the connection without doing the write', async () => {
    const before = (await dealRows()).length;
    await svc.admin.queueAnswers([{ match: { method: 'POST' }, status: 200, dropConnection: true }]);
    await expect(
      call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title: 'lost' } }),
    ).rejects.toThrow();
    expect((await dealRows()).length).toBe(before);
  });

  it('commits first and then drops or answers as queued', async () => {
    await svc.admin.queueAnswers([
      { match: { method: 'POST' }, status: 200, dropConnection: true, commitFirst: true },
      {
        match: { method: 'POST' },
        status: 500,
        body: '{"error":{"code":"internal_error","message":"x"}}',
        commitFirst: true,
      },
      // A proxy whose upstream reset after the commit.
      { match: { method: 'POST' }, status: 503, body: '{"error":{"message":"upstream"}}', commitFirst: true },
      // A success status whose body reports an error.
      {
        match: { method: 'POST' },
        status: 200,
        body: '{"error":{"message":"timed out"}}',
        commitFirst: true,
      },
    ]);
    await expect(
      call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title: 'committed 1' } }),
    ).rejects.toThrow();
    const answered: number[] = [];
    const bodies: unknown[] = [];
    for (const title of ['committed 2', 'committed 3', 'committed 4']) {
      const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title } });
      answered.push(r.status);
      bodies.push(r.json);
    }
    expect(answered).toEqual([500, 503, 200]);
    expect(bodies[2]).toEqual({ error: { message: 'timed out' } });
    const titles = (await dealRows()).map((x) => x.title);
    for (const title of ['committed 1', 'committed 2', 'committed 3', 'committed 4'])
      expect(titles).toContain(title);
  });

  it('refuses a queued answer with a bad regex or status', async () => {
    await expect(svc.admin.queueAnswers([{ match: { path: '(' }, status: 200 }])).rejects.toThrow(/400/);
    await expect(svc.admin.queueAnswers([{ status: 42 }])).rejects.toThrow(/400/);
  });
});

describe('the request log', () => {
  it('records method, path, query, headers without the token, body and status', async () => {
    await call(svc.url, 'GET', `/api/public${DEALS}/rows?offset=0&limit=2`, { key: alice });
    await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { title: 'logged' } });
    await call(svc.url, 'GET', '/public/user/me', { key: 'garbage' });
    const log = await svc.admin.requestLog();
    expect(log).toHaveLength(3);
    expect(log[0]).toMatchObject({
      method: 'GET',
      path: `/api/public${DEALS}/rows`,
      query: { offset: '0', limit: '2' },
      rawQuery: 'offset=0&limit=2',
      status: 200,
      dropped: false,
    });
    expect(log[1]).toMatchObject({ method: 'POST', body: '{"title":"logged"}', status: 201 });
    expect(log[1]?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(log[2]?.status).toBe(401);
    for (const entry of log) expect(entry.headers.auth).toBe('[redacted]');
    const text = JSON.stringify(log);
    expect(text).not.toContain(alice);
    expect(text).not.toContain('garbage');
    await svc.admin.clearLog();
    expect(await svc.admin.requestLog()).toEqual([]);
  });

  it('does not log admin calls', async () => {
    await svc.admin.state();
    expect(await svc.admin.requestLog()).toEqual([]);
  });
});
