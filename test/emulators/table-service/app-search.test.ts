// The search of table apps (GET /tableApps, settled in table-api.md): only the caller's apps, paging, q, and
// the start-up option that plays a service without the operation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, errorOf } from './helpers.js';

interface Listed {
  tableApps: { id: string; name: string; tables: { id: string; name: string }[] }[];
  hasMore: boolean;
}

let svc: TableService;

beforeAll(async () => {
  svc = await createTableService({});
  for (let n = 1; n <= 120; n++) await svc.admin.addApp('acc_acme', `Project ${n}`, `ta_more${n}`);
});
afterAll(() => svc.close());

describe.each(['/api/public', '/public'])('GET %s/tableApps', (prefix) => {
  it('lists the caller’s apps only, with their tables named, in pages', async () => {
    const first = await call(svc.url, 'GET', `${prefix}/tableApps?offset=0&limit=100`, {
      key: svc.keys.u_alice,
    });
    expect(first.status).toBe(200);
    const page = first.json as Listed;
    expect(page.hasMore).toBe(true);
    expect(page.tableApps).toHaveLength(100);
    expect(page.tableApps[0]).toEqual({
      id: 'ta_crm',
      appId: 'ta_crm',
      name: 'CRM',
      wsId: 'ws_acme',
      tables: [
        { id: 'tbl_deals', name: 'Deals' },
        { id: 'tbl_contacts', name: 'Contacts' },
      ],
    });
    const rest = (
      await call(svc.url, 'GET', `${prefix}/tableApps?offset=100&limit=100`, { key: svc.keys.u_alice })
    ).json as Listed;
    expect(rest.hasMore).toBe(false);
    const ids = [...page.tableApps, ...rest.tableApps].map((app) => app.id);
    expect(ids).toHaveLength(122);
    expect(ids).not.toContain('ta_globex');

    const carol = (await call(svc.url, 'GET', `${prefix}/tableApps`, { key: svc.keys.u_carol }))
      .json as Listed;
    expect(carol.tableApps.map((app) => app.id)).toEqual(['ta_globex']);
  });

  it('keeps the apps whose name contains q, in any case', async () => {
    const found = await call(svc.url, 'GET', `${prefix}/tableApps?q=${encodeURIComponent('PROJECT 11')}`, {
      key: svc.keys.u_alice,
    });
    expect((found.json as Listed).tableApps.map((app) => app.name)).toEqual([
      'Project 11',
      'Project 110',
      'Project 111',
      'Project 112',
      'Project 113',
      'Project 114',
      'Project 115',
      'Project 116',
      'Project 117',
      'Project 118',
      'Project 119',
    ]);
    const none = await call(svc.url, 'GET', `${prefix}/tableApps?q=globex`, { key: svc.keys.u_alice });
    expect(none.json).toEqual({ tableApps: [], hasMore: false });
  });

  it('is strict: a key, paging within bounds and known parameters only', async () => {
    expect((await call(svc.url, 'GET', `${prefix}/tableApps`)).status).toBe(401);
    const big = await call(svc.url, 'GET', `${prefix}/tableApps?limit=101`, { key: svc.keys.u_alice });
    expect(big.status).toBe(400);
    const unknown = await call(svc.url, 'GET', `${prefix}/tableApps?name=CRM`, { key: svc.keys.u_alice });
    expect(errorOf(unknown).code).toBe('invalid_query');
    const post = await call(svc.url, 'POST', `${prefix}/tableApps`, { key: svc.keys.u_alice, body: {} });
    expect(post.status).toBe(405);
  });
});

describe('when started without the search of table apps', () => {
  it('answers GET /tableApps 404, like any route it does not have, and serves the rest', async () => {
    const without = await createTableService({ tableAppSearch: false });
    try {
      const listing = await call(without.url, 'GET', '/api/public/tableApps?offset=0&limit=100', {
        key: without.keys.u_alice,
      });
      expect(listing.status).toBe(404);
      expect(errorOf(listing).code).toBe('not_found');
      const app = await call(without.url, 'GET', '/api/public/tableApps/ta_crm', {
        key: without.keys.u_alice,
      });
      expect(app.status).toBe(200);
    } finally {
      await without.close();
    }
  });
});
