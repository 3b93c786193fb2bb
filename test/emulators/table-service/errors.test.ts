// Every refusal of the strict emulator over real HTTP: 400 of each kind, 401 of each kind, 403, 404, 405 and 413.

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, DEALS, errorOf, type Reply } from './helpers.js';

let svc: TableService;
let alice: string;
let rowPath: string;

beforeAll(async () => {
  svc = await createTableService();
  alice = svc.keys.u_alice as string;
  const deals = (await svc.admin.state()).apps[0]?.tables[0];
  rowPath = `/api/public${DEALS}/rows/${deals?.rows[0]?.id}`;
});
afterAll(() => svc.close());

function expectError(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('date')).toBeTruthy();
  expect(errorOf(r).code).toBe(code);
  expect(typeof errorOf(r).message).toBe('string');
  expect(errorOf(r).message.length).toBeGreaterThan(0);
}

describe('when a write body is refused (400)', () => {
  const patch = (body: unknown) => call(svc.url, 'PATCH', rowPath, { key: alice, body });

  it.each([
    ['an unknown column', { nope: 'x' }, 'unknown_column'],
    ['a deleted column', { old_stage: 'x' }, 'deleted_column'],
    ['a read-only fixed field', { lMod: '2024-01-01T00:00:00.000Z' }, 'read_only_field'],
    ['the id', { id: 'r_x' }, 'read_only_field'],
    ['text over config.max', { status: 'x'.repeat(65) }, 'text_too_long'],
    ['a number for a text column', { status: 5 }, 'invalid_value'],
    ['a string for a number column', { amount: '5' }, 'invalid_value'],
    ['a string for a checkbox column', { won: 'TRUE' }, 'invalid_value'],
    ['a non-date for a date column', { closeDate: '2024-02-30' }, 'invalid_value'],
    ['a date with time for a date column', { closeDate: '2024-02-03T00:00:00Z' }, 'invalid_value'],
    ['a string for a multiSelect column', { tags: 'a,b' }, 'invalid_value'],
    ['numbers in a multiSelect column', { tags: [1] }, 'invalid_value'],
    ['an array for a json column', { meta: [1] }, 'invalid_value'],
    ['a body that is an array', [{ status: 'x' }], 'invalid_body'],
    ['a body that is a string', 'status', 'invalid_body'],
    ['a body that is null', null, 'invalid_body'],
    ['an empty update', {}, 'empty_update'],
  ])('refuses %s', async (_name, body, code) => {
    expectError(await patch(body), 400, code);
  });

  it('takes text of exactly config.max characters and null for every column', async () => {
    const r = await patch({
      status: 'x'.repeat(64),
      amount: null,
      won: null,
      closeDate: null,
      tags: null,
      meta: null,
      title: null,
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'x'.repeat(64), amount: null, title: null, meta: null });
  });

  it('refuses a body that is not JSON', async () => {
    expectError(
      await call(svc.url, 'PATCH', rowPath, { key: alice, raw: '{"status": ' }),
      400,
      'invalid_json',
    );
  });

  it('refuses a body that is not UTF-8', async () => {
    const raw = Buffer.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    expectError(await call(svc.url, 'PATCH', rowPath, { key: alice, raw }), 400, 'invalid_json');
  });

  it.each([
    ['missing', null],
    ['text/plain', 'text/plain'],
    ['form-encoded', 'application/x-www-form-urlencoded'],
    ['another charset', 'application/json; charset=latin1'],
  ])('refuses a %s Content-Type', async (_name, contentType) => {
    const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, {
      key: alice,
      body: { title: 'x' },
      contentType,
    });
    expectError(r, 400, 'unsupported_content_type');
  });

  it('takes application/json with and without charset', async () => {
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
    ]) {
      const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, {
        key: alice,
        body: { title: 'ct' },
        contentType,
      });
      expect(r.status).toBe(201);
    }
  });

  it('refuses a create naming a fixed field or an unknown column', async () => {
    const create = (body: unknown) => call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, body });
    expectError(await create({ title: 'x', createdBy: 'u_bob' }), 400, 'read_only_field');
    expectError(await create({ title: 'x', Status: 'open' }), 400, 'unknown_column');
    expectError(await create({ title: 'x'.repeat(257) }), 400, 'text_too_long');
  });
});

describe('when paging parameters are bad (400)', () => {
  it.each([
    'limit=101',
    'limit=0',
    'limit=-1',
    'limit=1.5',
    'limit=abc',
    'limit=',
    'offset=-1',
    'offset=0.5',
    'offset=x',
    'limit=10&limit=20',
    'page=2',
  ])('refuses rows?%s', async (query) => {
    expectError(
      await call(svc.url, 'GET', `/public${DEALS}/rows?${query}`, { key: alice }),
      400,
      'invalid_query',
    );
  });

  it.each(['limit=101', 'offset=-5', 'limit=2.0'])('refuses people?%s', async (query) => {
    expectError(
      await call(svc.url, 'GET', `/public/user/people?${query}`, { key: alice }),
      400,
      'invalid_query',
    );
  });

  it('takes limit=100 and limit=1', async () => {
    expect(
      (await call(svc.url, 'GET', `/public${DEALS}/rows?offset=0&limit=100`, { key: alice })).status,
    ).toBe(200);
    expect((await call(svc.url, 'GET', `/public/user/people?limit=1`, { key: alice })).status).toBe(200);
  });
});

describe('when the token is not good (401)', () => {
  const me = (key?: string, headers?: Record<string, string>) =>
    call(svc.url, 'GET', '/api/public/user/me', { key, ...(headers ? { headers } : {}) });

  it('refuses a missing token', async () => {
    expectError(await me(), 401, 'missing_token');
  });

  it('refuses a token sent as Authorization instead of auth', async () => {
    expectError(await me(undefined, { authorization: `Bearer ${alice}` }), 401, 'missing_token');
  });

  it('refuses a malformed token', async () => {
    expectError(await me('not-a-jwt'), 401, 'malformed_token');
    expectError(await me('a.b.c'), 401, 'malformed_token');
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await new SignJWT({ accountId: 'acc_acme' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u_alice')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the emulator secret'));
    expectError(await me(forged), 401, 'invalid_token');
  });

  it('refuses a token whose signature was tampered with', async () => {
    const last = alice.at(-2) === 'A' ? 'B' : 'A';
    expectError(await me(alice.slice(0, -2) + last + alice.slice(-1)), 401, 'invalid_token');
  });

  it('refuses an expired token', async () => {
    const expired = await svc.admin.issueToken('u_alice', { expired: true });
    expectError(await me(expired), 401, 'token_expired');
  });

  it('refuses a token of a user the service does not know', async () => {
    const other = await createTableService({ secret: 'shared-secret', data: 'empty' });
    const mine = await createTableService({ secret: 'shared-secret' });
    try {
      // Same secret, but the empty emulator has no u_alice.
      const r = await call(other.url, 'GET', '/public/user/me', { key: mine.keys.u_alice });
      expectError(r, 401, 'invalid_token');
    } finally {
      await other.close();
      await mine.close();
    }
  });
});

describe('when the caller has no access (403)', () => {
  it.each([
    '/api/public/tableApps/ta_globex',
    '/api/public/tableApps/ta_globex/tables/tbl_inventory',
    '/api/public/tableApps/ta_globex/tables/tbl_inventory/rows?limit=10',
    '/public/tableApps/ta_globex/tables/nope/rows/nope',
  ])('refuses alice on GET %s and shows no data', async (path) => {
    const r = await call(svc.url, 'GET', path, { key: alice });
    expectError(r, 403, 'forbidden');
    expect(r.text).not.toContain('Widget');
  });

  it('refuses writes to another account’s app', async () => {
    const r = await call(svc.url, 'POST', '/public/tableApps/ta_globex/tables/tbl_inventory/rows', {
      key: alice,
      body: { title: 'x' },
    });
    expectError(r, 403, 'forbidden');
  });

  it('lets carol read her own app', async () => {
    const r = await call(svc.url, 'GET', '/public/tableApps/ta_globex', { key: svc.keys.u_carol });
    expect(r.status).toBe(200);
  });
});

describe('when something does not exist (404)', () => {
  it.each([
    '/api/public/tableApps/ta_nope',
    '/api/public/tableApps/ta_crm/tables/tbl_nope',
    '/api/public/tableApps/ta_crm/tables/tbl_nope/rows',
    `/api/public${DEALS}/rows/r_nope`,
    '/api/public/user/you',
    '/api/public/user/me/',
    // The search of table apps is GET /tableApps itself; with a trailing slash it is no route.
    '/api/public/tableApps/',
    '/api/v2/user/me',
    '/user/me',
    '/',
  ])('answers 404 to GET %s', async (path) => {
    expectError(await call(svc.url, 'GET', path, { key: alice }), 404, 'not_found');
  });

  it('answers 404 to a PATCH of an unknown row', async () => {
    const r = await call(svc.url, 'PATCH', `/public${DEALS}/rows/r_nope`, {
      key: alice,
      body: { status: 'x' },
    });
    expectError(r, 404, 'not_found');
  });
});

describe('when the method is not one the route has (405)', () => {
  it.each([
    ['POST', '/api/public/user/me', 'GET'],
    ['PUT', `/api/public${DEALS}/rows/r_any`, 'GET, PATCH, DELETE'],
    ['PUT', `/public${DEALS}/rows`, 'GET, POST'],
    ['PATCH', `/public${DEALS}`, 'GET'],
    ['DELETE', '/public/tableApps/ta_crm', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const r = await call(svc.url, method, path, { key: alice });
    expectError(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe(allow);
  });
});

describe('when the body is over 1 MiB (413)', () => {
  it('refuses it without creating a row', async () => {
    const before = (await svc.admin.state()).apps[0]?.tables[0]?.rows.length;
    const raw = JSON.stringify({ notes: 'x'.repeat(1024 * 1024) });
    const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, raw });
    expectError(r, 413, 'payload_too_large');
    expect((await svc.admin.state()).apps[0]?.tables[0]?.rows.length).toBe(before);
  });

  it('takes a body of just under 1 MiB (then refuses its text as too long for the column)', async () => {
    const raw = JSON.stringify({ notes: 'x'.repeat(1024 * 1024 - 20) });
    const r = await call(svc.url, 'POST', `/public${DEALS}/rows`, { key: alice, raw });
    expectError(r, 400, 'text_too_long');
  });
});
