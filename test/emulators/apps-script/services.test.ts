// Tests of the simulated Properties, Cache, Lock, ScriptApp, HtmlService, Utilities, MailApp, Session and google.script.run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ClientCallError,
  createSimulator,
  type SimulatorOptions,
} from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const make = (code: string, more: SimulatorOptions = {}) =>
  createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false, ...more });

describe('PropertiesService (§3)', () => {
  const code = `function put(kind, key, size) {
    var p = kind === 'user' ? PropertiesService.getUserProperties() : PropertiesService.getDocumentProperties();
    try { p.setProperty(key, new Array(size + 1).join('x')); return 'ok'; } catch (e) { return e.message; }
  }
  function read() { var p = PropertiesService.getDocumentProperties(); p.setProperty('n', 5); return [p.getProperty('n'), p.getProperty('missing')]; }`;
  it('coerces values to strings and answers null for missing keys', () => {
    expect(make(code).run('read').value).toEqual(['5', null]);
  });
  it('rejects a value over 9 KB (key + value bytes)', () => {
    const sim = make(code);
    expect(sim.run('put', ['document', 'k', 9216 - 1]).value).toBe('ok');
    expect(sim.run('put', ['document', 'k', 9216]).value).toBe(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
  });
  it('rejects a store over 500 KB', () => {
    const sim = make(code);
    // 56 x (5 + 9000) bytes = 504,280 <= 512,000; one more passes 500 KB.
    for (let i = 0; i < 56; i++)
      expect(sim.run('put', ['user', `key${String(i).padStart(2, '0')}`, 9000]).value).toBe('ok');
    expect(sim.run('put', ['user', 'one-more', 9000]).value).toMatch(/exceeded the property storage quota/);
    expect(Object.keys(sim.properties('user'))).toHaveLength(56);
  });
  it('keeps user properties per user', () => {
    const sim = make(code, { users: [{ email: 'a@x.com' }, { email: 'b@x.com' }] });
    sim.run('put', ['user', 'mine', 3], { user: 'b@x.com' });
    expect(sim.properties('user', 'b@x.com')).toEqual({ mine: 'xxx' });
    expect(sim.properties('user', 'a@x.com')).toEqual({});
  });
});

describe('CacheService (§3)', () => {
  it('expires entries on the simulated clock and checks limits', () => {
    const sim = make(`function put() { CacheService.getScriptCache().put('k', 'v', 60); }
      function get() { return CacheService.getScriptCache().get('k'); }
      function bad() { var c = CacheService.getScriptCache(), out = [];
        try { c.put(new Array(252).join('k'), 'v'); } catch (e) { out.push(e.message); }
        try { c.put('k', new Array(102402).join('v')); } catch (e) { out.push(e.message); }
        try { c.put('k', 'v', 21601); } catch (e) { out.push(e.message); }
        return out; }`);
    sim.run('put');
    sim.clock.advance(59_000);
    expect(sim.run('get').value).toBe('v');
    sim.clock.advance(1_000);
    expect(sim.run('get').value).toBeNull();
    expect(sim.run('bad').value).toEqual([
      'Argument too large: key',
      'Argument too large: value',
      'Argument too large: expirationInSeconds',
    ]);
  });
});

describe('LockService (§3)', () => {
  const code = `function guarded(timeout) {
    var lock = LockService.getDocumentLock();
    if (!lock.tryLock(timeout)) return 'busy';
    try { UrlFetchApp.fetch('http://127.0.0.1:1/'); } catch (e) {}
    return 'done:' + lock.hasLock();
  }
  function waiting() { try { LockService.getDocumentLock().waitLock(5000); return 'got it'; } catch (e) { return e.message; } }
  function quick() { var l = LockService.getDocumentLock(); return l.tryLock(1000); }`;

  it('is contended by a nested execution and released when the holder ends', () => {
    const nested: unknown[] = [];
    let sim = make(code);
    sim = make(code, {
      onBeforeFetch: () => {
        nested.push(sim.run('quick').value);
        nested.push(sim.run('waiting').value);
      },
    });
    const outer = sim.run('guarded', [1000]);
    expect(outer.value).toBe('done:true');
    expect(nested).toEqual([false, 'Lock timeout: another process was holding the lock for too long.']);
    expect(sim.run('quick').value).toBe(true);
  });

  it('waits for a lock held by another process, advancing the clock', () => {
    const sim = make(code);
    sim.holdDocumentLock(T0 + 3_000);
    const ok = sim.run('waiting');
    expect(ok.value).toBe('got it');
    expect(ok.simulatedMs).toBe(3_000);
    sim.holdDocumentLock(sim.clock.now() + 10_000);
    const busy = sim.run('waiting');
    expect(busy.value).toBe('Lock timeout: another process was holding the lock for too long.');
    expect(busy.simulatedMs).toBe(5_000);
  });
});

describe('ScriptApp triggers (§6, §8)', () => {
  const code = `function create(kind, n) {
    try {
      var b = ScriptApp.newTrigger('tick').timeBased();
      if (kind === 'min') b.everyMinutes(n); else if (kind === 'hours') b.everyHours(n); else if (kind === 'after') b.after(n);
      else if (kind === 'days') b.everyDays(1).atHour(n);
      return b.create().getUniqueId();
    } catch (e) { return 'error: ' + e.message; }
  }
  function tick(e) { PropertiesService.getScriptProperties().setProperty('last', JSON.stringify(e)); return e.triggerUid; }
  function list() { return ScriptApp.getProjectTriggers().map(function (t) { return t.getHandlerFunction() + ':' + t.getEventType(); }); }
  function removeAll() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }`;

  it('allows only 1, 5, 10, 15 or 30 minutes', () => {
    const sim = make(code);
    expect(sim.run('create', ['min', 7]).value).toMatch(/^error: .*1, 5, 10, 15 or 30/);
    expect(sim.run('create', ['min', 5]).value).toMatch(/^\d+$/);
    expect(sim.run('list').value).toEqual(['tick:CLOCK']);
  });
  it('caps triggers at 20 per user', () => {
    const sim = make(code, { users: [{ email: 'a@x.com' }, { email: 'b@x.com' }] });
    for (let i = 0; i < 20; i++) expect(sim.run('create', ['hours', 1]).value).toMatch(/^\d+$/);
    expect(sim.run('create', ['hours', 1]).value).toBe(
      'error: This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    expect(sim.run('create', ['hours', 1], { user: 'b@x.com' }).value).toMatch(/^\d+$/);
    sim.run('removeAll');
    expect(sim.triggers('a@x.com')).toHaveLength(0);
  });
  it('in an add-on, refuses sub-hourly triggers and a second clock trigger per user and document', () => {
    const sim = make(code, { installation: 'addon' });
    expect(sim.run('create', ['min', 30]).value).toMatch(
      /^error: Add-ons can use a time-driven trigger at most once per hour/,
    );
    expect(sim.run('create', ['after', 60_000]).value).toMatch(/^error: /);
    expect(sim.run('create', ['hours', 1]).value).toMatch(/^\d+$/);
    expect(sim.run('create', ['hours', 2]).value).toMatch(
      /^error: This add-on has created too many time-based triggers/,
    );
  });
  it('fires due triggers with a §8 event as the owner, rescheduling recurring ones', () => {
    const sim = make(code, { users: [{ email: 'a@x.com' }, { email: 'owner@x.com' }] });
    const uid = sim.run('create', ['min', 15], { user: 'owner@x.com' }).value;
    expect(sim.fireDueTriggers()).toEqual([]);
    const results = sim.advanceAndFire(60 * 60_000);
    expect(results).toHaveLength(4);
    expect(results.every((r) => r.ok && r.value === uid)).toBe(true);
    const event = JSON.parse(sim.properties('script').last as string);
    expect(event).toMatchObject({
      authMode: 'FULL',
      triggerUid: uid,
      year: 2024,
      month: 1,
      'day-of-month': 1,
      hour: 1,
      minute: 0,
      timezone: 'Etc/UTC',
    });
    expect(sim.triggers('owner@x.com')[0]?.nextAt).toBe(T0 + 75 * 60_000);
  });
  it('fires one-shot after() triggers once; they stay listed until deleted', () => {
    const sim = make(code);
    sim.run('create', ['after', 10 * 60_000]);
    expect(sim.advanceAndFire(9 * 60_000)).toHaveLength(0);
    expect(sim.advanceAndFire(2 * 60_000)).toHaveLength(1);
    expect(sim.advanceAndFire(60 * 60_000)).toHaveLength(0);
    expect(sim.triggers()[0]?.fired).toBe(true);
  });
  it('schedules daily triggers at the requested hour', () => {
    const sim = make(code);
    sim.run('create', ['days', 6]);
    expect(sim.triggers()[0]?.nextAt).toBe(T0 + 6 * 3_600_000);
  });
  it('refuses getUi in a time-driven execution', () => {
    const sim = make(
      'function make() { ScriptApp.newTrigger("t").timeBased().everyMinutes(1).create(); } function t() { SpreadsheetApp.getUi(); }',
    );
    sim.run('make');
    const [res] = sim.advanceAndFire(60_000);
    expect(res?.error?.message).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
  });
});

describe('HtmlService and Ui (§7)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gas-html-'));
  writeFileSync(path.join(dir, 'Sidebar.html'), '<p>Sidebar</p>');
  writeFileSync(
    path.join(dir, 'Page.html'),
    '<b><?= name ?></b><?!= raw ?><? for (var i = 0; i < 2; i++) { ?>.<? } ?>',
  );
  const code = `function show() { SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile('Sidebar').setTitle('Sync')); }
    function missing() { HtmlService.createHtmlOutputFromFile('Nope'); }
    function tpl() { var t = HtmlService.createTemplateFromFile('Page'); t.name = '<x>'; t.raw = '<i>'; return t.evaluate().getContent(); }
    function ask() { var ui = SpreadsheetApp.getUi(); return ui.alert('Title', 'Sure?', ui.ButtonSet.YES_NO) === ui.Button.YES; }
    function toast() { SpreadsheetApp.getActive().toast('Done', 'Sync'); }`;
  it('shows sidebars from dist files and fails on a missing file', () => {
    const sim = make(code, { distDir: dir });
    expect(sim.run('show').ok).toBe(true);
    expect(sim.ui.sidebars).toMatchObject([{ title: 'Sync', html: '<p>Sidebar</p>' }]);
    expect(sim.run('missing').error?.message).toBe('No HTML file named Nope was found.');
  });
  it('evaluates templates with escaping', () => {
    expect(make(code, { distDir: dir }).run('tpl').value).toBe('<b>&lt;x&gt;</b><i>..');
  });
  it('records alerts and toasts', () => {
    const sim = make(code, { distDir: dir });
    expect(sim.run('ask').value).toBe(true);
    sim.run('toast');
    expect(sim.ui.alerts[0]).toMatchObject({ title: 'Title', prompt: 'Sure?', buttons: 'YES_NO' });
    expect(sim.ui.toasts[0]).toMatchObject({ msg: 'Done', title: 'Sync' });
  });
});

describe('Utilities, MailApp, Session', () => {
  it('computes digests as signed bytes, base64 and formatDate', () => {
    const sim = make(`function f() {
      var d = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, 'abc');
      var h = Utilities.computeHmacSha256Signature('data', 'key');
      return [d.length, d[0], Math.min.apply(null, d) < 0, h.length, Utilities.base64Encode('hé'),
        Utilities.base64Decode('aMOp').length, Utilities.formatDate(new Date(Date.UTC(2024, 0, 5, 13, 4, 5, 6)), 'America/New_York', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX Z"),
        Utilities.getUuid().length];
    }`);
    expect(sim.run('f').value).toEqual([
      32,
      -70,
      true,
      32,
      'aMOp',
      3,
      '2024-01-05T08:04:05.006-05:00 -0500',
      36,
    ]);
  });
  it('records mail with the daily recipient quota', () => {
    const sim =
      make(`function send(n) { try { for (var i = 0; i < n; i++) MailApp.sendEmail('x' + i + '@example.com', 'S', 'B'); } catch (e) { return e.message; } return MailApp.getRemainingDailyQuota(); }
      function html() { MailApp.sendEmail({ to: 'a@example.com', subject: 'Hi', body: 'b', htmlBody: '<b>b</b>', name: 'Bot' }); }`);
    sim.run('html');
    expect(sim.mail[0]).toMatchObject({
      to: 'a@example.com',
      subject: 'Hi',
      htmlBody: '<b>b</b>',
      user: 'alice@example.com',
      at: T0,
    });
    expect(sim.run('send', [98]).value).toBe(1);
    expect(sim.run('send', [2]).value).toBe('Service invoked too many times for one day: email.');
  });
  it('knows the active user and time zone', () => {
    const sim = make(
      'function me() { return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), Session.getScriptTimeZone()]; }',
      {
        users: [{ email: 'a@x.com' }, { email: 'b@x.com' }],
        oauthScopes: ['https://www.googleapis.com/auth/userinfo.email'],
      },
    );
    expect(sim.run('me', [], { user: 'b@x.com' }).value).toEqual(['b@x.com', 'b@x.com', 'Etc/UTC']);
  });
});

describe('google.script.run rules (§7)', () => {
  const code = `function echo(x) { return x; }
    function when() { return { at: new Date() }; }
    function grid() { return SpreadsheetApp.getActive().getActiveSheet().getRange('A1:B1').getValues(); }
    function secret_() { return 1; }
    var arrow = (x) => x;`;
  const sim = make(code);
  it('passes deep copies; undefined in arrays becomes null', () => {
    const arg = { list: [1, undefined, 'x'], nested: { ok: true } };
    const res = sim.callFromClient('echo', [arg]);
    expect(res.value).toEqual({ list: [1, null, 'x'], nested: { ok: true } });
    expect(res.value).not.toBe(arg);
    expect(sim.callFromClient('arrow', [3]).value).toBe(3);
  });
  it.each([
    ['a Date', [new Date()]],
    ['a function', [() => 1]],
    ['undefined in an object', [{ a: undefined }]],
    ['a class instance', [new Map()]],
  ])('rejects %s in arguments', (_label, args) => {
    expect(() => sim.callFromClient('echo', args)).toThrow(ClientCallError);
  });
  it('rejects circular arguments', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => sim.callFromClient('echo', [a])).toThrow(/circular/);
  });
  it('rejects private and unknown functions', () => {
    expect(() => sim.callFromClient('secret_', [])).toThrow(/private/);
    expect(() => sim.callFromClient('nothing', [])).toThrow('Script function not found: nothing');
  });
  it('fails the call when the return value holds a Date', () => {
    expect(() => sim.callFromClient('when', [])).toThrow(/Date.*neither handler fires/);
    sim.spreadsheet
      .getActiveSheet()
      .getRange('A1:B1')
      .setValues([['2024-01-05', 'x']]);
    expect(() => sim.callFromClient('grid', [])).toThrow(/return value\[0\]\[0\] is a Date/);
  });
});
