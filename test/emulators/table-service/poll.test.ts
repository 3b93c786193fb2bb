// The poll for row updates (GET …/rows/updates?since=): rows with lMod ≥ since in lMod-then-id order,
// with column members, paged and in the listing's shape; deleted rows not reported; and the two modes
// a client falls back from: no poll (404) and a poll that ignores since (the full listing).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import type { EmulatorState } from '../../../emulators/table-service/types.js';
import { call, DEALS, errorOf, type RowJson } from './helpers.js';

let svc: TableService;
let alice: string;
let pristine: EmulatorState;

/** The Deals rows get lMods a minute apart from 10:00 (row i at 10:0i), ids in order, two sharing 10:05. */
function stampedState(): EmulatorState {
  const state = structuredClone(pristine);
  const deals = state.apps.find((a) => a.id === 'ta_crm')?.tables.find((t) => t.id === 'tbl_deals');
  if (!deals) throw new Error('no deals');
  deals.rows.forEach((row, i) => {
    const minute = Math.min(i, 5) + Math.max(0, i - 6);
    row.lMod = new Date(Date.UTC(2025, 0, 31, 10, minute)).toISOString();
  });
  return state;
}

const poll = (since: string, extra = '') =>
  call(svc.url, 'GET', `/api/public${DEALS}/rows/updates?since=${encodeURIComponent(since)}${extra}`, {
    key: alice,
  });

beforeAll(async () => {
  svc = await createTableService({});
  alice = svc.keys.u_alice as string;
  pristine = await svc.admin.state();
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.reset(stampedState());
  await svc.admin.setPollMode('on');
  await svc.admin.setListShape('object');
});

describe('when the poll is served (the default)', () => {
  it('answers the rows whose lMod is at or after since, ordered by lMod then id, with column members', async () => {
    const r = await poll('2025-01-31T10:05:00.000Z');
    expect(r.status).toBe(200);
    const { rows, hasMore } = r.json as { rows: RowJson[]; hasMore: boolean };
    expect(hasMore).toBe(false);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows)
      expect(Date.parse(row.lMod)).toBeGreaterThanOrEqual(Date.parse('2025-01-31T10:05:00.000Z'));
    const order = rows.map((row) => [row.lMod, row.id] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
    expect(order).toEqual(sorted);
    // Two rows share 10:05: the id decides.
    expect(rows[0]?.lMod).toBe(rows[1]?.lMod);
    // The same view as the rows listing: fixed fields and every live column.
    const listed = (await call(svc.url, 'GET', `/api/public${DEALS}/rows?limit=100`, { key: alice }))
      .json as {
      rows: RowJson[];
    };
    expect(rows[0]).toEqual(listed.rows.find((row) => row.id === rows[0]?.id));
  });

  it('pages with offset and limit and answers the listing shape the emulator is set to', async () => {
    const all = ((await poll('2025-01-31T10:00:00.000Z')).json as { rows: RowJson[] }).rows;
    const first = (await poll('2025-01-31T10:00:00.000Z', '&offset=0&limit=10')).json as {
      rows: RowJson[];
      hasMore: boolean;
    };
    expect(first.hasMore).toBe(true);
    expect(first.rows.map((row) => row.id)).toEqual(all.slice(0, 10).map((row) => row.id));
    await svc.admin.setListShape('array');
    const bare = (await poll('2025-01-31T10:00:00.000Z', '&offset=10&limit=10')).json as RowJson[];
    expect(bare.map((row) => row.id)).toEqual(all.slice(10, 20).map((row) => row.id));
  });

  it('reports a row changed since, and never a row deleted since', async () => {
    const rows = ((await poll('2025-01-31T10:00:00.000Z')).json as { rows: RowJson[] }).rows;
    const [gone, edited] = [rows[0]?.id as string, rows[1]?.id as string];
    await svc.admin.deleteRow('ta_crm', 'tbl_deals', gone);
    const after = await svc.admin.editRow('ta_crm', 'tbl_deals', edited, { status: 'polled' });
    const since = new Date(Date.parse(after.lMod) - 1).toISOString();
    const changed = ((await poll(since)).json as { rows: RowJson[] }).rows;
    expect(changed.map((row) => row.id)).toEqual([edited]);
    expect(changed[0]?.status).toBe('polled');
    const everything = ((await poll('2025-01-31T10:00:00.000Z')).json as { rows: RowJson[] }).rows;
    expect(everything.some((row) => row.id === gone)).toBe(false);
  });

  it('refuses a missing, malformed or impossible since, and unknown parameters (400)', async () => {
    const missing = await call(svc.url, 'GET', `/api/public${DEALS}/rows/updates?limit=10`, { key: alice });
    expect(missing.status).toBe(400);
    expect(errorOf(missing).code).toBe('invalid_query');
    for (const bad of ['2025-01-31T10:00:00Z', '2025-01-31', '2025-02-30T10:00:00.000Z', 'yesterday']) {
      const r = await poll(bad);
      expect(r.status, bad).toBe(400);
    }
    expect((await poll('2025-01-31T10:00:00.000Z', '&q=x')).status).toBe(400);
    expect((await poll('2025-01-31T10:00:00.000Z', '&limit=101')).status).toBe(400);
  });

  it('changes rows between two pages when a test asks: the rows after an edited one move back, one is skipped', async () => {
    const since = '2025-01-31T10:00:00.000Z';
    const all = ((await poll(since)).json as { rows: RowJson[] }).rows;
    const moved = all[1]?.id as string;
    await svc.admin.changeBetweenPollPages(1, [
      { appId: 'ta_crm', tableId: 'tbl_deals', rowId: moved, values: { status: 'between pages' } },
    ]);
    const first = ((await poll(since, '&offset=0&limit=4')).json as { rows: RowJson[] }).rows;
    // The page was read before the change: it shows the row where it was.
    expect(first.map((row) => row.id)).toEqual(all.slice(0, 4).map((row) => row.id));
    const second = ((await poll(since, '&offset=4&limit=4')).json as { rows: RowJson[] }).rows;
    // The edited row went to the end: what was the 5th row is now the 4th, read by no page.
    expect(second.map((row) => row.id)).toEqual(all.slice(5, 9).map((row) => row.id));
    const last = ((await poll(since)).json as { rows: RowJson[] }).rows.at(-1);
    expect(last).toMatchObject({ id: moved, status: 'between pages' });
    // Applied once: later pages change nothing.
    const again = ((await poll(since)).json as { rows: RowJson[] }).rows;
    expect(again.map((row) => row.id)).toEqual(
      [...all.filter((row) => row.id !== moved), last].map((r) => r?.id),
    );
  });

  it('can remove a row between pages, and drops changes not applied yet on {off: true}', async () => {
    const since = '2025-01-31T10:00:00.000Z';
    const all = ((await poll(since)).json as { rows: RowJson[] }).rows;
    await svc.admin.changeBetweenPollPages(1, [
      { appId: 'ta_crm', tableId: 'tbl_deals', rowId: all[0]?.id as string, delete: true },
    ]);
    await poll(since, '&offset=0&limit=4');
    const after = ((await poll(since)).json as { rows: RowJson[] }).rows;
    expect(after.map((row) => row.id)).toEqual(all.slice(1).map((row) => row.id));
    await svc.admin.changeBetweenPollPages(1, [
      { appId: 'ta_crm', tableId: 'tbl_deals', rowId: all[1]?.id as string, delete: true },
    ]);
    const pending = await call(svc.url, 'GET', '/__admin/poll');
    expect((pending.json as { betweenPages: { afterPages: number } }).betweenPages.afterPages).toBe(1);
    await call(svc.url, 'POST', '/__admin/poll/between-pages', { body: { off: true } });
    await poll(since);
    expect(((await poll(since)).json as { rows: RowJson[] }).rows).toHaveLength(all.length - 1);
  });

  it('answers under both prefixes, needs a key, and takes only GET (405)', async () => {
    const path = `${DEALS}/rows/updates?since=2025-01-31T10:00:00.000Z`;
    expect((await call(svc.url, 'GET', `/public${path}`, { key: alice })).status).toBe(200);
    expect((await call(svc.url, 'GET', `/api/public${path}`)).status).toBe(401);
    const patch = await call(svc.url, 'PATCH', `/api/public${path}`, { key: alice, body: { status: 'x' } });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET');
  });
});

describe('a table seeded as changed over time (seed-table modifiedAt)', () => {
  it('gives the last row modifiedAt and the rows before it a minute apart, so a poll finds only the newest', async () => {
    await svc.admin.seedTable({
      appId: 'ta_crm',
      tableId: 'tbl_aged',
      rows: 30,
      columns: 3,
      modifiedAt: '2025-01-31T10:00:00.000Z',
    });
    const path = '/api/public/tableApps/ta_crm/tables/tbl_aged/rows';
    const listed = (
      (await call(svc.url, 'GET', `${path}?limit=100`, { key: alice })).json as { rows: RowJson[] }
    ).rows;
    expect(listed.at(-1)?.lMod).toBe('2025-01-31T10:00:00.000Z');
    expect(listed[0]?.lMod).toBe('2025-01-31T09:31:00.000Z');
    expect(listed[0]?.cOn).toBe(listed[0]?.lMod);
    const polled = await call(svc.url, 'GET', `${path}/updates?since=2025-01-31T09:55:00.000Z`, {
      key: alice,
    });
    expect((polled.json as { rows: RowJson[] }).rows.map((row) => row.lMod)).toHaveLength(6);
    await expect(
      svc.admin.seedTable({ appId: 'ta_crm', tableId: 'tbl_aged', rows: 1, modifiedAt: 'yesterday' }),
    ).rejects.toThrow(/400/);
  });
});

describe('when the emulator is started without the poll', () => {
  it('answers 404 (no route), and says so on the admin route', async () => {
    const off = await createTableService({ poll: 'off' });
    try {
      const r = await call(
        off.url,
        'GET',
        `/api/public${DEALS}/rows/updates?since=2025-01-31T10:00:00.000Z`,
        { key: off.keys.u_alice as string },
      );
      expect(r.status).toBe(404);
      const mode = await fetch(`${off.url}/__admin/poll`).then((res) => res.json());
      expect(mode).toEqual({ mode: 'off' });
    } finally {
      await off.close();
    }
  });
});

describe('when the poll ignores since', () => {
  it('answers the full rows listing, in position order, rows older than since included', async () => {
    await svc.admin.setPollMode('ignore-since');
    const r = await poll('2025-01-31T10:20:00.000Z', '&limit=100');
    expect(r.status).toBe(200);
    const listed = (await call(svc.url, 'GET', `/api/public${DEALS}/rows?limit=100`, { key: alice })).json;
    expect(r.json).toEqual(listed);
  });

  it('refuses an unknown mode on the admin route', async () => {
    await expect(svc.admin.setPollMode('sometimes' as 'on')).rejects.toThrow(/400/);
  });
});
