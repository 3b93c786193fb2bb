// Secrets and scopes: the API key appears nowhere the add-on writes or shows, other users of the
// spreadsheet cannot use it, the manifest asks for the narrow scopes, and SERVICE_URL sets the allow-list.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM, DEALS, startWorld, type World } from './world';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NARROW_SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets.currentonly',
  'https://www.googleapis.com/auth/script.external_request',
  'https://www.googleapis.com/auth/script.container.ui',
  'https://www.googleapis.com/auth/script.scriptapp',
  'https://www.googleapis.com/auth/script.send_mail',
];
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

describe('secrets', () => {
  let world: World;
  /** Everything the add-on returned or threw to a caller during the run. */
  const returned: unknown[] = [];

  const call = (fn: string, args: unknown[] = [], user = ALICE): unknown => {
    const result = world.sim.callFromClient(fn, args, { user });
    returned.push(result.ok ? result.value : result.error?.message);
    return result.ok ? result.value : undefined;
  };

  beforeAll(async () => {
    world = await startWorld({ simulator: { users: [{ email: ALICE }, { email: BOB }] } });
    const admin = world.emulator.admin;
    // A full run: connect (also a refused try), link, pull, push, a conflict, errors, a failing schedule.
    call('saveConnection', [{ baseUrl: world.emulator.url, apiKey: `${world.emulator.keys.u_alice}x` }]);
    call('saveConnection', [
      {
        baseUrl: `http://user:${world.emulator.keys.u_alice}@api.example.com`,
        apiKey: world.emulator.keys.u_alice,
      },
    ]);
    call('saveConnection', [{ baseUrl: world.emulator.url, apiKey: world.emulator.keys.u_alice }]);
    call('getConnection', [{ refresh: true }]);
    call('listTableApps', [{ query: '' }]);
    call('listTableApps', [{ query: 'crm' }]);
    call('listTables', [{ tableAppId: CRM }]);
    call('listTables', [{ tableAppId: 'ta_globex' }]);
    call('linkActiveSheet', [{ tableAppId: CRM, tableId: DEALS }]);
    call('pullActiveSheet');
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const headers = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as unknown[]).map(String);
    const col = (h: string): number => headers.indexOf(h) + 1;
    const rows = await world.serviceRows();
    sheet.getRange(2, col('status')).setValue('edited');
    sheet.getRange(3, col('amount')).setValue('not a number');
    sheet.getRange(4, col('notes')).setValue('mine');
    await admin.editRow(CRM, DEALS, String(rows[2]?.id), { notes: 'theirs' }, 'u_bob');
    sheet.getRange(sheet.getLastRow() + 1, col('title')).setValue('a new line');
    call('pushActiveSheet');
    call('syncActiveSheet');
    call('resolveConflicts', [{ keep: 'theirs' }]);
    call('setSchedule', [{ mode: 'sync', every: 'h1' }]);
    call('getSchedule');
    call('getState');
    await admin.setFaults({ errorRate: 1 });
    for (let hour = 0; hour < 3; hour++) {
      for (const result of world.sim.advanceAndFire(3600_000))
        returned.push(result.value, result.error?.message);
    }
    await admin.clearFaults();
    // A key that stopped working: the messages name the problem, never the key.
    await admin.issueToken('u_alice', { expired: true });
    call('getState');
    world.sim.run('onOpen');
    world.sim.run('menuSync');
    world.sim.run('menuHelp');
  });
  afterAll(async () => world?.close());

  it('the run produced what the scan covers (mail, toasts, logs, log sheet)', () => {
    expect(world.sim.mail.length).toBeGreaterThan(0);
    expect(world.sim.ui.toasts.length).toBeGreaterThan(0);
    expect(world.sim.spreadsheet.getSheetByName('Sync log')).not.toBeNull();
  });

  it('the API key and any JWT appear in no sheet, note, formula, log, toast, mail, return value or shared property', () => {
    const key = world.emulator.keys.u_alice as string;
    const places: Array<[string, string]> = [];
    for (const sheet of world.sim.spreadsheet.getSheets()) {
      const rows = Math.max(1, sheet.getLastRow());
      const cols = Math.max(1, sheet.getLastColumn());
      const range = sheet.getRange(1, 1, rows, cols);
      places.push([`sheet ${sheet.getName()} values`, JSON.stringify(range.getValues())]);
      places.push([`sheet ${sheet.getName()} display`, JSON.stringify(range.getDisplayValues())]);
      places.push([`sheet ${sheet.getName()} notes`, JSON.stringify(range.getNotes())]);
      places.push([`sheet ${sheet.getName()} formulas`, JSON.stringify(range.getFormulas())]);
    }
    places.push(['logs', JSON.stringify(world.sim.logs)]);
    places.push(['ui (toasts, alerts, sidebars, dialogs, menus)', JSON.stringify(world.sim.ui)]);
    places.push(['mail', JSON.stringify(world.sim.mail)]);
    places.push(['returned and thrown to callers', JSON.stringify(returned)]);
    places.push(['document properties', JSON.stringify(world.sim.properties('document'))]);
    places.push(['script properties', JSON.stringify(world.sim.properties('script'))]);
    places.push(['bob user properties', JSON.stringify(world.sim.properties('user', BOB))]);
    places.push(['sidebar page', readFileSync(path.join(ROOT, 'dist/Sidebar.html'), 'utf8')]);
    const leaks = places.filter(([, text]) => text.includes(key) || JWT.test(text)).map(([where]) => where);
    expect(leaks).toEqual([]);
    // The key is where it belongs: alice's user properties.
    expect(JSON.stringify(world.sim.properties('user', ALICE))).toContain(key);
  });

  it('a second user of the spreadsheet cannot use the key: they are told to connect', () => {
    expect(world.sim.properties('user', BOB)).toEqual({});
    const state = world.sim.callFromClient('getState', [], { user: BOB });
    expect(state.ok).toBe(true);
    expect((state.value as { connection: unknown }).connection).toBeNull();
    const pulled = world.sim.callFromClient('pullActiveSheet', [], { user: BOB });
    const message = pulled.ok
      ? (pulled.value as { ok: boolean; message: string }).message
      : (pulled.error?.message ?? '');
    if (pulled.ok) expect((pulled.value as { ok: boolean }).ok).toBe(false);
    expect(message).toMatch(/connect/i);
    expect(message).toMatch(/API key/i);
  });
});

describe('scopes and the URL allow-list', () => {
  it('the manifest asks for exactly the narrow five scopes', () => {
    for (const file of ['appsscript.json', 'dist/appsscript.json']) {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { oauthScopes: string[] };
      expect([...manifest.oauthScopes].sort(), file).toEqual([...NARROW_SCOPES].sort());
    }
  });

  it('SERVICE_URL=https://api.example.com npm run build writes the origin into urlFetchWhitelist', () => {
    // Built in a temporary copy of the project so dist/ of the checkout is never touched.
    const temp = mkdtempSync(path.join(tmpdir(), 'tas-build-'));
    try {
      mkdirSync(path.join(temp, 'scripts'));
      copyFileSync(path.join(ROOT, 'scripts/build.mjs'), path.join(temp, 'scripts/build.mjs'));
      copyFileSync(path.join(ROOT, 'appsscript.json'), path.join(temp, 'appsscript.json'));
      symlinkSync(path.join(ROOT, 'src'), path.join(temp, 'src'));
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(temp, 'node_modules'));
      const build = (serviceUrl: string): string =>
        execFileSync(process.execPath, [path.join(temp, 'scripts/build.mjs')], {
          env: { ...process.env, SERVICE_URL: serviceUrl },
          encoding: 'utf8',
          stdio: 'pipe',
        });
      build('https://api.example.com');
      const manifest = JSON.parse(readFileSync(path.join(temp, 'dist/appsscript.json'), 'utf8')) as {
        urlFetchWhitelist?: string[];
        oauthScopes: string[];
      };
      expect(manifest.urlFetchWhitelist).toEqual(['https://api.example.com/']);
      expect([...manifest.oauthScopes].sort()).toEqual([...NARROW_SCOPES].sort());
      // A plain-http origin is refused at build time.
      expect(() => build('http://api.example.com')).toThrow(/https/);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
