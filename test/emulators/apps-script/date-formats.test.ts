// Date/time formats read back as Date (§12): a date typed into a number cell gives it a date format,
// and any number under a date or time format reads back as a Date in the spreadsheet's zone.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../emulators/apps-script/index';

const code = `
function typeInto(format, text) {
  var cell = SpreadsheetApp.getActiveSheet().getRange('A1');
  cell.setNumberFormat(format);
  cell.setValue(text);
  var v = cell.getValue();
  return [cell.getNumberFormat(), Object.prototype.toString.call(v), v instanceof Date ? v.toISOString() : v];
}
function numberUnder(format, n) {
  var cell = SpreadsheetApp.getActiveSheet().getRange('B1');
  cell.setNumberFormat(format);
  cell.setValue(n);
  var v = cell.getValue();
  return v instanceof Date ? v.toISOString() : v;
}`;

describe('date formats read back as Date', () => {
  const sim = createSimulator({ code, countRealTime: false, timeZone: 'Europe/Berlin' });

  it('a date typed into a number-formatted cell gives it a date format', () => {
    expect(sim.run('typeInto', ['0.00', '2024-01-05']).value).toEqual([
      'yyyy-mm-dd',
      '[object Date]',
      '2024-01-04T23:00:00.000Z',
    ]);
  });

  it('a date typed into a date-formatted cell keeps that format', () => {
    expect((sim.run('typeInto', ['dd.mm.yyyy', '2024-01-05']).value as string[])[0]).toBe('dd.mm.yyyy');
  });

  it('numbers under date and time formats read back as Dates; under number formats as numbers', () => {
    // Serial 45296 = 2024-01-05 (local midnight in Berlin).
    expect(sim.run('numberUnder', ['yyyy-mm-dd', 45296]).value).toBe('2024-01-04T23:00:00.000Z');
    expect(sim.run('numberUnder', ['h:mm:ss', 0.5]).value).toBe('1899-12-30T11:00:00.000Z');
    expect(sim.run('numberUnder', ['0.00', 45296]).value).toBe(45296);
    expect(sim.run('numberUnder', ['"days" 0', 3]).value).toBe(3);
    expect(sim.run('numberUnder', ['general', 3]).value).toBe(3);
  });
});
