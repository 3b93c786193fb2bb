// Connect and pull, end to end: the built add-on in the Apps Script simulator against the table
// service emulator over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshPace } from '../../src/api/pace';
import type { SyncSummary } from '../../src/shared/types';
import {
  activeSheet,
  CRM,
  cellOf,
  DEALS,
  freshSheet,
  headers,
  mismatches,
  pullSheet,
  requestsDuring,
  startWorld,
  typeInto,
  type World,
} from './world';

const RANGE_PROTECTION = 'RANGE' as unknown as GoogleAppsScript.Spreadsheet.ProtectionType;

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

describe('connecting', () => {
  it('checks the key with /user/me and returns whose it is, never the key', () => {
    const info = world.call<Record<string, unknown>>('saveConnection', {
      baseUrl: world.emulator.url,
      apiKey: world.emulator.keys.u_alice,
    });
    expect(info).toMatchObject({ email: 'alice@acme.test', userId: 'u_alice', prefix: '/api/public' });
    expect(JSON.stringify(info)).not.toContain(world.emulator.keys.u_alice as string);
    expect(world.sim.properties('user')['tas.apiKey']).toBe(world.emulator.keys.u_alice);
    expect(JSON.stringify(world.sim.properties('document'))).not.toContain(
      world.emulator.keys.u_alice as string,
    );
  });

  it('counts the key check in the pace kept for the address, as the service counts it in the key’s windows', () => {
    const fresh = freshPace();
    world.sim.writeProperty(
      'user',
      'servicePace',
      JSON.stringify({ baseUrl: world.emulator.url, state: fresh }),
    );
    world.call('saveConnection', { baseUrl: world.emulator.url, apiKey: world.emulator.keys.u_alice });
    const kept = JSON.parse(world.sim.properties('user').servicePace ?? '{}') as {
      state: { seconds: number[][]; minutes: number[][] };
    };
    const counted = [...kept.state.seconds, ...kept.state.minutes].reduce(
      (sum, bucket) => sum + (bucket[1] ?? 0),
      0,
    );
    expect(counted).toBe(1);
  });

  it('refuses a wrong key with the reason and keeps what was stored', () => {
    world.connect();
    const before = world.sim.properties('user');
    expect(() => world.call('saveConnection', { baseUrl: world.emulator.url, apiKey: 'not-a-key' })).toThrow(
      /^Your API key is not valid .*create a new key/,
    );
    expect(world.sim.properties('user')).toEqual(before);
  });

  it('refuses a plain-http address that is not loopback', () => {
    expect(() => world.call('saveConnection', { baseUrl: 'http://example.com', apiKey: 'x' })).toThrow(
      /https/,
    );
  });

  it('falls back to the /public prefix when /api/public is not there, and remembers it', async () => {
    await world.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: '^/api/public/user/me$' },
        status: 404,
        body: '{"error":{"code":"not_found","message":"no"}}',
      },
    ]);
    const info = world.call<{ prefix: string }>('saveConnection', {
      baseUrl: world.emulator.url,
      apiKey: world.emulator.keys.u_alice,
    });
    expect(info.prefix).toBe('/public');
    freshSheet(world);
    const log = await requestsDuring(world, () => world.linkAndPull());
    expect(log.every((entry) => entry.path.startsWith('/public/'))).toBe(true);
    world.connect();
  });
});

describe('linking', () => {
  beforeEach(() => {
    world.connect();
    freshSheet(world);
  });

  it('lists a table app’s tables with their live column counts', () => {
    const app = world.call<{ name: string; tables: Array<{ id: string; columnCount: number }> }>(
      'listTables',
      {
        tableAppId: `${world.emulator.url}/app/tableApps/${CRM}?view=1`,
      },
    );
    expect(app.name).toBe('CRM');
    expect(app.tables.find((table) => table.id === DEALS)?.columnCount).toBe(8);
  });

  it('does not overwrite a sheet holding other data without replace', () => {
    activeSheet(world).getRange('A1').setValue('my own data');
    expect(() => world.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS })).toThrow(
      /already holds data/,
    );
    expect(activeSheet(world).getRange('A1').getValue()).toBe('my own data');
    world.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS, replace: true });
    expect(activeSheet(world).getRange('A1').getValue()).toBe('');
  });

  it('keeps the link when the sheet is renamed (bound to the sheet id)', () => {
    world.linkAndPull();
    activeSheet(world).setName('renamed deals');
    expect(pullSheet(world).ok).toBe(true);
  });

  it('says what to do when a menu pull runs on a sheet that is not linked', () => {
    world.run('menuPull');
    expect(world.sim.ui.sidebars.length).toBeGreaterThan(0);
  });

  it('answers 403 for a table app of another account with an actionable message', () => {
    expect(() =>
      world.call('linkActiveSheet', { tableAppId: 'ta_globex', tableId: 'tbl_inventory' }),
    ).toThrow(/^You have no access to table app ta_globex: /);
  });
});

describe('a first pull', () => {
  beforeAll(() => {
    world.connect();
    freshSheet(world);
    world.linkAndPull();
  });

  it('puts column ids in a frozen header row with name and type as notes, leaving deleted columns out', () => {
    expect(headers(world)).toEqual([
      'id',
      'title',
      'status',
      'amount',
      'won',
      'closeDate',
      'tags',
      'meta',
      'notes',
      'lMod',
      '_sync',
    ]);
    const sheet = activeSheet(world);
    expect(sheet.getFrozenRows()).toBe(1);
    expect(sheet.getRange(1, 2).getNote()).toContain('Name');
    expect(sheet.getRange(1, 2).getNote()).toContain('Type: text');
  });

  it('marks the fixed-field columns read-only: a warning-only protection and a distinct header style', () => {
    const sheet = activeSheet(world);
    const protectedColumns = sheet
      .getProtections(RANGE_PROTECTION)
      .filter((protection) => protection.isWarningOnly())
      .flatMap((protection) => {
        const range = protection.getRange();
        return Array.from({ length: range.getNumColumns() }, (_, i) => range.getColumn() + i);
      });
    const h = headers(world);
    for (const field of ['id', 'lMod', '_sync']) expect(protectedColumns).toContain(h.indexOf(field) + 1);
    expect(protectedColumns).not.toContain(h.indexOf('title') + 1);
    // Adjacent read-only columns share one protection (each costs four calls, and a line in the list).
    const readOnly = ['id', 'lMod', '_sync'].map((field) => h.indexOf(field)).sort((a, b) => a - b);
    const runs = readOnly.filter((index, i) => i === 0 || index !== (readOnly[i - 1] as number) + 1).length;
    expect(readOnly.length - runs).toBeGreaterThan(0);
    expect(sheet.getProtections(RANGE_PROTECTION)).toHaveLength(runs);
    const backgrounds = sheet.getRange(1, 1, 1, h.length).getBackgrounds()[0] ?? [];
    expect(backgrounds[h.indexOf('id')]).not.toBe(backgrounds[h.indexOf('title')]);
  });

  it('holds every row with every cell equal to the service’s value', async () => {
    expect(await mismatches(world)).toEqual([]);
  });

  it('keeps text literal and never makes a live formula', () => {
    const values = world.values();
    const formulas = activeSheet(world)
      .getRange(1, 1, values.length, values[0]?.length ?? 1)
      .getFormulas();
    expect(formulas.flat().every((formula) => formula === '')).toBe(true);
  });

  it('a second pull with nothing changed writes nothing and reports all unchanged', () => {
    const summary = pullSheet(world);
    expect(summary).toMatchObject({ ok: true, added: 0, updated: 0, conflicts: 0 });
    expect(summary.unchanged).toBe(25);
  });
});

describe('a later pull', () => {
  let rows: Array<Record<string, unknown>>;
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    world.connect();
    freshSheet(world);
    world.linkAndPull();
    rows = await world.serviceRows();
  });

  it('takes values changed on the service', async () => {
    const id = String(rows[0]?.id);
    await world.emulator.admin.editRow(CRM, DEALS, id, { status: 'Won' }, 'u_bob');
    expect(pullSheet(world)).toMatchObject({ updated: 1 });
    expect(cellOf(world, id, 'status')).toBe('Won');
    expect(await mismatches(world)).toEqual([]);
  });

  it('keeps service text literal in a column the person formatted as numbers since the last pull', async () => {
    const [first, second] = [String(rows[0]?.id), String(rows[1]?.id)];
    const h = headers(world);
    // The whole title column reformatted by hand: a plain-text cell there would parse 00123 as 123.
    activeSheet(world)
      .getRange(2, h.indexOf('title') + 1, rows.length, 1)
      .setNumberFormat('0.###############');
    await world.emulator.admin.editRow(CRM, DEALS, first, { title: '00123' }, 'u_bob');
    await world.emulator.admin.editRow(CRM, DEALS, second, { title: '=1+1' }, 'u_bob');
    expect(pullSheet(world)).toMatchObject({ updated: 2 });
    expect(cellOf(world, first, 'title')).toBe('00123');
    expect(cellOf(world, second, 'title')).toBe('=1+1');
    expect(await mismatches(world)).toEqual([]);
  });

  it('restores the header notes and styles a person removed', () => {
    const h = headers(world);
    const header = activeSheet(world).getRange(1, 1, 1, h.length);
    const notes = header.getNotes();
    const backgrounds = header.getBackgrounds();
    const weights = header.getFontWeights();
    header.clearNote();
    activeSheet(world)
      .getRange(1, h.indexOf('title') + 1)
      .setBackground('#ff0000')
      .setFontWeight('normal');
    pullSheet(world);
    expect(header.getNotes()).toEqual(notes);
    expect(header.getBackgrounds()).toEqual(backgrounds);
    expect(header.getFontWeights()).toEqual(weights);
    expect(notes[0]?.[h.indexOf('title')]).toContain('Type: text');
  });

  it('keeps a cell edited in the sheet since the last sync', async () => {
    const id = String(rows[1]?.id);
    typeInto(world, id, 'status', 'Negotiating');
    expect(pullSheet(world)).toMatchObject({ keptLocal: 1 });
    expect(cellOf(world, id, 'status')).toBe('Negotiating');
    expect(String(cellOf(world, id, '_sync'))).toContain('not pushed yet');
  });

  it('marks a cell changed on both sides as a conflict and keeps the local value', async () => {
    const id = String(rows[2]?.id);
    typeInto(world, id, 'status', 'mine');
    await world.emulator.admin.editRow(CRM, DEALS, id, { status: 'theirs' }, 'u_bob');
    const summary = pullSheet(world);
    expect(summary.conflicts).toBe(1);
    expect(summary.issues).toEqual([expect.objectContaining({ rowId: id, kind: 'conflict' })]);
    expect(cellOf(world, id, 'status')).toBe('mine');
    expect(String(cellOf(world, id, '_sync'))).toContain('conflict: status');
  });

  it('appends a column added on the service as a new header', async () => {
    await world.emulator.admin.addColumn(CRM, DEALS, { id: 'priority', name: 'Priority', type: 'text' });
    await world.emulator.admin.editRow(CRM, DEALS, String(rows[0]?.id), { priority: 'high' }, 'u_bob');
    pullSheet(world);
    expect(headers(world).at(-1)).toBe('priority');
    expect(cellOf(world, String(rows[0]?.id), 'priority')).toBe('high');
    expect(await mismatches(world)).toEqual([]);
  });

  it('keeps the sheet column of a column deleted on the service, unsynced and noted', async () => {
    await world.emulator.admin.deleteColumn(CRM, DEALS, 'status');
    const before = cellOf(world, String(rows[0]?.id), 'status');
    expect(pullSheet(world).ok).toBe(true);
    expect(cellOf(world, String(rows[0]?.id), 'status')).toBe(before);
    expect(
      activeSheet(world)
        .getRange(1, headers(world).indexOf('status') + 1)
        .getNote(),
    ).toContain('deleted on the service');
  });

  it('updates the header note when a column is renamed on the service', async () => {
    await world.emulator.admin.renameColumn(CRM, DEALS, 'status', 'Stage');
    pullSheet(world);
    expect(
      activeSheet(world)
        .getRange(1, headers(world).indexOf('status') + 1)
        .getNote(),
    ).toContain('Stage');
  });

  it('keeps the person’s sort order and own columns on the line of the same row id', async () => {
    const sheet = activeSheet(world);
    const width = headers(world).length;
    sheet.getRange(1, width + 1).setValue('my note');
    const values = world.values();
    for (let r = 2; r <= values.length; r++)
      sheet.getRange(r, width + 1).setValue(`note for ${values[r - 1]?.[0]}`);
    sheet.getRange(2, 1, values.length - 1, width + 1).sort({ column: 2, ascending: false });
    const target = String(rows[5]?.id);
    await world.emulator.admin.editRow(CRM, DEALS, target, { status: 'moved' }, 'u_bob');
    await world.emulator.admin.createRow(CRM, DEALS, { title: 'Brand new deal' }, 'u_bob');
    pullSheet(world);
    const after = world.values();
    const h = (after[0] ?? []).map(String);
    for (const line of after.slice(1)) {
      const id = String(line[h.indexOf('id')]);
      if (id === String((await world.serviceRows()).at(-1)?.id)) continue;
      expect(line[h.indexOf('my note')]).toBe(`note for ${id}`);
    }
    expect(cellOf(world, target, 'status')).toBe('moved');
    expect(String(after.at(-1)?.[h.indexOf('title')])).toBe('Brand new deal');
  });

  it('marks rows gone from the service instead of deleting them', async () => {
    const id = String(rows[3]?.id);
    await world.emulator.admin.deleteRow(CRM, DEALS, id);
    expect(pullSheet(world)).toMatchObject({ removedOnService: 1 });
    expect(String(cellOf(world, id, '_sync'))).toContain('removed on the service');
  });
});

describe('when the service misbehaves', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.clearFaults();
    world.connect();
    freshSheet(world);
    world.linkAndPull();
  });

  const rowsPath = '/tableApps/ta_crm/tables/tbl_deals/rows$';

  it('an empty listing never clears the sheet', async () => {
    const before = world.values();
    await world.emulator.admin.queueAnswers([
      { match: { method: 'GET', path: rowsPath }, status: 200, body: '{"rows":[],"hasMore":false}' },
    ]);
    const summary = pullSheet(world);
    expect(summary.ok).toBe(true);
    expect(world.values()).toEqual(before);
  });

  it('retries 429 (honouring Retry-After) and 500, then succeeds', async () => {
    await world.emulator.admin.queueAnswers([
      { match: { method: 'GET', path: rowsPath }, status: 429, headers: { 'Retry-After': '1' }, body: '{}' },
      { match: { method: 'GET', path: rowsPath }, status: 500, body: '{}' },
    ]);
    expect(pullSheet(world)).toMatchObject({ ok: true, unchanged: 25 });
  });

  it('an HTML page is an error, not data, and the sheet stays', async () => {
    const before = world.values();
    await world.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: rowsPath },
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Sign in</body></html>',
      },
    ]);
    const summary = pullSheet(world);
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/cannot read what .* answered \(a web page\): check the service address/);
    expect(world.values()).toEqual(before);
  });

  it('a key that stopped working says to create a new one, and the sheet stays', async () => {
    // Its own lifetime, so the token differs from the shared key that world.connect() saves.
    const soonExpired = await world.emulator.admin.issueToken('u_alice', { ttlSeconds: 3600 });
    world.call('saveConnection', { baseUrl: world.emulator.url, apiKey: soonExpired });
    const before = world.values();
    await world.emulator.admin.expireToken(soonExpired);
    const summary = pullSheet(world);
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/^Your API key is not valid .*: create a new key/);
    expect(world.values()).toEqual(before);
  });

  it('a table removed from the app is reported as not found', async () => {
    await world.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: '/tableApps/ta_crm/tables/tbl_deals$' },
        status: 404,
        body: '{"error":{"code":"not_found","message":"Table not found"}}',
      },
    ]);
    const summary = pullSheet(world);
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/not found|404/i);
  });
});

describe('list shapes and size', () => {
  it('pulls the bare-array listing shape', async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.setListShape('array');
    world.connect();
    freshSheet(world);
    world.linkAndPull();
    expect(await mismatches(world)).toEqual([]);
    await world.emulator.admin.setListShape('object');
  });

  it('pulls 2,500 rows with every cell equal, in at most 35 requests', async () => {
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_big',
      name: 'Big',
      rows: 2500,
      columns: 12,
    });
    world.connect();
    freshSheet(world);
    world.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_big' });
    const log = await requestsDuring(world, () =>
      expect(pullSheet(world)).toMatchObject({ ok: true, added: 2500 }),
    );
    // The schema + 25 pages, at most 7 pages past the end (speculative waves of 4, 8, then 10: pages
    // 0-31 in 4 rounds), and the two size probes (too-large tables are refused before anything is
    // written).
    expect(log.length).toBeLessThanOrEqual(35);
    expect(await mismatches(world, undefined, CRM, 'tbl_big')).toEqual([]);
    const formulas = activeSheet(world).getRange(1, 1, 2501, headers(world).length).getFormulas();
    expect(formulas.flat().filter((formula) => formula !== '')).toEqual([]);
  });
});

describe('guard rails', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    world.connect();
    freshSheet(world);
    world.linkAndPull();
  });

  it('refuses to pull or push when the id column was deleted, instead of duplicating every row', async () => {
    const before = await world.serviceRows();
    activeSheet(world).deleteColumn(headers(world).indexOf('id') + 1);
    const values = world.values();
    const pulled = pullSheet(world);
    expect(pulled.ok).toBe(false);
    expect(pulled.message).toMatch(/id column of this sheet is missing/);
    expect(world.values()).toEqual(values);
    const pushed = world.call<SyncSummary>('pushActiveSheet');
    expect(pushed.ok).toBe(false);
    expect(await world.serviceRows()).toHaveLength(before.length);
  });

  it('does not mark every row removed when a listing suddenly comes back empty', async () => {
    await world.emulator.admin.queueAnswers([
      {
        match: { method: 'GET', path: '/tableApps/ta_crm/tables/tbl_deals/rows$' },
        status: 200,
        body: '{"rows":[],"hasMore":false}',
      },
    ]);
    const summary = pullSheet(world);
    expect(summary.removedOnService).toBe(0);
    const statuses = world
      .values()
      .slice(1)
      .map((line) => String(line[headers(world).indexOf('_sync')]));
    expect(statuses.some((status) => status.includes('removed'))).toBe(false);
  });
});
