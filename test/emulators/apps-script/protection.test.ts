// Protection (apps-script-facts §14): protect() on a protected range makes another protection, found
// by description through getProtections; warning-only ranges let a person edit after a warning the
// test API records; a script's writes pass (UNCONFIRMED: the documented reading); remove(); costs.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type AppsScriptSimulator,
  createSimulator,
  protectionWarnings,
  sheetCallKind,
} from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const CODE = `
var SS = function () { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1'); };
function protect(a1, description, warningOnly) {
  var p = SS().getRange(a1).protect().setDescription(description);
  if (warningOnly) p.setWarningOnly(true);
  return p.getDescription();
}
function list(where) {
  var owner = where === 'spreadsheet' ? SpreadsheetApp.getActiveSpreadsheet() : SS();
  return owner.getProtections(SpreadsheetApp.ProtectionType.RANGE).map(function (p) {
    return [p.getDescription(), p.getRange().getA1Notation(), p.isWarningOnly()];
  });
}
function removeByDescription(description) {
  SS().getProtections(SpreadsheetApp.ProtectionType.RANGE).forEach(function (p) {
    if (p.getDescription() === description) p.remove();
  });
  return list('sheet').length;
}
function write(a1, value) { SS().getRange(a1).setValue(value); return SS().getRange(a1).getValue(); }
`;

let sim: AppsScriptSimulator;
beforeEach(() => {
  sim = createSimulator({
    code: CODE,
    startTime: T0,
    timeZone: 'Etc/UTC',
    countRealTime: false,
    users: [{ email: 'owner@acme.test' }],
  });
});
const run = <T>(fn: string, args: unknown[] = []): T => {
  const result = sim.run(fn, args);
  if (!result.ok) throw new Error(result.error?.message);
  return result.value as T;
};

describe('protections', () => {
  it('protect() on an already protected range makes another one; getProtections lists them all', () => {
    run('protect', ['A1:A10', 'tas:id', true]);
    run('protect', ['A1:A10', 'tas:id', true]);
    run('protect', ['B1:C1', 'other', false]);
    expect(run('list', ['sheet'])).toEqual([
      ['tas:id', 'A1:A10', true],
      ['tas:id', 'A1:A10', true],
      ['other', 'B1:C1', false],
    ]);
    const second = sim.spreadsheet.insertSheet('Two');
    second.getRange('D4').protect().setDescription('elsewhere');
    expect(run<unknown[]>('list', ['spreadsheet']).map((p) => (p as string[])[0])).toEqual([
      'tas:id',
      'tas:id',
      'other',
      'elsewhere',
    ]);
    expect(run('removeByDescription', ['tas:id'])).toBe(1);
  });

  it('warning-only: a person edits after a warning, which the test API records with the protection and editor', () => {
    run('protect', ['A1:A10', 'tas:id', true]);
    run('protect', ['C1', 'full', false]);
    sim.person.editor = 'bob@acme.test';
    sim.person.edit('Sheet1', 2, 1, 'r_typed');
    sim.person.setValues('Sheet1', 9, 1, [
      ['x', 'y'],
      ['z', 'w'],
    ]);
    sim.person.edit('Sheet1', 2, 2, 'outside');
    sim.person.edit('Sheet1', 1, 3, 'full protections ask nothing of the owner');
    expect(sim.spreadsheet.getSheetByName('Sheet1')?.getRange('A2').getValue()).toBe('r_typed');
    expect(protectionWarnings(sim.spreadsheet)).toEqual([
      { sheet: 'Sheet1', a1: 'A2', description: 'tas:id', editor: 'bob@acme.test', at: T0 },
      { sheet: 'Sheet1', a1: 'A9:B10', description: 'tas:id', editor: 'bob@acme.test', at: T0 },
    ]);
  });
});

describe('warnings and script writes', () => {
  it('typing into a cell (personEdit, the playground’s typing) shows the warning too', () => {
    run('protect', ['A1:A10', 'tas:id', true]);
    sim.person.editor = 'erin@acme.test';
    sim.personEdit('Sheet1', 4, 1, 'typed');
    expect(protectionWarnings(sim.spreadsheet)).toEqual([
      { sheet: 'Sheet1', a1: 'A4', description: 'tas:id', editor: 'erin@acme.test', at: T0 },
    ]);
  });

  it('a script writes into a warning-only range without a warning (UNCONFIRMED: the documented reading)', () => {
    run('protect', ['A1:A10', 'tas:id', true]);
    expect(run('write', ['A3', 'r_1'])).toBe('r_1');
    expect(protectionWarnings(sim.spreadsheet)).toEqual([]);
  });

  it('costs: protecting and its setters are queued; listing protections and reading them wait', () => {
    expect(sheetCallKind('Range', 'protect')).toBe('deferred');
    expect(sheetCallKind('Protection', 'setDescription')).toBe('deferred');
    expect(sheetCallKind('Protection', 'setWarningOnly')).toBe('deferred');
    expect(sheetCallKind('Protection', 'remove')).toBe('deferred');
    expect(sheetCallKind('Sheet', 'getProtections')).toBe('wait');
    expect(sheetCallKind('Spreadsheet', 'getProtections')).toBe('wait');
    expect(sheetCallKind('Protection', 'getDescription')).toBe('wait');
  });
});
