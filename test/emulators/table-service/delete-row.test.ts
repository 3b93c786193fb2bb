// DELETE of a row over real HTTP: 200 with the deleted row, 404 once gone, and the start-up option of a
// service that does not serve it (405, with the methods the route has).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE } from '../../../emulators/table-service/sample-data.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import { call, DEALS, type RowJson } from './helpers.js';

let svc: TableService;
let alice: string;

beforeAll(async () => {
  svc = await createTableService({});
  alice = svc.keys.u_alice as string;
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.setServesDelete(true);
});

async function newRow(title: string): Promise<RowJson> {
  return (await call(svc.url, 'POST', `/api/public${DEALS}/rows`, { key: alice, body: { title } }))
    .json as RowJson;
}

describe.each(['/api/public', '/public'])('DELETE under the prefix %s', (prefix) => {
  it('answers 200 with the deleted row, which is then gone from the listing and by id', async () => {
    const row = await newRow('To delete');
    const r = await call(svc.url, 'DELETE', `${prefix}${DEALS}/rows/${row.id}`, { key: alice });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: row.id, title: 'To delete' });
    const again = await call(svc.url, 'GET', `${prefix}${DEALS}/rows/${row.id}`, { key: alice });
    expect(again.status).toBe(404);
    const state = await svc.admin.state();
    const deals = state.apps.flatMap((app) => app.tables).find((table) => table.id === 'tbl_deals') as {
      rows: { id: string }[];
    };
    expect(deals.rows.some((each) => each.id === row.id)).toBe(false);
  });

  it('answers 404 for a row already gone', async () => {
    const row = await newRow('Twice');
    await call(svc.url, 'DELETE', `${prefix}${DEALS}/rows/${row.id}`, { key: alice });
    const r = await call(svc.url, 'DELETE', `${prefix}${DEALS}/rows/${row.id}`, { key: alice });
    expect(r.status).toBe(404);
  });

  it('refuses a caller without a key (401) and another account (403), deleting nothing', async () => {
    const row = await newRow('Kept');
    expect((await call(svc.url, 'DELETE', `${prefix}${DEALS}/rows/${row.id}`, {})).status).toBe(401);
    const other = svc.keys[SAMPLE.users.carol] as string;
    expect((await call(svc.url, 'DELETE', `${prefix}${DEALS}/rows/${row.id}`, { key: other })).status).toBe(
      403,
    );
    expect((await call(svc.url, 'GET', `${prefix}${DEALS}/rows/${row.id}`, { key: alice })).status).toBe(200);
  });
});

describe('a service started without DELETE', () => {
  it('answers 405 naming the methods the row route has, and keeps the row', async () => {
    await svc.admin.setServesDelete(false);
    const row = await newRow('Not deletable');
    const r = await call(svc.url, 'DELETE', `/api/public${DEALS}/rows/${row.id}`, { key: alice });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, PATCH');
    expect((await call(svc.url, 'GET', '/__admin/serves-delete', {})).json).toEqual({ serves: false });
    expect((await call(svc.url, 'GET', `/api/public${DEALS}/rows/${row.id}`, { key: alice })).status).toBe(
      200,
    );
  });

  it('is a start-up option', async () => {
    const without = await createTableService({ servesDelete: false });
    try {
      const key = without.keys.u_alice as string;
      const created = (
        await call(without.url, 'POST', `/api/public${DEALS}/rows`, { key, body: { title: 'x' } })
      ).json as RowJson;
      const r = await call(without.url, 'DELETE', `/api/public${DEALS}/rows/${created.id}`, { key });
      expect(r.status).toBe(405);
    } finally {
      await without.close();
    }
  });
});
