// The simulator's cost model: profiles, waiting vs queued Spreadsheet calls, cells, fetchAll rounds, script time.
import { describe, expect, it } from 'vitest';
import {
  COST_PROFILES,
  createSimulator,
  httpWaveMs,
  resolveCosts,
  type SimulatorOptions,
  sheetCallKind,
} from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const make = (code: string, more: SimulatorOptions = {}) =>
  createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false, ...more });

describe('cost profiles', () => {
  it('resolve by name, with overrides, and the older flat figures charge every call at once', () => {
    expect(resolveCosts('central')).toEqual(COST_PROFILES.central);
    expect(resolveCosts({ profile: 'pessimistic', httpLatencyMs: 1 })).toMatchObject({
      httpLatencyMs: 1,
      sheetWaitMs: 300,
    });
    expect(resolveCosts({ sheetCallMs: 7, sheetCellMs: 0.5 })).toMatchObject({
      sheetWaitMs: 7,
      sheetDeferredMs: 7,
      deferWrites: false,
      cellReadMs: 0.5,
      cellWriteMs: 0.5,
    });
    expect(resolveCosts(undefined)).toMatchObject({ httpLatencyMs: 0, sheetWaitMs: 0, cellWriteMs: 0 });
    expect(() => resolveCosts('fast' as 'central')).toThrow(/Unknown cost profile fast/);
  });
  it('order the figures: optimistic <= central <= pessimistic where the issue gives ranges', () => {
    const { optimistic, central, pessimistic } = COST_PROFILES;
    expect(central.httpLatencyMs).toBe(400);
    expect(optimistic.httpLatencyMs).toBeLessThan(central.httpLatencyMs);
    expect(pessimistic.httpLatencyMs).toBeGreaterThan(central.httpLatencyMs);
    expect(central.cellWriteMs).toBeGreaterThan(central.cellReadMs);
    expect(pessimistic.sheetWaitMs).toBeGreaterThan(central.sheetWaitMs);
    expect(central.cpuFactor).toBe(1.2);
  });
});

describe('fetchAll rounds', () => {
  const central = COST_PROFILES.central;
  it('cost the slowest member x 1.1 up to the cap, then one round per cap requests', () => {
    expect(httpWaveMs(central, 1, false)).toBe(400);
    expect(httpWaveMs(central, 1, true)).toBe(400);
    expect(httpWaveMs(central, 5, true)).toBeCloseTo(440);
    expect(httpWaveMs(central, 10, true)).toBeCloseTo(440);
    expect(httpWaveMs(central, 11, true)).toBeCloseTo(440 + 400);
    expect(httpWaveMs(central, 25, true)).toBeCloseTo(3 * 440);
    expect(httpWaveMs(COST_PROFILES.pessimistic, 8, true)).toBeCloseTo(2 * 660);
    expect(httpWaveMs(COST_PROFILES.optimistic, 50, true)).toBe(250);
  });
});

describe('Spreadsheet calls', () => {
  it('are classed as waiting (open, reads, appendRow, flush) or queued (getRange, setters)', () => {
    expect(sheetCallKind('SpreadsheetApp', 'getActiveSpreadsheet')).toBe('wait');
    expect(sheetCallKind('Sheet', 'getLastRow')).toBe('wait');
    expect(sheetCallKind('Sheet', 'getName')).toBe('wait');
    expect(sheetCallKind('Sheet', 'appendRow')).toBe('wait');
    expect(sheetCallKind('SpreadsheetApp', 'flush')).toBe('wait');
    expect(sheetCallKind('Range', 'getValues')).toBe('wait');
    expect(sheetCallKind('Spreadsheet', 'insertSheet')).toBe('wait');
    expect(sheetCallKind('Sheet', 'getRange')).toBe('deferred');
    expect(sheetCallKind('Range', 'setValues')).toBe('deferred');
    expect(sheetCallKind('Range', 'setNumberFormat')).toBe('deferred');
    expect(sheetCallKind('Range', 'getLastRow')).toBe('deferred');
    expect(sheetCallKind('Sheet', 'insertRowsAfter')).toBe('deferred');
  });
  it("class unsourced shortcuts as waiting: a parent, a range's sheet and ids ask the spreadsheet", () => {
    // Only a range's own geometry is answered by the object (docs/performance.md "Which calls wait").
    expect(sheetCallKind('Sheet', 'getParent')).toBe('wait');
    expect(sheetCallKind('Range', 'getSheet')).toBe('wait');
    expect(sheetCallKind('Spreadsheet', 'getId')).toBe('wait');
    expect(sheetCallKind('Range', 'getGridId')).toBe('wait');
    expect(sheetCallKind('Sheet', 'getSheetId')).toBe('wait');
    expect(sheetCallKind('Range', 'getNumRows')).toBe('deferred');
  });

  it('charge the geometry of an open-ended A1 range as a wait: it tells the grid size', () => {
    const sim = make(
      `function geometry() {
        var sheet = SpreadsheetApp.getActive().getActiveSheet();
        var t0 = Date.now();
        var rows = sheet.getRange('A2:C').getNumRows();
        var t1 = Date.now();
        var shifted = sheet.getRange('A:C').offset(0, 1).getLastRow();
        var t2 = Date.now();
        sheet.getRange('A:C').setNumberFormat('@');
        sheet.getRange('A1:C5').getNumRows();
        sheet.getRange('A:C').offset(0, 0, 5, 3).getNumRows();
        var t3 = Date.now();
        return [rows, shifted, t1 - t0, t2 - t1, t3 - t2];
      }`,
      { costs: 'central' },
    );
    const result = sim.run('geometry');
    expect(result.ok, result.error?.message).toBe(true);
    // getRange queued (2 ms), then getNumRows waits (150 ms); offset and getRange queued (4 ms).
    expect(result.value).toEqual([999, 1000, 2 + 150, 2 * 2 + 150, 0]);
  });

  const code = `
    function queuedThenRead() {
      var sheet = SpreadsheetApp.getActive().getActiveSheet();
      var t0 = Date.now();
      for (var i = 1; i <= 10; i++) sheet.getRange(i, 1, 1, 10).setValues([[1,2,3,4,5,6,7,8,9,10]]);
      var t1 = Date.now();
      sheet.getLastRow();
      var t2 = Date.now();
      sheet.getRange(1, 1, 10, 10).getValues();
      var t3 = Date.now();
      return [t1 - t0, t2 - t1, t3 - t2];
    }
    function writeOnly() {
      SpreadsheetApp.getActive().getActiveSheet().getRange(1, 1, 100, 10).setValues(
        Array.apply(null, Array(100)).map(function () { return [1,2,3,4,5,6,7,8,9,10]; }));
    }`;

  it('queue writes until a call waits for the spreadsheet, which pays them and a round trip', () => {
    const sim = make(code, { costs: 'central' });
    const result = sim.run('queuedThenRead');
    expect(result.ok, result.error?.message).toBe(true);
    const [queued, readAfterWrites, plainRead] = result.value as number[];
    expect(queued).toBe(0);
    // 20 queued calls (getRange + setValues) at 2 ms, 100 cells at 0.03 ms, then the wait of 150 ms.
    expect(readAfterWrites).toBe(Math.floor(20 * 2 + 100 * 0.03 + 150));
    // getRange queued (2 ms) and paid by getValues: 150 ms + 100 cells read at 0.01 ms.
    expect(plainRead).toBe(2 + 150 + 1);
    // Waiting calls: getActive, getActiveSheet, getLastRow, getValues.
    expect(result.stats.sheetWaits).toBe(4);
  });
  it('change between executions with setCosts (a slow or quick moment)', () => {
    const sim = make(code, { costs: 'central' });
    sim.setCosts({ sheetWaitMs: 1000 });
    const result = sim.run('queuedThenRead');
    expect(result.ok, result.error?.message).toBe(true);
    // As above, with a wait of 1,000 ms.
    expect(result.value).toEqual([0, Math.floor(20 * 2 + 100 * 0.03 + 1000), 2 + 1000 + 1]);
  });
  it("read a sheet's content with getSheetValues(1, 1, -1, -1) in one wait; none on an empty sheet", () => {
    const sim = make(`
      function content() {
        const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
        sheet.getRange(1, 1, 2, 3).setValues([['a', 'b', 'c'], [1, 2, 3]]);
        SpreadsheetApp.flush();
        return sheet.getSheetValues(1, 1, -1, -1);
      }
      function fromSecond() {
        return SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getSheetValues(2, 2, -1, 2);
      }
      function empty() {
        return SpreadsheetApp.getActiveSpreadsheet().insertSheet('empty').getSheetValues(1, 1, -1, -1);
      }`);
    const content = sim.run('content');
    expect(content.value).toEqual([
      ['a', 'b', 'c'],
      [1, 2, 3],
    ]);
    // getActiveSpreadsheet, getActiveSheet, flush, getSheetValues.
    expect(content.stats.sheetWaits).toBe(4);
    expect(sim.run('fromSecond').value).toEqual([[2, 3]]);
    expect(sim.run('empty').error?.message).toMatch(/number of rows in the range must be at least 1/);
  });
  it('count waiting calls with no cost model too (tests assert them without timing)', () => {
    const result = make(code).run('queuedThenRead');
    expect(result.ok, result.error?.message).toBe(true);
    expect(result.stats.sheetWaits).toBe(4);
    expect(result.stats.sheetCalls).toBe(25);
  });
  it('charge what is still queued when the script returns, inside its execution time', () => {
    const sim = make(code, { costs: 'central' });
    const result = sim.run('writeOnly');
    // Open + active sheet wait; getRange + setValues queued; 1,000 cells written at 0.03 ms.
    expect(result.simulatedMs).toBe(Math.floor(2 * 150 + 2 * 2 + 1000 * 0.03));
    expect(result.stats.sheetMs).toBeCloseTo(2 * 150 + 2 * 2 + 1000 * 0.03);
  });
  it('kill an execution whose queued writes do not fit in its time', () => {
    const sim = make(code, { costs: { profile: 'central', cellWriteMs: 400 }, executionLimitMs: 300_000 });
    const result = sim.run('writeOnly');
    expect(result.killed).toBe(true);
    expect(result.simulatedMs).toBe(300_000);
  });
});

/** A time source that finds `step` ms more of this process's time at every reading. */
function ticking(step: number): () => number {
  let cpu = 0;
  return () => {
    cpu += step;
    return cpu;
  };
}

describe("the script's own JavaScript time", () => {
  const code = `
    function twoReadings() { var a = Date.now(); var b = Date.now(); return b - a; }
    function aroundFetch(url) {
      var a = Date.now();
      try { UrlFetchApp.fetch(url); } catch (e) { /* nothing listens there: the call is still charged */ }
      return Date.now() - a;
    }
    function spin() {
      for (;;) { Date.now(); try { SpreadsheetApp.flush(); } catch (e) { return e.message; } }
    }`;
  it('counts times the profile factor between two readings of the clock', () => {
    const sim = make(code, {
      costs: 'central',
      countRealTime: true,
      // Every reading finds 100 ms more of this process's time.
      scriptTimeSource: ticking(100),
    });
    expect(sim.run('twoReadings').value).toBe(120);
    expect(make(code, { costs: 'central', scriptTimeSource: ticking(100) }).run('twoReadings').value).toBe(0);
    expect(
      make(code, {
        costs: { profile: 'central', cpuFactor: 0 },
        countRealTime: true,
        scriptTimeSource: ticking(100),
      }).run('twoReadings').value,
    ).toBe(0);
  });
  it("leaves out the time spent inside service calls (the simulator's own work is modelled)", () => {
    let cpu = 0;
    const sim = make(code, {
      costs: 'central',
      countRealTime: true,
      scriptTimeSource: () => cpu,
      // The service's own work: 10 s of this process's time while the request runs.
      onBeforeFetch: () => {
        cpu += 10_000;
      },
    });
    expect(sim.run('aroundFetch', ['http://127.0.0.1:1/']).value).toBe(400);
  });
  it('counts toward the execution limit', () => {
    const sim = make(code, { costs: 'central', countRealTime: true, scriptTimeSource: ticking(5_000) });
    const result = sim.run('spin');
    expect(result.killed).toBe(true);
    expect(result.stats.scriptMs).toBeGreaterThan(300_000);
  });
});

describe('built-ins read at full speed (script-level bindings)', () => {
  it('keep strict mode, the simulated Date and the code’s own declarations', () => {
    const strict = make(
      '"use strict";\nfunction strictMode() { try { undeclaredName = 1; return false; } catch (e) { return true; } }\nfunction f() { return [strictMode(), new Date().getTime(), Math.max(1, 2)]; }',
    );
    expect(strict.run('f').value).toEqual([true, T0, 2]);
    const sloppy = make('function f() { undeclaredName = 1; return typeof undeclaredName; }');
    expect(sloppy.run('f').value).toBe('number');
    const own = make(
      'var JSON = { stringify: function () { return "mine"; } };\nfunction f() { return JSON.stringify(1); }',
    );
    expect(own.run('f').value).toBe('mine');
  });
  it('keep line numbers in stack traces', () => {
    const sim = make('"use strict";\n\nfunction f() { throw new Error("here"); }');
    expect(sim.run('f').error?.stack).toMatch(/Code\.gs:3/);
  });
});
