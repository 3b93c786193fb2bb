// Every public operation of the emulator over real HTTP: both prefixes, resource fields and types, list shapes, paging.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, DEALS, ISO_MS, type RowJson } from './helpers.js';

let svc: TableService;
let alice: string;

beforeAll(async () => {
  svc = await createTableService({ members: { acc_acme: 1050 } });
  alice = svc.keys.u_alice as string;
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.clearFaults();
  await svc.admin.setListShape('object');
});

describe.each(['/api/public', '/public'])('under the prefix %s', (prefix) => {
  it('GET /user/me answers the caller profile', async () => {
    const r = await call(svc.url, 'GET', `${prefix}/user/me`, { key: alice });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('date')).toBeTruthy();
    expect(r.json).toEqual({
      userId: 'u_alice',
      accountId: 'acc_acme',
      firstName: 'Alice',
      lastName: 'Archer',
      orgId: 'org_acme',
      emailId: 'alice@acme.test',
    });
  });

  it('GET /tableApps/<a> answers the app with tables and columns', async () => {
    const r = await call(svc.url, 'GET', `${prefix}/tableApps/ta_crm`, { key: alice });
    expect(r.status).toBe(200);
    const app = r.json as {
      id: string;
      appId: string;
      name: string;
      wsId: string;
      tables: { id: string; columns: unknown[] }[];
    };
    expect(app).toMatchObject({ id: 'ta_crm', appId: 'ta_crm', name: 'CRM', wsId: 'ws_acme' });
    expect(app.tables.map((t) => t.id)).toEqual(['tbl_deals', 'tbl_contacts']);
    expect(app.tables[0]?.columns.length).toBe(9);
  });

  it('GET /tableApps/<a>/tables/<t> answers the table with every seed field', async () => {
    const r = await call(svc.url, 'GET', `${prefix}${DEALS}`, { key: alice });
    expect(r.status).toBe(200);
    const t = r.json as Record<string, unknown> & { columns: Record<string, unknown>[] };
    expect(Object.keys(t).sort()).toEqual(
      ['appId', 'columns', 'createdOn', 'id', 'lastModified', 'name', 'templateId', 'wsId'].sort(),
    );
    expect(t.createdOn).toMatch(ISO_MS);
    expect(t.lastModified).toMatch(ISO_MS);
    const byId = Object.fromEntries(t.columns.map((c) => [c.id, c]));
    expect(byId.title).toEqual({
      id: 'title',
      name: 'Name',
      type: 'text',
      system: true,
      multi: false,
      isExternal: false,
      cascade: 0,
      deleted: false,
      config: { max: 256 },
      cSchema: { type: 'string' },
    });
    expect(byId.status).toMatchObject({ type: 'text', config: { max: 64 } });
    expect(byId.notes).toMatchObject({ type: 'text', config: { max: 50000 } });
    expect(byId.amount).toMatchObject({ type: 'number', cSchema: { type: 'number' } });
    expect(byId.won).toMatchObject({ type: 'checkbox', cSchema: { type: 'boolean' } });
    expect(byId.closeDate).toMatchObject({ type: 'date', cSchema: { type: 'string' } });
    expect(byId.tags).toMatchObject({ type: 'multiSelect', multi: true, cSchema: { type: 'array' } });
    expect(byId.meta).toMatchObject({ type: 'json', cSchema: { type: 'object' } });
    expect(byId.old_stage).toMatchObject({ deleted: true });
  });

  it('GET …/rows/<r> answers the fixed fields and title only', async () => {
    const list = await call(svc.url, 'GET', `${prefix}${DEALS}/rows?offset=0&limit=1`, { key: alice });
    const first = (list.json as { rows: RowJson[] }).rows[0] as RowJson;
    const r = await call(svc.url, 'GET', `${prefix}${DEALS}/rows/${first.id}`, { key: alice });
    expect(r.status).toBe(200);
    const row = r.json as RowJson;
    expect(Object.keys(row).sort()).toEqual(
      [
        'appId',
        'cOn',
        'createdBy',
        'id',
        'indexId',
        'lMod',
        'lModBy',
        'position',
        'state',
        'tableId',
        'title',
        'wsId',
      ].sort(),
    );
    expect(row).toMatchObject({
      id: first.id,
      appId: 'ta_crm',
      tableId: 'tbl_deals',
      wsId: 'ws_acme',
      state: 0,
    });
  });

  it('POST …/rows creates a row at the end with cOn == lMod and the caller as creator', async () => {
    const before = await svc.admin.state();
    const deals = before.apps[0]?.tables[0];
    const r = await call(svc.url, 'POST', `${prefix}${DEALS}/rows`, {
      key: svc.keys.u_bob,
      body: {
        title: 'New deal',
        amount: 42.5,
        won: true,
        closeDate: '2025-12-31',
        tags: ['a', 'b'],
        meta: { k: [1] },
      },
    });
    expect(r.status).toBe(201);
    const row = r.json as RowJson;
    expect(row.cOn).toMatch(ISO_MS);
    expect(row.cOn).toBe(row.lMod);
    expect(row).toMatchObject({
      title: 'New deal',
      amount: 42.5,
      won: true,
      closeDate: '2025-12-31',
      tags: ['a', 'b'],
      meta: { k: [1] },
      status: null,
      notes: null,
      createdBy: 'u_bob',
      lModBy: 'u_bob',
      state: 0,
      indexId: deals?.nextIndexId,
    });
    expect(row).not.toHaveProperty('old_stage');
    const maxPosition = [...(deals?.rows ?? [])]
      .map((x) => x.position)
      .sort()
      .at(-1) as string;
    expect(row.position > maxPosition).toBe(true);
  });

  it('PATCH …/rows/<r> changes only the named members and moves lMod on', async () => {
    const created = (
      await call(svc.url, 'POST', `${prefix}${DEALS}/rows`, { key: alice, body: { title: 'P', amount: 1 } })
    ).json as RowJson;
    const r = await call(svc.url, 'PATCH', `${prefix}${DEALS}/rows/${created.id}`, {
      key: svc.keys.u_bob,
      body: { status: 'won', amount: null },
    });
    expect(r.status).toBe(200);
    const row = r.json as RowJson;
    expect(row).toMatchObject({
      id: created.id,
      title: 'P',
      status: 'won',
      amount: null,
      lModBy: 'u_bob',
      createdBy: 'u_alice',
    });
    expect(row.cOn).toBe(created.cOn);
    expect(Date.parse(row.lMod)).toBeGreaterThan(Date.parse(created.lMod));
    expect(row.lMod).toMatch(ISO_MS);
  });

  it('GET …/rows lists in position order as { rows, hasMore } with column members', async () => {
    const r = await call(
      svc.url,
      'GET',
      `${prefix}/tableApps/ta_crm/tables/tbl_contacts/rows?offset=0&limit=100`,
      {
        key: alice,
      },
    );
    expect(r.status).toBe(200);
    const body = r.json as { rows: RowJson[]; hasMore: boolean };
    expect(body.hasMore).toBe(false);
    expect(body.rows).toHaveLength(10);
    const positions = body.rows.map((x) => x.position);
    expect(positions).toEqual([...positions].sort());
    expect(body.rows[0]).toMatchObject({ title: 'Ada Lovelace', contactId: '00123' });
  });
});

describe('the rows listing', () => {
  beforeAll(async () => {
    await svc.admin.seedTable({ appId: 'ta_crm', tableId: 'tbl_big', rows: 250, columns: 4, hostile: false });
  });

  it('pages 250 rows as 100/100/50 with hasMore true, true, false', async () => {
    const sizes: number[] = [];
    const more: boolean[] = [];
    const ids = new Set<string>();
    for (const offset of [0, 100, 200]) {
      const r = await call(
        svc.url,
        'GET',
        `/api/public/tableApps/ta_crm/tables/tbl_big/rows?offset=${offset}&limit=100`,
        {
          key: alice,
        },
      );
      const body = r.json as { rows: RowJson[]; hasMore: boolean };
      sizes.push(body.rows.length);
      more.push(body.hasMore);
      for (const row of body.rows) ids.add(row.id);
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(more).toEqual([true, true, false]);
    expect(ids.size).toBe(250);
  });

  it('ends with an empty page past the end', async () => {
    const r = await call(
      svc.url,
      'GET',
      '/public/tableApps/ta_crm/tables/tbl_big/rows?offset=250&limit=100',
      { key: alice },
    );
    expect(r.json).toEqual({ rows: [], hasMore: false });
  });

  it('answers a bare array when switched to the array shape', async () => {
    await svc.admin.setListShape('array');
    const r = await call(
      svc.url,
      'GET',
      '/public/tableApps/ta_crm/tables/tbl_big/rows?offset=200&limit=100',
      { key: alice },
    );
    expect(Array.isArray(r.json)).toBe(true);
    expect((r.json as RowJson[]).length).toBe(50);
    expect((r.json as RowJson[])[0]?.indexId).toBe(201);
  });

  it('starts in the array shape when told at start-up', async () => {
    const other = await createTableService({ listShape: 'array' });
    try {
      const r = await call(other.url, 'GET', `/public${DEALS}/rows?limit=5`, { key: other.keys.u_alice });
      expect(Array.isArray(r.json)).toBe(true);
      expect((r.json as RowJson[]).map((x) => x.indexId)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await other.close();
    }
  });
});

describe('the people search', () => {
  type People = { users: Record<string, unknown>[]; hasMore: boolean };

  it('pages the 1,050 generated members plus the sample members with hasMore exactly', async () => {
    const total = (await svc.admin.state()).users.filter((u) => u.accountId === 'acc_acme').length;
    expect(total).toBe(1054);
    const seen: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const r = await call(svc.url, 'GET', `/api/public/user/people?offset=${offset}&limit=100`, {
        key: alice,
      });
      const body = r.json as People;
      pages++;
      seen.push(...body.users.map((u) => u.id as string));
      expect(body.hasMore).toBe(offset + 100 < total);
      if (!body.hasMore) break;
      offset += 100;
    }
    expect(pages).toBe(11);
    expect(new Set(seen).size).toBe(total);
    expect(seen).not.toContain('u_carol');
  });

  it('finds one member by e-mail, ignoring case, with every seed field', async () => {
    const r = await call(svc.url, 'GET', '/public/user/people?emailId=ERIN.evans%40acme.TEST', {
      key: alice,
    });
    expect(r.json).toEqual({
      users: [
        {
          id: 'u_erin',
          accountId: 'acc_acme',
          emailId: 'Erin.Evans@Acme.test',
          orgId: 'org_acme',
          firstName: 'Erin',
          lastName: 'Évans',
          activationStatus: 'active',
        },
      ],
      hasMore: false,
    });
  });

  it('shows invited members and never another account’s', async () => {
    const dave = await call(svc.url, 'GET', '/public/user/people?emailId=dave@acme.test&limit=1', {
      key: alice,
    });
    expect((dave.json as People).users[0]?.activationStatus).toBe('invited');
    const carol = await call(svc.url, 'GET', '/public/user/people?emailId=carol@globex.test', { key: alice });
    expect(carol.json).toEqual({ users: [], hasMore: false });
  });

  it('defaults limit to 100', async () => {
    const r = await call(svc.url, 'GET', '/public/user/people', { key: alice });
    expect((r.json as People).users).toHaveLength(100);
    expect((r.json as People).hasMore).toBe(true);
  });
});

describe('stamps that follow the clock', () => {
  it('stamps cOn and lMod from the set clock (a simulated one), 1 ms past the last stamp when it stands still', async () => {
    const at = Date.UTC(2025, 0, 6, 9, 0, 0);
    const following = await createTableService({ stampsFollowClock: true });
    try {
      await following.admin.setClock({ nowMs: at });
      const key = following.keys.u_alice as string;
      const create = (title: string) =>
        call(following.url, 'POST', `/api/public${DEALS}/rows`, { key, body: { title } });
      const first = (await create('A')).json as RowJson;
      expect([Date.parse(first.cOn), Date.parse(first.lMod)]).toEqual([at, at]);
      const changed = (
        await call(following.url, 'PATCH', `/api/public${DEALS}/rows/${first.id}`, {
          key,
          body: { title: 'A2' },
        })
      ).json as RowJson;
      expect(Date.parse(changed.lMod)).toBe(at + 1);
      await following.admin.setClock({ advanceMs: 60_000 });
      const second = await create('B');
      expect(Date.parse((second.json as RowJson).cOn)).toBe(at + 60_000);
      // The Date header is the service's time too (a client takes a lost create's time from it).
      expect(Date.parse(second.headers.get('date') as string)).toBe(at + 60_000);
    } finally {
      await following.close();
    }
  });
});
