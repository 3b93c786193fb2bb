// Every entry point of the built add-on (menu items, sidebar calls, the trigger handler, the
// self-check) runs under exactly dist/appsscript.json's oauthScopes, which the simulator enforces:
// no call may reach a service member whose scope the manifest lacks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type ExecutionResult } from '../../emulators/apps-script';
import type { MissingRowsReview } from '../../src/shared/types';
import { CRM, DEALS, startWorld, type World } from './world';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'dist/appsscript.json'), 'utf8')) as {
  oauthScopes: string[];
};
const PERMISSION = /You do not have permission to call/;
const HOUR = 3_600_000;

/** Sidebar calls (src/sidebar/server.ts ServerFunctions) with arguments that make each do real work. */
function sidebarCalls(w: World): Array<[string, unknown[]]> {
  return [
    ['getState', []],
    ['saveConnection', [{ baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice }]],
    ['connectFromSidebar', [{ baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice }]],
    ['getConnection', [{ refresh: true }]],
    ['listTableApps', [{ query: '' }]],
    ['listTables', [{ tableAppId: CRM }]],
    ['linkActiveSheet', [{ tableAppId: CRM, tableId: DEALS }]],
    ['setLinkOptions', [{ fixedFields: ['createdBy'], showEmails: true }]],
    ['pullActiveSheet', []],
    ['checkForChanges', []],
    ['setAccountKind', ['workspace']],
    ['planLiveSync', [null]],
    // Also fires the edit trigger it installs (onLiveEdit) with a typed cell.
    ['setLinkOptions', [{ live: true }]],
    ['pullEverything', []],
    ['pushActiveSheet', []],
    ['syncActiveSheet', []],
    ['putBackHeld', []],
    ['keepEditingHeld', []],
    ['getConflicts', []],
    ['resolveConflicts', [{ keep: 'theirs' }]],
    ['selectSheetRow', [{ row: 2 }]],
    // These two also run deleteMissingRows, bringBackMissingRows and removeLinesOfRemovedRows.
    ['getMissingRowsReview', []],
    ['getRemovedLinesReview', []],
    ['setSchedule', [{ mode: 'sync', every: 'h1' }]],
    ['getSchedule', []],
    ['resumeSchedule', []],
    ['importAccountMembers', [{}]],
    ['runSelfCheck', []],
    ['clearSchedule', []],
    ['unlinkActiveSheet', []],
    ['disconnect', []],
  ];
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function permissionErrors(results: Array<[string, ExecutionResult]>): string[] {
  return results
    .filter(([, result]) => PERMISSION.test(JSON.stringify(result.error ?? result.value ?? '')))
    .map(([name, result]) => `${name}: ${result.error?.message ?? JSON.stringify(result.value)}`);
}

/** Runs that threw or answered `{ ok: false }` or `{ error }`: they proved nothing about scopes. */
function failures(results: Array<[string, ExecutionResult]>): string[] {
  return results
    .filter(([, result]) => {
      const value = result.value as { ok?: unknown; error?: unknown } | null | undefined;
      const refused = typeof value === 'object' && value !== null && (value.ok === false || 'error' in value);
      return !result.ok || refused;
    })
    .map(([name, result]) => `${name}: ${result.error?.message ?? JSON.stringify(result.value)}`);
}

describe('scopes of the built manifest', () => {
  it('the manifest keeps the narrow scope set (no userinfo.email, no full spreadsheets)', () => {
    expect(MANIFEST.oauthScopes).toContain('https://www.googleapis.com/auth/spreadsheets.currentonly');
    expect(MANIFEST.oauthScopes).not.toContain('https://www.googleapis.com/auth/userinfo.email');
    expect(MANIFEST.oauthScopes).not.toContain('https://www.googleapis.com/auth/spreadsheets');
  });

  it('every entry point runs under dist/appsscript.json without a permission error', async () => {
    world = await startWorld();
    const w = world;
    const results: Array<[string, ExecutionResult]> = [];
    const covered = new Set<string>();
    const record = (name: string, result: ExecutionResult): void => {
      covered.add(name);
      results.push([name, result]);
    };
    record('onOpen', w.sim.run('onOpen'));
    record('onInstall', w.sim.run('onInstall', [{ authMode: 'FULL' }]));
    // Menu items, before connecting (they open the sidebar) ...
    const menuItems = (w.sim.ui.menus.at(-1)?.items ?? [])
      .filter((item) => item.caption !== '---')
      .map((item) => item.fn);
    expect(menuItems).toContain('menuSelfCheck');
    for (const fn of new Set(menuItems)) record(fn, w.sim.run(fn));
    // ... every sidebar call in an order that makes each do its work ...
    for (const [fn, args] of sidebarCalls(w)) {
      if (fn === 'getMissingRowsReview') {
        // Two lines deleted from the sheet: one row deleted on the service, the other brought back.
        w.sim.person.deleteRows(w.sim.spreadsheet.getActiveSheet().getName(), 2, 2);
        const review = w.sim.callFromClient(fn, args);
        record(fn, review);
        const [first, second] = (review.value as MissingRowsReview).rows;
        const approval = { rows: [{ rowId: first?.rowId, lMod: first?.lMod }] };
        record('deleteMissingRows', w.sim.callFromClient('deleteMissingRows', [approval]));
        record(
          'bringBackMissingRows',
          w.sim.callFromClient('bringBackMissingRows', [{ rowIds: [second?.rowId] }]),
        );
        continue;
      }
      if (fn === 'getRemovedLinesReview') {
        // A row removed on the service, its line marked by a pull, then removed from the sheet.
        const removed = String((await w.serviceRows())[0]?.id);
        await w.emulator.admin.deleteRow(CRM, DEALS, removed);
        w.call('pullActiveSheet');
        record(fn, w.sim.callFromClient(fn, args));
        record(
          'removeLinesOfRemovedRows',
          w.sim.callFromClient('removeLinesOfRemovedRows', [{ rowIds: [removed] }]),
        );
        continue;
      }
      if (fn === 'putBackHeld' || fn === 'keepEditingHeld') {
        // A push held as a likely accident (the titles of 12 lines reversed alone), then the choice.
        const sheet = w.sim.spreadsheet.getActiveSheet();
        const titleAt = (w.values()[0] as string[]).indexOf('title') + 1;
        const titles = sheet.getRange(2, titleAt, 12, 1).getValues();
        sheet.getRange(2, titleAt, 12, 1).setValues([...titles].reverse());
        record('pushActiveSheet', w.sim.callFromClient('pushActiveSheet', []));
        record(fn, w.sim.callFromClient(fn, args));
        if (fn === 'keepEditingHeld') sheet.getRange(2, titleAt, 12, 1).setValues(titles);
        continue;
      }
      if (fn === 'setLinkOptions' && (args[0] as { live?: boolean }).live) {
        record(fn, w.sim.callFromClient(fn, args));
        const before = w.sim.editRuns.length;
        const notes = (w.values()[0] as string[]).indexOf('notes') + 1;
        w.sim.person.edit(w.sim.spreadsheet.getActiveSheet().getName(), 2, notes, 'typed live');
        for (const firing of w.sim.editRuns.slice(before)) record('onLiveEdit', firing.result);
        continue;
      }
      if (fn === 'setSchedule') {
        // Connected and linked again (the list unlinks at the end): the schedule fires as a trigger.
        record(fn, w.sim.callFromClient(fn, args));
        for (const fired of w.sim.advanceAndFire(HOUR + 60_000)) record('runScheduledSync', fired);
        continue;
      }
      record(fn, w.sim.callFromClient(fn, args));
    }
    // ... and the menu items again, now connected and linked.
    w.connect();
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS, replace: true });
    for (const fn of new Set(menuItems)) record(fn, w.sim.run(fn));
    // Not in the menu today, but a top-level function a menu may name.
    record('menuResolveTheirs', w.sim.run('menuResolveTheirs'));
    expect(permissionErrors(results)).toEqual([]);
    // A call that failed early (not connected, not linked) never reached its scoped members.
    expect(failures(results)).toEqual([]);
    expect(covered.has('runScheduledSync')).toBe(true);
    // Every top-level function of the bundle was called by this test.
    const missing = w.sim.functionNames.filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });

  it('the simulator enforces the manifest: a member whose scope is missing throws Google’s message', () => {
    const code = [
      'function who() { return Session.getActiveUser().getEmail(); }',
      'function zone() { return Session.getScriptTimeZone(); }',
      'function schedule() { return ScriptApp.newTrigger("zone").timeBased().everyHours(1).create().getUniqueId(); }',
    ].join('\n');
    const sim = createSimulator({ code, oauthScopes: MANIFEST.oauthScopes, countRealTime: false });
    const who = sim.run('who');
    expect(who.ok).toBe(false);
    expect(who.error?.message).toBe(
      'You do not have permission to call Session.getActiveUser. Required permissions: https://www.googleapis.com/auth/userinfo.email',
    );
    expect(sim.run('zone').ok).toBe(true);
    expect(sim.run('schedule').ok).toBe(true);
    const narrower = createSimulator({
      code,
      oauthScopes: MANIFEST.oauthScopes.filter((scope) => !scope.endsWith('script.scriptapp')),
      countRealTime: false,
    });
    expect(narrower.run('schedule').error?.message).toBe(
      'You do not have permission to call ScriptApp.newTrigger. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
    );
    // Without oauthScopes Apps Script detects scopes from the code: everything is allowed.
    const detected = createSimulator({ code, oauthScopes: null, countRealTime: false });
    expect(detected.run('who').value).toBe('alice@example.com');
  });

  it('the built add-on fails loudly, not silently, when the manifest lacks a scope it needs', async () => {
    world = await startWorld({
      simulator: {
        oauthScopes: MANIFEST.oauthScopes.filter((scope) => !scope.endsWith('external_request')),
      },
    });
    const result = world.sim.callFromClient('saveConnection', [
      { baseUrl: world.emulator.url, apiKey: world.emulator.keys.u_alice },
    ]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain(
      'You do not have permission to call UrlFetchApp.fetchAll. Required permissions: https://www.googleapis.com/auth/script.external_request',
    );
  });
});
