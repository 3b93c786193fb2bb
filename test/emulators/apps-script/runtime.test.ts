// Tests of the simulator runtime: fresh contexts, missing globals (§5), load-time rejection, clock and kills.
import { describe, expect, it } from 'vitest';
import { createSimulator, ScriptSyntaxError } from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const opts = { startTime: T0, timeZone: 'Etc/UTC', countRealTime: false };

describe('globals (§5)', () => {
  it.each([
    'URL',
    'setTimeout',
    'fetch',
    'process',
    'require',
    'URLSearchParams',
    'TextEncoder',
    'atob',
    'structuredClone',
    'Buffer',
    'window',
    'queueMicrotask',
    'performance',
  ])('%s is not defined', (name) => {
    const sim = createSimulator({ ...opts, code: `function use() { return ${name}; }` });
    const res = sim.run('use');
    expect(res.ok).toBe(false);
    expect(res.error?.name).toBe('ReferenceError');
    expect(res.error?.message).toBe(`${name} is not defined`);
  });
  it('keeps no globals between executions but keeps service state', () => {
    const sim = createSimulator({
      ...opts,
      code: `var counter = 0; function bump() { counter++; var p = PropertiesService.getScriptProperties(); p.setProperty('n', String(Number(p.getProperty('n') || 0) + 1)); return [counter, p.getProperty('n')]; }`,
    });
    expect(sim.run('bump').value).toEqual([1, '1']);
    expect(sim.run('bump').value).toEqual([1, '2']);
  });
  it('runs an esbuild IIFE bundle through its top-level trampolines', () => {
    const code = `var TableAppSync = (() => { function onOpen(e) { SpreadsheetApp.getUi().createMenu('Sync').addItem('Pull', 'pull').addToUi(); return e.authMode; }
      function pull() { return 'pulled'; } return { onOpen: onOpen, pull: pull }; })();
      function onOpen() { return TableAppSync.onOpen.apply(this, arguments); }
      function pull() { return TableAppSync.pull.apply(this, arguments); }`;
    const sim = createSimulator({ ...opts, code });
    expect(sim.functionNames).toEqual(['onOpen', 'pull']);
    expect(sim.run('onOpen').value).toBe('LIMITED');
    expect(sim.ui.menus).toEqual([{ name: 'Sync', items: [{ caption: 'Pull', fn: 'pull' }], addon: false }]);
    expect(sim.callFromClient('pull', []).value).toBe('pulled');
  });
  it('finds object methods by dotted name and reports missing functions', () => {
    const sim = createSimulator({ ...opts, code: 'var menu = { item: function () { return 7; } };' });
    expect(sim.run('menu.item').value).toBe(7);
    expect(sim.run('nope').error?.message).toBe('Script function not found: nope');
  });
  it('settles async functions before the execution ends', () => {
    const sim = createSimulator({
      ...opts,
      code: 'async function a() { await null; return 5; } async function b() { await null; throw new Error("no"); }',
    });
    expect(sim.run('a').value).toBe(5);
    expect(sim.run('b').error?.message).toBe('no');
  });
  it('collects Logger and console output', () => {
    const sim = createSimulator({
      ...opts,
      code: 'function f() { Logger.log("a %s", 1); console.log("b", { x: 1 }); console.error("c"); return Logger.getLog(); }',
    });
    const res = sim.run('f');
    expect(res.logs).toEqual(['a 1', 'b {"x":1}', 'ERROR: c']);
    expect(res.value).toBe('a 1\n');
  });
});

describe('load-time rejection (§5)', () => {
  it('rejects #private fields', () => {
    expect(() => createSimulator({ ...opts, code: 'class A { #x = 1; get() { return this.#x; } }' })).toThrow(
      ScriptSyntaxError,
    );
  });
  it('rejects static field declarations', () => {
    expect(() => createSimulator({ ...opts, code: 'class A {\n static x = 1;\n}' })).toThrow(
      /Syntax error: SyntaxError: .* line: 2 file: Code.gs/,
    );
  });
  it('rejects ES modules', () => {
    expect(() => createSimulator({ ...opts, code: 'export function f() {}' })).toThrow(ScriptSyntaxError);
  });
  it('accepts ordinary classes and static methods', () => {
    expect(() =>
      createSimulator({
        ...opts,
        code: 'class A { constructor() { this.x = 1; } static make() { return new A(); } }',
      }),
    ).not.toThrow();
  });
});

describe('simulated clock', () => {
  it('drives Date.now and new Date, and Utilities.sleep advances it', () => {
    const sim = createSimulator({
      ...opts,
      code: 'function f() { var a = Date.now(); Utilities.sleep(1500); return [a, new Date().getTime(), new Date() instanceof Date, typeof Date()]; }',
    });
    const res = sim.run('f');
    expect(res.value).toEqual([T0, T0 + 1500, true, 'string']);
    expect(sim.clock.now()).toBe(T0 + 1500);
  });
  it('charges modelled sheet costs', () => {
    const sim = createSimulator({
      ...opts,
      costs: { sheetCallMs: 10, sheetCellMs: 1 },
      code: 'function f() { SpreadsheetApp.getActive().getActiveSheet().getRange(1, 1, 10, 10).getValues(); }',
    });
    const res = sim.run('f');
    expect(res.stats.sheetCalls).toBe(4);
    expect(res.simulatedMs).toBe(4 * 10 + 100);
  });
});

describe('execution time limit', () => {
  const code = `function slow() {
    var caught = '';
    for (var i = 0; i < 10; i++) { try { Utilities.sleep(60000); } catch (e) { caught = e.message; break; } }
    try { SpreadsheetApp.getActive(); } catch (e) { return caught + ' / again: ' + e.message; }
    return 'survived';
  }
  function onOpen() { Utilities.sleep(29000); Utilities.sleep(2000); }`;
  it('kills past 6 simulated minutes, and keeps throwing after a catch', () => {
    const sim = createSimulator({ ...opts, code });
    const res = sim.run('slow');
    expect(res.killed).toBe(true);
    expect(res.ok).toBe(false);
    expect(res.error?.message).toBe('Exceeded maximum execution time');
    expect(res.simulatedMs).toBe(360_000);
  });
  it('gives simple triggers 30 seconds', () => {
    const res = createSimulator({ ...opts, code }).run('onOpen');
    expect(res.killed).toBe(true);
    expect(res.simulatedMs).toBe(30_000);
  });
  it('kills on request after N service calls or at a simulated time', () => {
    const sim = createSimulator({
      ...opts,
      code: 'function f() { var p = PropertiesService.getScriptProperties(); for (var i = 0; i < 10; i++) { p.setProperty("k" + i, "v"); Utilities.sleep(1000); } }',
    });
    const a = sim.run('f', [], { kill: { afterServiceCalls: 5 } });
    expect(a.killed).toBe(true);
    expect(a.stats.serviceCalls).toBe(6);
    expect(Object.keys(sim.properties('script'))).toEqual(['k0', 'k1']);
    const b = sim.run('f', [], { kill: { atSimulatedMs: 3500 } });
    expect(b.killed).toBe(true);
    expect(b.simulatedMs).toBe(3500);
  });
});

describe('auth modes (§6)', () => {
  const code = `function onOpen(e) {
    var out = { mode: e.authMode };
    SpreadsheetApp.getUi().createAddonMenu().addItem('Sync', 'sync').addToUi();
    try { UrlFetchApp.fetch('http://127.0.0.1:1/'); } catch (err) { out.fetch = err.message; }
    try { ScriptApp.newTrigger('x').timeBased().everyHours(1).create(); } catch (err) { out.trigger = err.message; }
    try { PropertiesService.getDocumentProperties(); out.docProps = 'ok'; } catch (err) { out.docProps = err.message; }
    return out;
  }`;
  it('LIMITED simple triggers cannot fetch or create triggers', () => {
    const sim = createSimulator({ ...opts, code });
    const v = sim.run('onOpen').value as Record<string, string>;
    expect(v.mode).toBe('LIMITED');
    expect(v.fetch).toMatch(
      /^You do not have permission to call UrlFetchApp.fetch. Required permissions: https:\/\/www.googleapis.com\/auth\/script.external_request/,
    );
    expect(v.trigger).toMatch(/ScriptApp.newTrigger/);
    expect(v.docProps).toBe('ok');
    expect(sim.ui.menus).toEqual([
      { name: 'Table App Sync', items: [{ caption: 'Sync', fn: 'sync' }], addon: true },
    ]);
  });
  it('NONE cannot read document properties', () => {
    const v = createSimulator({ ...opts, code }).run('onOpen', [], { authMode: 'NONE' }).value as Record<
      string,
      string
    >;
    expect(v.docProps).toMatch(/PropertiesService.getDocumentProperties/);
  });
});
