// Data validation and checkboxes as Google has them (apps-script-facts §14): the builder and its rules,
// rules that reject script writes (at the write, the stricter reading) or only warn (the value stays,
// the cell marked invalid), the 500-item list limit, checkboxes, rules carried by a person's paste,
// clear() keeping notes and rules, 'general' number formats, relative dates read but never set, and
// what the calls cost.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type AppsScriptSimulator,
  cellRules,
  createSimulator,
  invalidCells,
  LIST_LIMIT_MESSAGE,
  setPersonRule,
  sheetCallKind,
} from '../../../emulators/apps-script/index';
import type { SheetImpl } from '../../../emulators/apps-script/spreadsheet';

const T0 = Date.UTC(2024, 0, 1);

const CODE = `
var SS = function () { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1'); };
var B = function () { return SpreadsheetApp.newDataValidation(); };
function build(kind, allowInvalid) {
  var b = B();
  if (kind === 'list') b.requireValueInList(['Lead', 'Won', 'Lost'], true);
  else if (kind === 'checkbox') b.requireCheckbox();
  else if (kind === 'number') b.requireNumberBetween(1, 10);
  else if (kind === 'date') b.requireDateBetween(new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 11, 31)));
  else if (kind === 'dateOnly') b.requireDate();
  else if (kind === 'relative') b.withCriteria(SpreadsheetApp.DataValidationCriteria.DATE_AFTER_RELATIVE, [SpreadsheetApp.RelativeDate.TODAY]);
  else if (kind === 'formula') b.requireFormulaSatisfied('=A1>0');
  else if (kind === 'big') { var items = []; for (var i = 0; i < allowInvalid; i++) items.push('v' + i); b.requireValueInList(items); allowInvalid = undefined; }
  if (allowInvalid !== undefined) b.setAllowInvalid(allowInvalid);
  return b.build();
}
function describeRule(rule) {
  if (rule === null) return null;
  var values = rule.getCriteriaValues().map(function (v) { return v instanceof Date ? v.toISOString() : v; });
  return { type: String(rule.getCriteriaType()), values: values, allowInvalid: rule.getAllowInvalid(), help: rule.getHelpText() };
}
function ruleOf(kind, allowInvalid) { return describeRule(build(kind, allowInvalid)); }
function builderRoundTrip() {
  var rule = B().requireValueInList(['a', 'b'], false).setHelpText('Pick one').setAllowInvalid(false).build();
  var again = rule.copy().requireNumberGreaterThan(3).build();
  var b = B().requireCheckbox('yes', 'no');
  return { rule: describeRule(rule), again: describeRule(again), builder: [String(b.getCriteriaType()), b.getCriteriaValues(), b.getAllowInvalid()] };
}
function setRule(a1, kind, allowInvalid) { SS().getRange(a1).setDataValidation(build(kind, allowInvalid)); }
function rulesOf(a1) { return SS().getRange(a1).getDataValidations().map(function (line) { return line.map(describeRule); }); }
function write(a1, values) { SS().getRange(a1).setValues(values); return SS().getRange(a1).getValues(); }
function values(a1) { return SS().getRange(a1).getValues(); }
function setRules(a1, kinds) { SS().getRange(a1).setDataValidations(kinds.map(function (line) { return line.map(function (k) { return k === null ? null : build(k, false); }); })); }
function clearRules(a1) { SS().getRange(a1).clearDataValidations(); }
function checkboxes(a1, checked, unchecked) {
  var r = SS().getRange(a1);
  if (checked === undefined) r.insertCheckboxes(); else if (unchecked === undefined) r.insertCheckboxes(checked); else r.insertCheckboxes(checked, unchecked);
  return r.getValues();
}
function boxes(a1, action) { var r = SS().getRange(a1); if (action) r[action](); return { values: r.getValues(), checked: r.isChecked() }; }
function clearWith(a1, options) { if (options === 'sheet') SS().clear(); else if (options === undefined) SS().getRange(a1).clear(); else SS().getRange(a1).clear(options); }
function formatAfter(format) { var r = SS().getRange('D1'); r.setNumberFormat('0.00'); r.setNumberFormat(format); return r.getNumberFormat(); }
function appendLine(values) { SS().appendRow(values); }
function rangeRule(a1, listA1) {
  SS().getRange(a1).setDataValidation(B().requireValueInRange(SS().getRange(listA1), false).build());
  var values = SS().getRange(a1).getDataValidation().getCriteriaValues();
  return [values[0].getA1Notation(), values[1]];
}
`;

let sim: AppsScriptSimulator;
let sheet: SheetImpl;

beforeEach(() => {
  sim = createSimulator({ code: CODE, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
  sheet = sim.spreadsheet.getSheetByName('Sheet1') as SheetImpl;
});

function run<T>(fn: string, args: unknown[] = []): T {
  const result = sim.run(fn, args);
  if (!result.ok) throw new Error(result.error?.message);
  return result.value as T;
}
const failure = (fn: string, args: unknown[] = []): string | undefined => sim.run(fn, args).error?.message;

describe('the builder and its rules', () => {
  it('builds rules that read back their criteria, values, help text and whether they warn (the default)', () => {
    expect(run('ruleOf', ['list'])).toEqual({
      type: 'VALUE_IN_LIST',
      values: [['Lead', 'Won', 'Lost'], true],
      allowInvalid: true,
      help: null,
    });
    expect(run('ruleOf', ['checkbox'])).toEqual({
      type: 'CHECKBOX',
      values: [],
      allowInvalid: true,
      help: null,
    });
    expect(run('ruleOf', ['number', false])).toMatchObject({
      type: 'NUMBER_BETWEEN',
      values: [1, 10],
      allowInvalid: false,
    });
    expect(run('ruleOf', ['date'])).toMatchObject({
      type: 'DATE_BETWEEN',
      values: ['2024-01-01T00:00:00.000Z', '2024-12-31T00:00:00.000Z'],
    });
    expect(run('builderRoundTrip')).toEqual({
      rule: { type: 'VALUE_IN_LIST', values: [['a', 'b'], false], allowInvalid: false, help: 'Pick one' },
      again: { type: 'NUMBER_GREATER_THAN', values: [3], allowInvalid: false, help: 'Pick one' },
      builder: ['CHECKBOX', ['yes', 'no'], true],
    });
  });

  it('sets one rule per cell of a range, reads them back (null where none), and clears them', () => {
    run('setRule', ['B2:B3', 'list']);
    const rules = run<unknown[][]>('rulesOf', ['A2:B3']);
    expect(rules.map((line) => line.map((rule) => (rule as { type: string } | null)?.type ?? null))).toEqual([
      [null, 'VALUE_IN_LIST'],
      [null, 'VALUE_IN_LIST'],
    ]);
    run('setRules', ['A1:B1', [['number', null]]]);
    expect(cellRules(sheet).map((cell) => cell.a1)).toEqual(['A1', 'B2', 'B3']);
    expect(failure('setRules', ['A1:B1', [['number']]])).toBe(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    run('clearRules', ['A1:B2']);
    expect(cellRules(sheet).map((cell) => cell.a1)).toEqual(['B3']);
  });
});

describe('rules a script may not set', () => {
  it('refuses a list of more than 500 items at setDataValidation, with the documented message', () => {
    run('setRule', ['A1', 'big', 500]);
    expect(failure('setRule', ['A1', 'big', 501])).toBe(LIST_LIMIT_MESSAGE);
    expect(LIST_LIMIT_MESSAGE).toBe(
      'The data validation rule has more items than the limit of 500. Use the "List from a range" criteria instead.',
    );
  });

  it('reads a relative-date rule a person set, but refuses to set one from a script', () => {
    expect(failure('setRule', ['A1', 'relative'])).toMatch(/cannot set a DATE_AFTER_RELATIVE rule/);
    expect(cellRules(sheet)).toEqual([]);
    setPersonRule(sheet, 'A1', { criteria: 'DATE_AFTER_RELATIVE', values: ['TODAY'] });
    expect(run('rulesOf', ['A1'])).toEqual([
      [{ type: 'DATE_AFTER_RELATIVE', values: ['TODAY'], allowInvalid: true, help: null }],
    ]);
    expect(failure('setRule', ['A1', 'formula'])).toMatch(/does not model custom-formula/);
  });
});

describe('a rule that rejects', () => {
  it('refuses a script write that breaks it, at the write, naming the cell; nothing of the write lands', () => {
    run('setRule', ['B2:B5', 'list', false]);
    sheet.getRange('A2:B4').setValues([
      ['x', 'Lead'],
      ['y', 'Won'],
      ['z', ''],
    ]);
    expect(
      failure('write', [
        'A2:B4',
        [
          ['x2', 'Won'],
          ['y2', 'won'],
          ['z2', 'Nope'],
        ],
      ]),
    ).toBe('The data you entered in cell B3 violates the data validation rules set on this cell.');
    expect(run('values', ['A2:B4'])).toEqual([
      ['x', 'Lead'],
      ['y', 'Won'],
      ['z', ''],
    ]);
    // Choices, an empty cell and cells without the rule pass.
    expect(
      run('write', [
        'A2:B4',
        [
          ['x2', 'Lost'],
          ['y2', ''],
          ['z2', 'Won'],
        ],
      ]),
    ).toEqual([
      ['x2', 'Lost'],
      ['y2', ''],
      ['z2', 'Won'],
    ]);
    expect(failure('appendLine', [['w', 'Maybe']])).toBe(
      'The data you entered in cell B5 violates the data validation rules set on this cell.',
    );
  });

  it('refuses a person typing into it (the UI refuses the input) and keeps the value', () => {
    run('setRule', ['C1', 'number', false]);
    sim.person.edit('Sheet1', 1, 3, '5');
    expect(() => sim.person.edit('Sheet1', 1, 3, '11')).toThrow(/cell C1 violates the data validation rules/);
    expect(sheet.getRange('C1').getValue()).toBe(5);
  });

  it('judges dates by day and numbers as numbers', () => {
    run('setRule', ['A1:A3', 'date', false]);
    expect(run('write', ['A1:A2', [['2024-06-01'], [new Date(Date.UTC(2024, 11, 31, 15))]]])).toHaveLength(2);
    expect(failure('write', ['A3', [['2025-01-01']]])).toMatch(/cell A3 violates/);
    expect(failure('write', ['A3', [['soon']]])).toMatch(/cell A3 violates/);
    run('setRule', ['B1', 'number', false]);
    expect(failure('write', ['B1', [['7 apples']]])).toMatch(/cell B1 violates/);
  });
});

describe('a rule that warns', () => {
  it('keeps a value that breaks it and marks the cell invalid, readable by the test API', () => {
    run('setRule', ['B2:B3', 'list', true]);
    run('write', ['B2:B3', [['Won'], ['Pending']]]);
    expect(run('values', ['B2:B3'])).toEqual([['Won'], ['Pending']]);
    expect(invalidCells(sheet)).toEqual(['B3']);
    expect(cellRules(sheet)[1]).toMatchObject({
      a1: 'B3',
      criteria: 'VALUE_IN_LIST',
      dropdown: true,
      invalid: true,
    });
    // A rule set over a value already there marks it too.
    sheet.getRange('D1').setValue('abc');
    run('setRule', ['D1', 'number', true]);
    expect(invalidCells(sheet)).toEqual(['D1', 'B3']);
  });

  it('a list from a range takes what the range’s cells show, read back as the range and the dropdown flag', () => {
    sheet.getRange('E1:E2').setValues([['Won'], ['Lost']]);
    expect(run('rangeRule', ['A1:A2', 'E1:E2'])).toEqual(['E1:E2', false]);
    sheet.getRange('A1:A2').setValues([['Lost'], ['Lead']]);
    expect(invalidCells(sheet)).toEqual(['A2']);
    sheet.getRange('E2').setValue('Lead');
    expect(invalidCells(sheet)).toEqual(['A1']);
    expect(cellRules(sheet)[0]).toMatchObject({ criteria: 'VALUE_IN_RANGE', dropdown: false });
  });

  it('takes a person’s multi-select text "a, b" of its choices; a script rule over it has no chips', () => {
    setPersonRule(sheet, 'A1', {
      criteria: 'VALUE_IN_LIST',
      values: [['Won', 'Lead'], true],
      multiple: true,
    });
    sheet.getRange('A1').setValue('Won, Lead');
    expect(invalidCells(sheet)).toEqual([]);
    run('setRule', ['A1', 'list', true]);
    expect(invalidCells(sheet)).toEqual(['A1']);
  });
});

describe('checkboxes', () => {
  it('a requireCheckbox rule keeps booleans; they read back true/false and an empty cell ""', () => {
    run('setRule', ['A1:A3', 'checkbox', true]);
    expect(run('write', ['A1:A3', [[true], [false], ['']]])).toEqual([[true], [false], ['']]);
    expect(run('write', ['A1', [['TRUE']]])).toEqual([[true]]);
    expect(invalidCells(sheet)).toEqual([]);
    run('write', ['A3', [['yes']]]);
    expect(invalidCells(sheet)).toEqual(['A3']);
  });

  it('insertCheckboxes sets every cell to false (wiping values); check, uncheck, isChecked, removeCheckboxes', () => {
    sheet.getRange('A1:A2').setValues([['keep?'], [42]]);
    expect(run('checkboxes', ['A1:A2'])).toEqual([[false], [false]]);
    expect(run('boxes', ['A1:A2', 'check'])).toEqual({ values: [[true], [true]], checked: true });
    expect(run('boxes', ['A1:A2', 'uncheck'])).toEqual({ values: [[false], [false]], checked: false });
    sheet.getRange('A1').setValue(true);
    expect(run('boxes', ['A1:A2'])).toMatchObject({ checked: null });
    expect(run('boxes', ['A1:A2', 'removeCheckboxes'])).toEqual({ values: [[''], ['']], checked: null });
    expect(cellRules(sheet)).toEqual([]);
    expect(run('checkboxes', ['B1', 'yes'])).toEqual([['']]);
    expect(run('checkboxes', ['B2', 'yes', 'no'])).toEqual([['no']]);
    expect(run('boxes', ['B1:B2', 'check'])).toEqual({ values: [['yes'], ['yes']], checked: true });
  });
});

describe("a person's paste, fill and sort", () => {
  it('carry the source’s rules: a paste from plain cells removes the rules where it lands', () => {
    run('setRule', ['B2:B4', 'list', false]);
    sheet.getRange('A2:A4').setValues([['Won'], ['Lead'], ['anything']]);
    sim.person.paste('Sheet1', 'A2:A4', 'B2');
    expect(sheet.getRange('B2:B4').getValues()).toEqual([['Won'], ['Lead'], ['anything']]);
    expect(cellRules(sheet)).toEqual([]);
    run('setRule', ['C1', 'checkbox', true]);
    sim.person.paste('Sheet1', 'C1', 'D1');
    sim.person.fillDown('Sheet1', 'D1:D3');
    expect(cellRules(sheet).map((cell) => cell.a1)).toEqual(['C1', 'D1', 'D2', 'D3']);
  });

  it('a sort moves each cell’s rule with it', () => {
    sheet.getRange('A1:B2').setValues([
      ['b', 1],
      ['a', 2],
    ]);
    run('setRule', ['B1', 'number', true]);
    sim.person.sortRange('Sheet1', 'A1:B2', 1);
    expect(cellRules(sheet).map((cell) => cell.a1)).toEqual(['B2']);
  });
});

describe('clearing', () => {
  beforeEach(() => {
    sheet.getRange('A1:B2').setValues([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    sheet.getRange('A1:B2').setNumberFormat('@').setNote('note');
    run('setRule', ['A1:B2', 'list', true]);
  });
  const state = () => ({
    values: sheet.getRange('A1:B1').getValues()[0],
    formats: sheet.getRange('A1:B1').getNumberFormats()[0],
    notes: sheet.getRange('A1:B1').getNotes()[0],
    rules: cellRules(sheet).length,
  });

  it('Sheet.clear() clears values and formats, keeping notes and rules', () => {
    run('clearWith', ['A1', 'sheet']);
    expect(state()).toEqual({
      values: ['', ''],
      formats: ['0.###############', '0.###############'],
      notes: ['note', 'note'],
      rules: 4,
    });
  });

  it('Range.clear() clears values and formats, keeping notes and rules', () => {
    run('clearWith', ['A1:B1']);
    expect(state()).toEqual({
      values: ['', ''],
      formats: ['0.###############', '0.###############'],
      notes: ['note', 'note'],
      rules: 4,
    });
  });

  it('Range.clear(options) clears only what the options name, and everything when they name nothing', () => {
    run('clearWith', ['A1:B1', { validationsOnly: true }]);
    expect(state()).toEqual({ values: ['a', 'b'], formats: ['@', '@'], notes: ['note', 'note'], rules: 2 });
    run('clearWith', ['A2', { contentsOnly: true }]);
    expect([sheet.getRange('A2').getValue(), sheet.getRange('A2').getNumberFormat()]).toEqual(['', '@']);
    run('clearWith', ['A1:B2', { commentsOnly: true }]);
    expect(sheet.getRange('A1:B2').getNotes()).toEqual([
      ['', ''],
      ['', ''],
    ]);
    run('clearWith', ['B2', {}]);
    expect([
      sheet.getRange('B2').getValue(),
      sheet.getRange('B2').getNumberFormat(),
      cellRules(sheet).length,
    ]).toEqual(['', '0.###############', 1]);
  });

  it("setNumberFormat('general') reads back as the default '0.###############'", () => {
    expect(run('formatAfter', ['general'])).toBe('0.###############');
    expect(run('formatAfter', ['0.0'])).toBe('0.0');
  });
});

describe('what typed cells cost', () => {
  it('reading rules waits and reads their cells; setting them, clearing them and building rules is queued', () => {
    expect(sheetCallKind('Range', 'getDataValidations')).toBe('wait');
    expect(sheetCallKind('Range', 'getDataValidation')).toBe('wait');
    expect(sheetCallKind('Range', 'isChecked')).toBe('wait');
    for (const method of [
      'setDataValidation',
      'setDataValidations',
      'clearDataValidations',
      'insertCheckboxes',
      'removeCheckboxes',
      'check',
      'uncheck',
    ])
      expect(sheetCallKind('Range', method)).toBe('deferred');
    expect(sheetCallKind('SpreadsheetApp', 'newDataValidation')).toBe('deferred');
    for (const method of ['requireValueInList', 'setAllowInvalid', 'build', 'copy', 'withCriteria'])
      expect(sheetCallKind('DataValidationBuilder', method)).toBe('deferred');
    for (const method of ['getCriteriaType', 'getCriteriaValues', 'copy'])
      expect(sheetCallKind('DataValidation', method)).toBe('deferred');
  });

  it('counts in a run: a rule set on 3 cells writes 3, reading 6 rules reads 6 in one wait', () => {
    sim = createSimulator({
      code: CODE,
      startTime: T0,
      timeZone: 'Etc/UTC',
      countRealTime: false,
      costs: 'central',
    });
    const set = sim.run('setRule', ['B2:B4', 'list', false]);
    // getActiveSpreadsheet and getSheetByName wait; the builder's calls and setDataValidation are queued.
    expect(set.stats.sheetWaits).toBe(2);
    expect(set.stats.cellsWritten).toBe(3);
    const read = sim.run('rulesOf', ['A2:B4']);
    expect(read.stats.sheetWaits).toBe(3);
    expect(read.stats.cellsRead).toBe(6);
  });
});
