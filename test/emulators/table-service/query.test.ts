// The query of rows by a filter (POST …/rows/query): the rows that meet one level of = != < >
// conditions joined by and/or, in the listing's order and shape, paged; comparisons by the column's
// type; strict refusals; the modes a client must check it against (no query: 404; a query that ignores
// its body: the plain listing); both prefixes; and the platform mode's windows counting it.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAYGROUND } from '../../../emulators/table-service/sample-pipeline.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import type { Row } from '../../../emulators/table-service/types.js';
import { call, errorOf, type Reply, type RowJson } from './helpers.js';

const PIPELINE = `/tableApps/${PLAYGROUND.apps.sales}/tables/${PLAYGROUND.tables.pipeline}`;
const T0 = 1_800_000_000_000;
let svc: TableService;
let alice: string;
/** The Pipeline rows in listing (position) order, as the admin state holds them. */
let ordered: Row[];

type Expression = { field: string; operand: string; value: unknown };
const body = (expressions: Expression[], operator = 'and') => ({ query: { expressions, operator } });

function query(payload: unknown, search = '', prefix = '/api/public'): Promise<Reply> {
  return call(svc.url, 'POST', `${prefix}${PIPELINE}/rows/query${search}`, { key: alice, body: payload });
}

async function ids(payload: unknown, search = ''): Promise<string[]> {
  const r = await query(payload, search);
  expect(r.status).toBe(200);
  return (r.json as { rows: RowJson[] }).rows.map((row) => row.id);
}

const idsWhere = (test: (row: Row) => boolean): string[] => ordered.filter(test).map((row) => row.id);

beforeAll(async () => {
  svc = await createTableService({ data: 'playground' });
  alice = svc.keys.u_alice as string;
  const state = await svc.admin.state();
  const rows = state.apps.find((a) => a.id === PLAYGROUND.apps.sales)?.tables[0]?.rows ?? [];
  ordered = [...rows].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.setQueryMode('on');
  await svc.admin.setListShape('object');
  await svc.admin.setPlatform(false);
});

describe('POST …/rows/query', () => {
  it('answers the rows that meet every condition (and), in the listing’s order, with column members', async () => {
    const r = await query(
      body([
        { field: 'stage', operand: '=', value: 'Won' },
        { field: 'amount', operand: '>', value: 10000 },
      ]),
    );
    expect(r.status).toBe(200);
    const page = r.json as { rows: RowJson[]; hasMore: boolean };
    const expected = idsWhere(
      (row) => row.stage === 'Won' && typeof row.amount === 'number' && row.amount > 10000,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(page.rows.map((row) => row.id)).toEqual(expected);
    expect(page.hasMore).toBe(false);
    expect(Object.keys(page.rows[0] ?? {})).toEqual(
      expect.arrayContaining(['id', 'lMod', 'stage', 'amount', 'tags']),
    );
  });

  it('answers the rows that meet any condition (or)', async () => {
    const found = await ids(
      body(
        [
          { field: 'stage', operand: '=', value: 'Lost' },
          { field: 'won', operand: '=', value: true },
        ],
        'or',
      ),
    );
    expect(found).toEqual(idsWhere((row) => row.stage === 'Lost' || row.won === true));
  });
});

describe('POST …/rows/query: comparisons', () => {
  it('compares numbers numerically, dates and text as strings, and null consistently', async () => {
    // 9 < 10 numerically, though "9" > "10" as text.
    expect(await ids(body([{ field: 'amount', operand: '<', value: 9000 }]))).toEqual(
      idsWhere((row) => typeof row.amount === 'number' && row.amount < 9000),
    );
    expect(await ids(body([{ field: 'closeDate', operand: '>', value: '2025-12-31' }]))).toEqual(
      idsWhere((row) => typeof row.closeDate === 'string' && row.closeDate > '2025-12-31'),
    );
    // Text by UTF-16 code units, case-sensitive: "Erin.Evans@…" sorts before "alice@…".
    expect(await ids(body([{ field: 'owner', operand: '<', value: 'a' }]))).toEqual(
      idsWhere((row) => row.owner === 'Erin.Evans@Acme.test'),
    );
    // An empty cell equals only null, differs from every value, is neither less nor greater.
    const empty = idsWhere((row) => row.amount === null);
    expect(empty.length).toBeGreaterThan(0);
    expect(await ids(body([{ field: 'amount', operand: '=', value: null }]))).toEqual(empty);
    expect(await ids(body([{ field: 'amount', operand: '!=', value: null }]))).toEqual(
      idsWhere((row) => row.amount !== null),
    );
    expect(await ids(body([{ field: 'amount', operand: '!=', value: 500 }]))).toEqual(
      idsWhere((row) => row.amount !== 500),
    );
    const lessOrMore = [
      ...(await ids(body([{ field: 'amount', operand: '<', value: 20000 }]))),
      ...(await ids(body([{ field: 'amount', operand: '>', value: 19999 }]))),
    ];
    expect(lessOrMore.filter((id) => empty.includes(id))).toEqual([]);
  });
});

describe('POST …/rows/query: lists, pages, shapes and prefixes', () => {
  it('matches a multiSelect list that holds the value (=) or does not (!=)', async () => {
    expect(await ids(body([{ field: 'tags', operand: '=', value: 'urgent' }]))).toEqual(
      idsWhere((row) => Array.isArray(row.tags) && row.tags.includes('urgent')),
    );
    expect(await ids(body([{ field: 'tags', operand: '!=', value: 'urgent' }]))).toEqual(
      idsWhere((row) => !(Array.isArray(row.tags) && row.tags.includes('urgent'))),
    );
  });

  it('pages the matching rows with offset and limit (at most 100), and answers the array shape when set', async () => {
    const all = await ids(body([{ field: 'won', operand: '=', value: false }]));
    expect(all.length).toBeGreaterThan(10);
    const first = await query(body([{ field: 'won', operand: '=', value: false }]), '?offset=0&limit=10');
    expect((first.json as { hasMore: boolean }).hasMore).toBe(true);
    const second = await ids(body([{ field: 'won', operand: '=', value: false }]), '?offset=10&limit=100');
    expect([...(first.json as { rows: RowJson[] }).rows.map((r) => r.id), ...second]).toEqual(all);
    expect((await query(body([{ field: 'won', operand: '=', value: false }]), '?limit=101')).status).toBe(
      400,
    );
    expect(errorOf(await query(body([{ field: 'won', operand: '=', value: false }]), '?since=x')).code).toBe(
      'invalid_query',
    );
    await svc.admin.setListShape('array');
    const bare = await query(body([{ field: 'won', operand: '=', value: false }]), '?limit=5');
    expect((bare.json as RowJson[]).map((r) => r.id)).toEqual(all.slice(0, 5));
  });

  it('is served under both prefixes, for POST only', async () => {
    const filter = body([{ field: 'stage', operand: '=', value: 'Lead' }]);
    expect((await query(filter, '', '/public')).json).toEqual((await query(filter)).json);
    const get = await call(svc.url, 'GET', `/api/public${PIPELINE}/rows/query`, { key: alice });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

async function refusal(payload: unknown): Promise<string> {
  const r = await query(payload);
  expect(r.status).toBe(400);
  expect(errorOf(r).code).toBe('invalid_query_body');
  return errorOf(r).message;
}

describe('a query body is checked, not trusted', () => {
  it('refuses an unknown or deleted field, a bad operand and a nested query, each with a sentence', async () => {
    expect(await refusal(body([{ field: 'region', operand: '=', value: 'x' }]))).toBe(
      '"query.expressions[0]".field: the table has no column "region".',
    );
    expect(await refusal(body([{ field: 'stage', operand: 'contains', value: 'W' }]))).toBe(
      '"query.expressions[0]".operand must be one of = != < >; got "contains".',
    );
    expect(
      await refusal(
        body([
          { field: 'stage', operand: '=', value: 'Won' },
          {
            expressions: [{ field: 'won', operand: '=', value: true }],
            operator: 'or',
          } as unknown as Expression,
        ]),
      ),
    ).toBe('"query.expressions[1]" nests a query: the query takes one level of expressions only.');
    await svc.admin.deleteColumn(PLAYGROUND.apps.sales, PLAYGROUND.tables.pipeline, 'owner');
    try {
      expect(await refusal(body([{ field: 'owner', operand: '=', value: 'x' }]))).toBe(
        '"query.expressions[0]".field: column "owner" is deleted.',
      );
    } finally {
      await svc.admin.reset('playground');
    }
  });

  it('refuses values of the wrong type and comparisons the column has no order for', async () => {
    expect(await refusal(body([{ field: 'amount', operand: '>', value: '10000' }]))).toBe(
      '"query.expressions[0]": the value must be a number.',
    );
    expect(await refusal(body([{ field: 'closeDate', operand: '<', value: '2025-02-30' }]))).toMatch(
      /date YYYY-MM-DD/,
    );
    expect(await refusal(body([{ field: 'won', operand: '>', value: false }]))).toMatch(
      /compares numbers, dates and text; column "won" is checkbox/,
    );
    expect(await refusal(body([{ field: 'stage', operand: '<', value: 'Won' }]))).toMatch(
      /column "stage" is select/,
    );
    expect(await refusal(body([{ field: 'amount', operand: '<', value: null }]))).toMatch(
      /needs a value, not null/,
    );
  });
});

describe('a query body of another shape', () => {
  it('refuses a body of another shape: no query, no operator, no expressions, unknown members', async () => {
    await refusal({});
    await refusal({ query: { expressions: [{ field: 'stage', operand: '=', value: 'Won' }] } });
    await refusal(body([]));
    await refusal({ ...body([{ field: 'stage', operand: '=', value: 'Won' }]), sort: 'amount' });
    expect(
      await refusal(body([{ field: 'stage', operand: '=', value: 'Won', limit: 3 } as Expression])),
    ).toBe('"query.expressions[0]" has an unknown member "limit"; it takes field, operand, value.');
    expect(await refusal(body([{ field: 'stage', operand: '=' } as Expression]))).toBe(
      '"query.expressions[0]" has no "value".',
    );
    const notJson = await call(svc.url, 'POST', `/api/public${PIPELINE}/rows/query`, {
      key: alice,
      raw: 'stage=Won',
      contentType: 'text/plain',
    });
    expect(errorOf(notJson).code).toBe('unsupported_content_type');
  });
});

describe('the modes a client checks the query against', () => {
  it('off: no such route (404), as a service without it', async () => {
    await svc.admin.setQueryMode('off');
    const r = await query(body([{ field: 'stage', operand: '=', value: 'Won' }]));
    expect(r.status).toBe(404);
    expect((await call(svc.url, 'GET', '/__admin/query')).json).toEqual({ mode: 'off' });
  });

  it('ignore-body: the plain listing, rows that fail the filter included, whatever the body', async () => {
    await svc.admin.setQueryMode('ignore-body');
    const all = ordered.map((row) => row.id);
    expect(await ids(body([{ field: 'stage', operand: '=', value: 'Won' }]), '?limit=100')).toEqual(all);
    expect(await ids({ nonsense: true }, '?offset=5&limit=3')).toEqual(all.slice(5, 8));
  });

  it('is chosen at start-up too, and the admin refuses an unknown mode', async () => {
    const without = await createTableService({ data: 'playground', query: 'off' });
    try {
      const r = await call(without.url, 'POST', `/api/public${PIPELINE}/rows/query`, {
        key: without.keys.u_alice,
        body: body([{ field: 'stage', operand: '=', value: 'Won' }]),
      });
      expect(r.status).toBe(404);
    } finally {
      await without.close();
    }
    const bad = await call(svc.url, 'POST', '/__admin/query', { body: { mode: 'sometimes' } });
    expect([bad.status, errorOf(bad).message]).toEqual([400, '"mode" must be one of on, off, ignore-body.']);
  });
});

describe('the query and the platform mode', () => {
  it('counts toward the platform mode’s windows like any request', async () => {
    await svc.admin.setClock({ nowMs: T0 });
    await svc.admin.setPlatform({ windows: [{ windowMs: 60_000, max: 3 }] });
    const filter = body([{ field: 'stage', operand: '=', value: 'Won' }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await query(filter)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await svc.admin.setClock({ real: true });
  });
});
