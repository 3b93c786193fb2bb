// Platform mode over real HTTP: the platform's error bodies, its two rolling windows per key (429 with
// its own text and no Retry-After), switched on at start-up or by the admin route, and the admin clock
// the windows are measured on (stepped by the test, never slept for).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLATFORM_RATE_LIMIT_TEXT } from '../../../emulators/table-service/platform.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, DEALS } from './helpers.js';

const T0 = 1_800_000_000_000;
let svc: TableService;
let alice: string;
let bob: string;

beforeAll(async () => {
  svc = await createTableService();
  alice = svc.keys.u_alice as string;
  bob = svc.keys.u_bob as string;
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.setPlatform(false);
  await svc.admin.setClock({ nowMs: T0 });
  await svc.admin.clearLog();
});

async function statuses(count: number, key = alice): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await call(svc.url, 'GET', '/public/user/me', { key })).status);
  return out;
}

describe('when platform mode words errors', () => {
  it('answers { statusCode, customCode, errors: [{ msg, code }], message, name } with the detail in msg', async () => {
    await svc.admin.setPlatform(true);
    const r = await call(svc.url, 'PATCH', `/public${DEALS}/rows/nope`, { key: alice, body: { title: 'x' } });
    expect(r.status).toBe(404);
    const body = r.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['customCode', 'errors', 'message', 'name', 'statusCode']);
    expect(body).toMatchObject({ statusCode: 404, customCode: 404, name: 'NotFound', message: 'Not Found' });
    const [first] = body.errors as Array<{ msg: string; code: number }>;
    expect(first?.code).toBe(404);
    expect(first?.msg).toMatch(/nope/);
  });

  it('words a refused value as a BadRequest and a missing key as NotAuthenticated', async () => {
    await svc.admin.setPlatform(true);
    const bad = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body: { amount: 'lots' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ name: 'BadRequest', statusCode: 400 });
    const anonymous = await call(svc.url, 'GET', '/public/user/me');
    expect(anonymous.json).toMatchObject({ name: 'NotAuthenticated', statusCode: 401 });
  });

  it('keeps the emulator’s own error shape when platform mode is off', async () => {
    const r = await call(svc.url, 'GET', '/public/user/me');
    expect(r.json).toMatchObject({ error: { code: 'missing_token' } });
  });
});

describe('when platform mode limits requests', () => {
  it('lets 60 requests of a key through in a minute, refuses the 61st with its text and no Retry-After', async () => {
    await svc.admin.setPlatform(true);
    const got = await statuses(61);
    expect(got.slice(0, 60).every((s) => s === 200)).toBe(true);
    const refused = await call(svc.url, 'GET', '/public/user/me', { key: alice });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.json).toMatchObject({
      statusCode: 429,
      name: 'TooManyRequests',
      message: PLATFORM_RATE_LIMIT_TEXT,
      errors: [{ msg: PLATFORM_RATE_LIMIT_TEXT, code: 429 }],
    });
    expect(got[60]).toBe(429);
    // Another key has windows of its own.
    expect(await statuses(1, bob)).toEqual([200]);
    const log = await svc.admin.requestLog();
    expect(log.filter((e) => e.fault === 'platform-limit')).toHaveLength(2);
    expect((await svc.admin.platform()).refused).toBe(2);
  });

  it('rolls the minute window: requests leave it 60 s after they came, refused ones too', async () => {
    await svc.admin.setPlatform(true);
    await statuses(30);
    await svc.admin.setClock({ nowMs: T0 + 30_000 });
    await statuses(30);
    expect(await statuses(1)).toEqual([429]);
    // The first 30 left the window at T0 + 60 s; the refused one (at T0 + 30 s) still counts.
    await svc.admin.setClock({ nowMs: T0 + 60_001 });
    expect(await statuses(29)).toEqual(Array(29).fill(200));
    expect(await statuses(1)).toEqual([429]);
  });

  it('enforces the hour window too: 1,800 in a rolling hour, however they are spread over minutes', async () => {
    // Smaller windows of the same kind keep the test quick: 3 a minute, 5 an hour.
    await svc.admin.setPlatform({
      windows: [
        { windowMs: 60_000, max: 3 },
        { windowMs: 3_600_000, max: 5 },
      ],
    });
    expect(await statuses(3)).toEqual([200, 200, 200]);
    await svc.admin.setClock({ advanceMs: 60_000 });
    expect(await statuses(3)).toEqual([200, 200, 429]);
    await svc.admin.setClock({ advanceMs: 60_000 });
    expect(await statuses(1)).toEqual([429]);
    await svc.admin.setClock({ nowMs: T0 + 3_600_000 });
    expect(await statuses(1)).toEqual([200]);
  });

  it('uses the platform’s windows by default: 1,800 an hour', async () => {
    expect(await svc.admin.setPlatform(true)).toEqual({
      errorBodies: true,
      windows: [
        { windowMs: 60_000, max: 60 },
        { windowMs: 3_600_000, max: 1_800 },
      ],
    });
  });

  it('refuses nonsense windows with a reason', async () => {
    await expect(svc.admin.setPlatform({ windows: [{ windowMs: 0, max: 3 }] })).rejects.toThrow(/windowMs/);
    await expect(svc.admin.setClock({ advanceMs: -1 })).rejects.toThrow(/advanceMs/);
  });

  it('starts in platform mode when asked at start-up, and switches off through the admin route', async () => {
    const limited = await createTableService({ platform: true, clock: () => T0 });
    try {
      const key = limited.keys.u_alice as string;
      const got: number[] = [];
      for (let i = 0; i < 61; i++)
        got.push((await call(limited.url, 'GET', '/public/user/me', { key })).status);
      expect(got.filter((s) => s === 429)).toHaveLength(1);
      await limited.admin.setPlatform(false);
      expect((await call(limited.url, 'GET', '/public/user/me', { key })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the admin clock', () => {
  it('stops at a set time, moves on when advanced, and goes back to the real clock', async () => {
    expect(await svc.admin.setClock({ nowMs: T0 })).toEqual({ nowMs: T0, manual: true });
    expect(await svc.admin.setClock({ advanceMs: 1500 })).toEqual({ nowMs: T0 + 1500, manual: true });
    const real = await svc.admin.setClock({ real: true });
    expect(real.manual).toBe(false);
    expect(Math.abs(real.nowMs - Date.now())).toBeLessThan(60_000);
  });
});
