// The link step's list of table apps (issue 26, "Finding the table app") in the simulator against the
// emulator: the person's apps only, searched by name, the "more than shown" note; Google links and
// tables a link names but the app lacks are said; a service without the list falls back to pasting,
// remembered per person and asked again after a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableAppInfo, TableAppList } from '../../src/shared/types';
import { CRM, refusal, requestsDuring, startWorld, type World } from './world';

const DAY = 24 * 60 * 60 * 1000;

function listed(list: TableAppList): { id: string; name: string; tableCount: number | null }[] {
  if (!list.available) throw new Error(`no list: ${list.reason}`);
  return list.apps;
}

describe('when the service lists table apps', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    world.connect();
  });
  afterAll(async () => world?.close());

  it('lists the person’s apps with their number of tables, never another account’s', () => {
    const list = world.call<TableAppList>('listTableApps', { query: '' });
    expect(list).toMatchObject({ available: true, query: '', more: null });
    expect(listed(list).map((app) => [app.id, app.tableCount])).toEqual([
      [CRM, 2],
      ['ta_ops', 1],
    ]);
    world.connect('u_carol');
    expect(listed(world.call<TableAppList>('listTableApps', {})).map((app) => app.name)).toEqual([
      'Globex Inventory',
    ]);
    world.connect();
  });

  it('searches by part of the name, in any case, on the service', async () => {
    const requests = await requestsDuring(world, () => {
      expect(listed(world.call<TableAppList>('listTableApps', { query: ' cR ' }))).toEqual([
        { id: CRM, name: 'CRM', tableCount: 2 },
      ]);
    });
    expect(requests.map((r) => [r.path, r.query])).toEqual([
      ['/api/public/tableApps', { q: 'cR', offset: '0', limit: '100' }],
    ]);
    expect(listed(world.call<TableAppList>('listTableApps', { query: 'nothing like it' }))).toEqual([]);
  });

  it('refuses a search it cannot send, saying what to do', () => {
    expect(refusal(world, 'listTableApps', { query: 'x'.repeat(101) })).toBe(
      'Search with at most 100 characters of the table app’s name (this search has 101).',
    );
    expect(refusal(world, 'listTableApps', { query: 42 })).toBe('Type part of a table app’s name to search.');
  });

  it('refuses a Google Sheets link, saying to paste the service’s link instead', () => {
    const spreadsheetLink = 'https://docs.google.com/spreadsheets/d/1AbCdEf/edit#gid=0';
    expect(refusal(world, 'listTables', { tableAppId: spreadsheetLink })).toContain(
      'That is a Google Sheets link, not a table app of the service: open the table app on the service, copy the link',
    );
  });

  it('says when a link names a table the app does not have, and preselects nothing', () => {
    const info = world.call<TableAppInfo>('listTables', {
      tableAppId: `https://tables.example.com/${CRM}/tbl_gone`,
    });
    expect(info).toMatchObject({
      id: CRM,
      understood: 'table app ta_crm (from the link)',
      tableIdHint: null,
      tableProblem: 'This table app has no table tbl_gone; pick one of “Deals” or “Contacts”.',
    });
    expect(info.tables.map((table) => table.id)).toEqual(['tbl_deals', 'tbl_contacts']);
  });

  it('shows the first 500 of many, with a note on how to find the others', async () => {
    for (let n = 1; n <= 505; n++) await world.emulator.admin.addApp('acc_acme', `Bulk ${n}`, `ta_bulk${n}`);
    const all = world.call<TableAppList>('listTableApps', { query: '' });
    expect(listed(all)).toHaveLength(500);
    expect(all.available && all.more).toBe(
      'Showing the first 500 of your table apps: type part of a name to find the others.',
    );
    const narrowed = world.call<TableAppList>('listTableApps', { query: 'bulk 50' });
    expect(listed(narrowed).map((app) => app.name)).toEqual([
      'Bulk 50',
      ...Array.from({ length: 6 }, (_, i) => `Bulk ${500 + i}`),
    ]);
    expect(narrowed.available && narrowed.more).toBeNull();
    const many = world.call<TableAppList>('listTableApps', { query: 'BULK' });
    expect(listed(many)).toHaveLength(500);
    expect(many.available && many.more).toBe(
      'Showing the first 500 table apps whose name contains “BULK”: type more of the name.',
    );
  });
});

describe('when the service does not list table apps', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ emulator: { tableAppSearch: false } });
    world.connect();
  });
  afterAll(async () => world?.close());

  it('says to paste a link, remembers it for the person, and asks again after a day', async () => {
    const first = await requestsDuring(world, () => {
      expect(world.call<TableAppList>('listTableApps', { query: '' })).toEqual({
        available: false,
        query: '',
        reason:
          'This service does not list your table apps: paste the table app’s link (from the service’s address bar) or its id.',
      });
    });
    expect(first.map((r) => [r.path, r.status])).toEqual([['/api/public/tableApps', 404]]);

    // Within a day, the sidebar's next visits cost no request.
    world.sim.clock.advance(DAY - 60_000);
    const meanwhile = await requestsDuring(world, () => {
      expect(world.call<TableAppList>('listTableApps', { query: 'crm' }).available).toBe(false);
    });
    expect(meanwhile).toEqual([]);

    world.sim.clock.advance(60_000);
    const later = await requestsDuring(world, () => {
      expect(world.call<TableAppList>('listTableApps', { query: '' }).available).toBe(false);
    });
    expect(later.map((r) => r.path)).toEqual(['/api/public/tableApps']);

    // Pasting still works.
    expect(world.call<TableAppInfo>('listTables', { tableAppId: CRM }).tables.length).toBe(2);
  });

  it('remembers it per connection: another connection asks its service afresh', async () => {
    world.call('listTableApps', { query: '' });
    const same = await requestsDuring(world, () => world.call('listTableApps', { query: '' }));
    expect(same).toEqual([]);
    world.call('saveConnection', {
      baseUrl: world.emulator.url,
      apiKey: world.emulator.keys.u_alice,
      prefix: '/public',
    });
    const other = await requestsDuring(world, () => world.call('listTableApps', { query: '' }));
    expect(other.map((r) => [r.path, r.status])).toEqual([['/public/tableApps', 404]]);
    world.connect();
  });

  it('keeps the memory in the person’s own user properties, never the document’s', () => {
    expect(JSON.stringify(world.sim.properties('user'))).toContain('tableAppSearch');
    expect(JSON.stringify(world.sim.properties('document'))).not.toContain('tableAppSearch');
  });
});
