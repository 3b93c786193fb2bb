// TextFinder (apps-script-facts §14): Google's defaults (case-insensitive, partial cell, a formula cell
// by its displayed value), the options, findAll/findNext/findPrevious/getCurrentMatch/startFrom, rows
// hidden by a person or a filter skipped (the stricter reading), refusals, and its cost: a waiting call
// per find plus every cell searched at the read cost, its options queued.
import { beforeEach, describe, expect, it } from 'vitest';
import { installSheetCallCensus, startCensus, stopCensus } from '../../../bench/sheet-call-census';
import {
  type AppsScriptSimulator,
  COST_PROFILES,
  createSimulator,
  hideRows,
  sheetCallKind,
} from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);

const CODE = `
function a1s(ranges) { return ranges.map(function (r) { return r.getA1Notation(); }); }
function finder(scope, text, options) {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = ss.getSheetByName('Sheet1');
  var f = scope === 'sheet' ? sheet.createTextFinder(text)
    : scope === 'spreadsheet' ? ss.createTextFinder(text)
    : sheet.getRange(scope).createTextFinder(text);
  options = options || {};
  if (options.matchCase !== undefined) f.matchCase(options.matchCase);
  if (options.entire !== undefined) f.matchEntireCell(options.entire);
  if (options.formula !== undefined) f.matchFormulaText(options.formula);
  if (options.regex !== undefined) f.useRegularExpression(options.regex);
  if (options.diacritics !== undefined) f.ignoreDiacritics(options.diacritics);
  if (options.startFrom) f.startFrom(sheet.getRange(options.startFrom));
  return f;
}
function findAll(scope, text, options) { return a1s(finder(scope, text, options).findAll()); }
function walk(scope, text, steps, options) {
  var f = finder(scope, text, options);
  return steps.map(function (step) {
    var r = step === 'next' ? f.findNext() : step === 'previous' ? f.findPrevious() : f.getCurrentMatch();
    return r === null ? null : r.getA1Notation();
  });
}
function replaceAll() { return finder('sheet', 'a').replaceAllWith('b'); }
function hideThenFind(text) {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1');
  sheet.hideRows(2);
  var found = findAll('sheet', text);
  sheet.showRows(2);
  return { hidden: found, shown: findAll('sheet', text) };
}
`;

let sim: AppsScriptSimulator;

function fill(): void {
  const sheet = sim.spreadsheet.getSheetByName('Sheet1');
  if (!sheet) throw new Error('no sheet');
  sheet.getRange('A1:C5').setValues([
    ['id', 'title', 'amount'],
    ['r_abc', 'Crème brûlée', 1250.5],
    ['R_ABCD', 'crème', 42],
    ["'=r_abc", 'x r_abc y', 7],
    ['r_abc', '', '2024-01-05'],
  ]);
  sheet.getRange('B5').setFormula('="r_"&"abc"');
}

beforeEach(() => {
  sim = createSimulator({ code: CODE, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
  fill();
});

const run = <T>(fn: string, args: unknown[] = []): T => {
  const result = sim.run(fn, args);
  if (!result.ok) throw new Error(result.error?.message);
  return result.value as T;
};

describe("a TextFinder's matching", () => {
  it('defaults to case-insensitive, partial-cell matching over displayed values, row by row', () => {
    expect(run('findAll', ['sheet', 'R_abc'])).toEqual(['A2', 'A3', 'A4', 'B4', 'A5', 'B5']);
  });

  it('matches case and the entire cell when told: a duplicated id shows twice', () => {
    expect(run('findAll', ['A:A', 'r_abc', { matchCase: true, entire: true }])).toEqual(['A2', 'A5']);
    expect(run('findAll', ['A:A', 'R_ABC', { matchCase: true }])).toEqual(['A3']);
    expect(run('findAll', ['A:A', 'r_abc', { entire: true }])).toEqual(['A2', 'A5']);
  });

  it('matches a formula cell by its displayed value, or by its formula text when told', () => {
    expect(run('findAll', ['B5', 'r_abc', { entire: true }])).toEqual(['B5']);
    expect(run('findAll', ['B5', '"abc"'])).toEqual([]);
    expect(run('findAll', ['B5', '"abc"', { formula: true }])).toEqual(['B5']);
  });

  it('matches numbers and dates by the text they show', () => {
    expect(run('findAll', ['C:C', '1250.5', { entire: true }])).toEqual(['C2']);
    expect(run('findAll', ['C:C', '2024-01-05', { entire: true }])).toEqual(['C5']);
  });

  it('reads regular expressions when told, refusing what RE2 lacks and invalid patterns', () => {
    expect(run('findAll', ['A:A', '^r_abc$', { regex: true }])).toEqual(['A2', 'A5']);
    expect(run('findAll', ['A:A', '^r_abc$', { regex: true, matchCase: true }])).toEqual(['A2', 'A5']);
    expect(run('findAll', ['A:A', 'r_abc', { regex: true, entire: true }])).toEqual(['A2', 'A5']);
    const lookAhead = sim.run('findAll', ['A:A', 'r_(?=abc)', { regex: true }]);
    expect(lookAhead.error?.message).toMatch(/RE2\) have no look-arounds or back-references/);
    const invalid = sim.run('findAll', ['A:A', 'r_(', { regex: true }]);
    expect(invalid.error?.message).toBe('Invalid regular expression: r_(');
  });

  it('ignores diacritics when told', () => {
    expect(run('findAll', ['B:B', 'creme'])).toEqual([]);
    expect(run('findAll', ['B:B', 'creme', { diacritics: true }])).toEqual(['B2', 'B3']);
    expect(run('findAll', ['B:B', 'CREME', { diacritics: true, matchCase: true }])).toEqual([]);
  });

  it('searches the sheets of a spreadsheet in tab order', () => {
    const other = sim.spreadsheet.insertSheet('Other', 0);
    other.getRange('B2').setValue('r_abc');
    expect(run('findAll', ['spreadsheet', 'r_abc', { entire: true }])).toEqual(['B2', 'A2', 'A5', 'B5']);
  });

  it('refuses an empty search and the replacing methods, which the simulator does not model', () => {
    expect(sim.run('findAll', ['sheet', '']).error?.message).toBe('The text to find cannot be empty.');
    expect(sim.run('replaceAll').error?.message).toMatch(/does not model TextFinder.replaceAllWith/);
  });
});

describe('stepping through matches', () => {
  it('findNext walks forward and gives null past the last; getCurrentMatch is the last found', () => {
    expect(
      run('walk', ['A:A', 'r_abc', ['current', 'next', 'next', 'current', 'next', 'next', 'next']]),
    ).toEqual([null, 'A2', 'A3', 'A3', 'A4', 'A5', null]);
  });

  it('findPrevious walks back from the current match; from the start it finds nothing', () => {
    expect(
      run('walk', ['A:A', 'r_abc', ['previous', 'next', 'next', 'next', 'previous', 'previous', 'previous']]),
    ).toEqual([null, 'A2', 'A3', 'A4', 'A3', 'A2', null]);
  });

  it('startFrom starts right after the given cell', () => {
    expect(run('walk', ['A:A', 'r_abc', ['next', 'next'], { startFrom: 'A3' }])).toEqual(['A4', 'A5']);
    expect(run('walk', ['sheet', 'r_abc', ['next', 'previous'], { startFrom: 'B4' }])).toEqual(['A5', 'B4']);
  });
});

describe('hidden rows', () => {
  it('are skipped, whether a script, a person or a filter hid them (UNCONFIRMED: the stricter reading)', () => {
    expect(run('hideThenFind', ['r_abc'])).toEqual({
      hidden: ['A3', 'A4', 'B4', 'A5', 'B5'],
      shown: ['A2', 'A3', 'A4', 'B4', 'A5', 'B5'],
    });
    const sheet = sim.spreadsheet.getSheetByName('Sheet1');
    if (!sheet) throw new Error('no sheet');
    hideRows(sheet, 4, 2, 'filter');
    expect(run('findAll', ['sheet', 'r_abc'])).toEqual(['A2', 'A3']);
    expect(sheet.isRowHiddenByFilter(4)).toBe(true);
    expect(sheet.isRowHiddenByUser(4)).toBe(false);
    // The hiding follows the line when a row is inserted above it.
    sheet.insertRowsBefore(1, 1);
    expect([sheet.isRowHiddenByFilter(5), sheet.isRowHiddenByFilter(4)]).toEqual([true, false]);
  });
});

describe('what a find costs', () => {
  it('one waiting call per find and every cell of its scope read; building it and its options are queued', () => {
    sim = createSimulator({
      code: CODE,
      startTime: T0,
      timeZone: 'Etc/UTC',
      countRealTime: false,
      costs: 'central',
    });
    fill();
    const before = sim.run('walk', ['A1:C5', 'zzz', []]);
    const once = sim.run('findAll', ['A1:C5', 'zzz', { matchCase: true, entire: true }]);
    const twice = sim.run('walk', ['A1:C5', 'zzz', ['next', 'previous']]);
    const central = COST_PROFILES.central;
    // getActiveSpreadsheet and getSheetByName wait in each run; the finds add one wait each.
    expect(once.stats.sheetWaits - before.stats.sheetWaits).toBe(1);
    expect(twice.stats.sheetWaits - before.stats.sheetWaits).toBe(2);
    expect(once.stats.cellsRead).toBe(15);
    expect(twice.stats.cellsRead).toBe(30);
    const extraMs = once.simulatedMs - before.simulatedMs;
    // One wait, 15 cells read, two queued option calls (charged at the run's end).
    // The simulated clock keeps whole milliseconds.
    const expected = central.sheetWaitMs + 15 * central.cellReadMs + 2 * central.sheetDeferredMs;
    expect(Math.abs(extraMs - expected)).toBeLessThan(1);
  });

  it('classes the calls: finds wait, the finder and its options are queued', () => {
    expect(sheetCallKind('Range', 'createTextFinder')).toBe('deferred');
    expect(sheetCallKind('Sheet', 'createTextFinder')).toBe('deferred');
    for (const option of [
      'matchCase',
      'matchEntireCell',
      'matchFormulaText',
      'useRegularExpression',
      'ignoreDiacritics',
      'startFrom',
      'getCurrentMatch',
    ])
      expect(sheetCallKind('TextFinder', option)).toBe('deferred');
    for (const find of ['findAll', 'findNext', 'findPrevious', 'replaceAllWith'])
      expect(sheetCallKind('TextFinder', find)).toBe('wait');
  });
});

describe('how a find is counted and allowed', () => {
  it('is counted by the bench’s sheet-call census, finds among the waiting calls', () => {
    installSheetCallCensus();
    startCensus();
    sim.run('findAll', ['A:A', 'r_abc', { matchCase: true }]);
    const census = stopCensus();
    expect(census).toMatchObject({
      'Range.createTextFinder': 1,
      'TextFinder.matchCase': 1,
      'TextFinder.findAll': 1,
    });
  });

  it('needs the spreadsheet scope, like every TextFinder method', () => {
    const limited = createSimulator({
      code: CODE,
      startTime: T0,
      timeZone: 'Etc/UTC',
      countRealTime: false,
      oauthScopes: ['https://www.googleapis.com/auth/script.external_request'],
    });
    expect(limited.run('findAll', ['sheet', 'x']).error?.message).toMatch(
      /^You do not have permission to call/,
    );
  });
});
