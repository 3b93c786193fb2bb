// Choice columns (table-api.md, "Choices"): a select column's schema and its one-of-the-choices
// values, choices on a multiSelect column, refusals with a message naming the choices, choices changed
// through the admin route as a person on the service would; and the playground's data set, whose
// Pipeline table has choice, number, date, checkbox and multi-choice columns.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAYGROUND } from '../../../emulators/table-service/sample-pipeline.js';
import { createTableService, type TableService } from '../../../emulators/table-service/server.js';
import type { Column, EmulatorState } from '../../../emulators/table-service/types.js';
import { call, errorOf, type RowJson } from './helpers.js';

const PIPELINE = `/tableApps/${PLAYGROUND.apps.sales}/tables/${PLAYGROUND.tables.pipeline}`;
let svc: TableService;
let alice: string;

beforeAll(async () => {
  svc = await createTableService({ data: 'playground' });
  alice = svc.keys.u_alice as string;
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.admin.reset('playground');
});

function pipelineOf(state: EmulatorState) {
  const table = state.apps.find((a) => a.id === PLAYGROUND.apps.sales)?.tables[0];
  if (!table) throw new Error('no pipeline');
  return table;
}

const column = (columns: Column[], id: string): Column | undefined => columns.find((c) => c.id === id);

describe('a select column', () => {
  it('shows its choices in config.options and cSchema.enum, as one string', async () => {
    const r = await call(svc.url, 'GET', `/api/public${PIPELINE}`, { key: alice });
    const stage = column((r.json as { columns: Column[] }).columns, 'stage');
    expect(stage).toMatchObject({
      type: 'select',
      multi: false,
      config: { options: [...PLAYGROUND.stages] },
      cSchema: { type: 'string', enum: [...PLAYGROUND.stages] },
    });
    const tags = column((r.json as { columns: Column[] }).columns, 'tags');
    expect(tags).toMatchObject({
      type: 'multiSelect',
      multi: true,
      config: { options: [...PLAYGROUND.tags] },
      cSchema: { type: 'array', items: { type: 'string', enum: [...PLAYGROUND.tags] } },
    });
  });
});

describe('a select column’s values', () => {
  it('takes one of its choices or null, and refuses anything else with 400 naming the choices', async () => {
    const made = await call(svc.url, 'POST', `/api/public${PIPELINE}/rows`, {
      key: alice,
      body: { title: 'New deal', stage: 'Proposal', tags: ['smb', 'urgent'] },
    });
    expect(made.status).toBe(201);
    const row = made.json as RowJson;
    expect(row).toMatchObject({ stage: 'Proposal', tags: ['smb', 'urgent'] });
    const cleared = await call(svc.url, 'PATCH', `/public${PIPELINE}/rows/${row.id}`, {
      key: alice,
      body: { stage: null },
    });
    expect((cleared.json as RowJson).stage).toBeNull();

    const outside = await call(svc.url, 'PATCH', `/public${PIPELINE}/rows/${row.id}`, {
      key: alice,
      body: { stage: 'proposal' },
    });
    expect(outside.status).toBe(400);
    expect(errorOf(outside).code).toBe('invalid_choice');
    expect(errorOf(outside).message).toBe(
      'Column "stage" (select) takes only its choices ("Lead", "Qualified", "Proposal", "Negotiation", "Won", "Lost"); got "proposal".',
    );
    const wrongType = await call(svc.url, 'PATCH', `/public${PIPELINE}/rows/${row.id}`, {
      key: alice,
      body: { stage: ['Won'] },
    });
    expect([wrongType.status, errorOf(wrongType).code]).toEqual([400, 'invalid_value']);
    const strayTag = await call(svc.url, 'PATCH', `/public${PIPELINE}/rows/${row.id}`, {
      key: alice,
      body: { tags: ['smb', 'vip'] },
    });
    expect(strayTag.status).toBe(400);
    expect(errorOf(strayTag).message).toMatch(
      /Column "tags" \(multiSelect\) takes only its choices .*; got "vip"\./,
    );
    // Nothing refused was written.
    const state = await svc.admin.state();
    expect(pipelineOf(state).rows.find((r) => r.id === row.id)).toMatchObject({
      stage: null,
      tags: ['smb', 'urgent'],
    });
  });
});

describe('a multiSelect column', () => {
  it('keeps a multiSelect without choices taking any strings (the Deals tags)', async () => {
    await svc.admin.reset('sample');
    const r = await call(svc.url, 'POST', '/api/public/tableApps/ta_crm/tables/tbl_deals/rows', {
      key: alice,
      body: { title: 'x', tags: ['anything', 'at all'] },
    });
    expect(r.status).toBe(201);
  });
});

describe('choices changed on the service (admin /columns/choices)', () => {
  it('takes the new choices from then on; rows keep a value no longer among them', async () => {
    const before = pipelineOf(await svc.admin.state());
    const won = before.rows.find((r) => r.stage === 'Won');
    expect(won).toBeDefined();
    const changed = await svc.admin.setColumnChoices(
      PLAYGROUND.apps.sales,
      PLAYGROUND.tables.pipeline,
      'stage',
      ['Lead', 'Closed'],
    );
    expect(changed).toMatchObject({
      config: { options: ['Lead', 'Closed'] },
      cSchema: { enum: ['Lead', 'Closed'] },
    });
    const after = pipelineOf(await svc.admin.state());
    expect(after.rows.find((r) => r.id === won?.id)?.stage).toBe('Won');
    expect(Date.parse(after.lastModified)).toBeGreaterThan(Date.parse(before.lastModified));
    const refused = await call(svc.url, 'PATCH', `/api/public${PIPELINE}/rows/${won?.id}`, {
      key: alice,
      body: { stage: 'Won' },
    });
    expect(errorOf(refused).code).toBe('invalid_choice');
    const taken = await call(svc.url, 'PATCH', `/api/public${PIPELINE}/rows/${won?.id}`, {
      key: alice,
      body: { stage: 'Closed' },
    });
    expect(taken.status).toBe(200);
    await svc.admin.setColumnChoices(PLAYGROUND.apps.sales, PLAYGROUND.tables.pipeline, 'tags', ['a', 'b']);
    const tags = column(pipelineOf(await svc.admin.state()).columns, 'tags');
    expect(tags?.cSchema).toEqual({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } });
  });

  it('refuses choices that are not a list of distinct non-empty strings, and columns without choices', async () => {
    const post = (body: unknown) =>
      call(svc.url, 'POST', '/__admin/columns/choices', { body: body as Record<string, unknown> });
    const target = { appId: PLAYGROUND.apps.sales, tableId: PLAYGROUND.tables.pipeline, columnId: 'stage' };
    expect(errorOf(await post({ ...target, options: [] })).code).toBe('invalid_choices');
    expect(errorOf(await post({ ...target, options: ['a', 'a'] })).message).toBe(
      'Column "stage": the choice "a" is given twice.',
    );
    expect(errorOf(await post({ ...target, options: ['a', 3] })).code).toBe('invalid_choices');
    expect(errorOf(await post({ ...target, options: 'a' })).code).toBe('invalid_request');
    const amount = await post({ ...target, columnId: 'amount', options: ['a'] });
    expect([amount.status, errorOf(amount).message]).toEqual([
      400,
      'Column "amount" is a number column: only select and multiSelect columns have choices.',
    ]);
  });
});

describe('a select column added through the admin route', () => {
  it('adds a select column with its choices, and refuses one without', async () => {
    const added = await svc.admin.addColumn(PLAYGROUND.apps.sales, PLAYGROUND.tables.pipeline, {
      id: 'region',
      name: 'Region',
      type: 'select',
      options: ['EMEA', 'APAC'],
    });
    expect(added).toMatchObject({ type: 'select', config: { options: ['EMEA', 'APAC'] } });
    const missing = await call(svc.url, 'POST', '/__admin/columns/add', {
      body: {
        appId: PLAYGROUND.apps.sales,
        tableId: PLAYGROUND.tables.pipeline,
        column: { name: 'X', type: 'select' },
      },
    });
    expect([missing.status, errorOf(missing).code]).toEqual([400, 'invalid_choices']);
    expect(errorOf(missing).message).toMatch(/needs its choices: a non-empty list of strings\.$/);
  });
});

describe("the playground's data set", () => {
  it('is the sample data plus the Sales app with a 40-row Pipeline table, the same on every start', async () => {
    const state = await svc.admin.state();
    expect(state.apps.map((a) => a.id)).toEqual(['ta_crm', 'ta_ops', 'ta_globex', 'ta_sales']);
    const pipeline = pipelineOf(state);
    expect(pipeline.columns.map((c) => [c.id, c.type])).toEqual([
      ['title', 'text'],
      ['stage', 'select'],
      ['amount', 'number'],
      ['closeDate', 'date'],
      ['won', 'checkbox'],
      ['tags', 'multiSelect'],
      ['owner', 'text'],
    ]);
    expect(pipeline.rows).toHaveLength(PLAYGROUND.rows);
    const again = await createTableService({ data: 'playground' });
    try {
      expect(pipelineOf(await again.admin.state())).toEqual(pipeline);
    } finally {
      await again.close();
    }
  });

  it('holds every stage, empty cells, both checkbox states and values on both sides of a filter', async () => {
    const rows = pipelineOf(await svc.admin.state()).rows;
    expect(new Set(rows.map((r) => r.stage))).toEqual(new Set([...PLAYGROUND.stages, null]));
    expect(rows.some((r) => r.amount === null) && rows.some((r) => r.closeDate === null)).toBe(true);
    expect(new Set(rows.map((r) => r.won))).toEqual(new Set([true, false]));
    expect(rows.every((r) => (r.won === true) === (r.stage === 'Won'))).toBe(true);
    const amounts = rows.map((r) => r.amount).filter((a): a is number => typeof a === 'number');
    expect(amounts.some((a) => a > 10000) && amounts.some((a) => a <= 10000)).toBe(true);
    expect(rows.some((r) => Array.isArray(r.tags) && r.tags.length === 0)).toBe(true);
    expect(rows.some((r) => Array.isArray(r.tags) && r.tags.length > 1)).toBe(true);
  });

  it('leaves the sample data as it was: no Sales app there', async () => {
    await svc.admin.reset('sample');
    expect((await svc.admin.state()).apps.map((a) => a.id)).toEqual(['ta_crm', 'ta_ops', 'ta_globex']);
  });
});
