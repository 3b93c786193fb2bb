// Clipboard text read as Sheets reads a paste: lines, tab-separated cells, quoted cells; and Undo
// following the lines a step changed.
import { describe, expect, it } from 'vitest';
import { GridActions, parseClipboard } from '../../demo/grid-actions';
import { type AppsScriptSimulator, createSimulator } from '../../emulators/apps-script/index';

describe('clipboard text pasted over a cell', () => {
  it('splits lines and cells; one final line break ends the last line', () => {
    expect(parseClipboard('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseClipboard('one value')).toEqual([['one value']]);
    expect(parseClipboard('a\t\tc\n\n')).toEqual([['a', '', 'c'], ['']]);
  });

  it('keeps line breaks, tabs and doubled quotes inside a quoted cell', () => {
    expect(parseClipboard('"two\nlines"\t"tab\there"\t"say ""hi"""\n')).toEqual([
      ['two\nlines', 'tab\there', 'say "hi"'],
    ]);
    // A quote inside a cell that does not start with one is text.
    expect(parseClipboard('5" screen\tx')).toEqual([['5" screen', 'x']]);
  });

  it('reads nothing from empty text', () => {
    expect(parseClipboard('')).toEqual([]);
  });
});

// Undo follows the lines a step changed (issue 35, point 6): after the add-on removed a line above,
// Ctrl+Z cleared a value on a different line.
const T0 = Date.UTC(2024, 0, 1);
const ADD_ON = `function removeLine(row) { SpreadsheetApp.getActiveSheet().deleteRow(row); }
function insertLine(row) { SpreadsheetApp.getActiveSheet().insertRowBefore(row); }
function write(row, col, value) { SpreadsheetApp.getActiveSheet().getRange(row, col).setValue(value); }`;

function playground(): {
  sim: AppsScriptSimulator;
  grid: GridActions;
  sheetId: number;
  values: () => unknown[][];
} {
  const sim = createSimulator({ code: ADD_ON, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
  const sheet = sim.spreadsheet.getActiveSheet();
  sim.person.setValues(sheet.getName(), 1, 1, [
    ['a', 'one'],
    ['b', 'two'],
    ['c', 'three'],
    ['d', 'four'],
  ]);
  const values = () => sim.snapshotSheet(sheet.getSheetId()).values;
  return { sim, grid: new GridActions(() => sim), sheetId: sheet.getSheetId(), values };
}

function type(p: ReturnType<typeof playground>, row: number, col: number, text: string): void {
  const name = p.sim.spreadsheet.getSheetById(p.sheetId)?.getName() as string;
  p.grid.typed(p.sheetId, row, col, () => p.sim.personEdit(name, row, col, text));
}

describe('Undo after the add-on moved lines', () => {
  it('puts a typed cell back on its line, where the line is now', () => {
    const p = playground();
    type(p, 3, 2, 'typed');
    expect(p.sim.run('removeLine', [1]).ok).toBe(true);
    expect(p.grid.run({ action: 'undo' })).toBe('Undone: Typed into B3 (its line is now row 2).');
    expect(p.values()).toEqual([
      ['b', 'two'],
      ['c', 'three'],
      ['d', 'four'],
    ]);
  });

  it('refuses an action it does not know with a sentence', () => {
    const p = playground();
    expect(() => p.grid.run({ action: 'explode', sheetId: p.sheetId } as never)).toThrow(
      'The playground has no grid action explode.',
    );
  });

  it('follows a line moved down by a line inserted above it', () => {
    const p = playground();
    type(p, 2, 2, 'typed');
    p.sim.run('insertLine', [1]);
    expect(p.grid.run({ action: 'undo' })).toBe('Undone: Typed into B2 (its line is now row 3).');
    expect(p.values()[2]).toEqual(['b', 'two']);
  });

  it('undoes nothing when the line is gone, or its cell changed since, and says so', () => {
    const p = playground();
    type(p, 3, 2, 'typed');
    p.sim.run('removeLine', [3]);
    const gone = p.values();
    expect(() => p.grid.run({ action: 'undo' })).toThrow(
      'Undo cannot put back “Typed into B3”: line 3 was deleted since (by the add-on or another editor). Nothing was undone.',
    );
    expect(p.values()).toEqual(gone);

    type(p, 2, 2, 'mine');
    p.sim.run('write', [2, 2, 'the service said']);
    expect(() => p.grid.run({ action: 'undo' })).toThrow(
      'Undo cannot put back “Typed into B2”: B2 changed since (by the add-on or another editor), and Undo would overwrite it. Nothing was undone.',
    );
    expect(p.values()[1]).toEqual(['b', 'the service said']);
    // A step that cannot be placed is dropped: the next Undo finds none left.
    expect(p.grid.run({ action: 'undo' })).toBe('Nothing to undo.');
  });
});

describe('Undo of deleted lines and columns after the add-on moved lines', () => {
  it('puts deleted lines back between the lines they stood between', () => {
    const p = playground();
    expect(p.grid.run({ action: 'deleteRows', sheetId: p.sheetId, row: 3, count: 1 })).toBe('Deleted row 3.');
    p.sim.run('removeLine', [1]);
    expect(p.grid.run({ action: 'undo' })).toBe(
      'Undone: Deleted row 3 (it goes back at row 2, between the lines it stood between).',
    );
    expect(p.values()).toEqual([
      ['b', 'two'],
      ['c', 'three'],
      ['d', 'four'],
    ]);
  });

  it("puts a deleted column's cells back on their lines", () => {
    const p = playground();
    p.grid.run({ action: 'deleteColumns', sheetId: p.sheetId, col: 2, count: 1 });
    p.sim.run('removeLine', [2]);
    expect(p.grid.run({ action: 'undo' })).toBe(
      'Undone: Deleted column B (1 line holding its cells was deleted since: those cells stay gone).',
    );
    expect(p.values()).toEqual([
      ['a', 'one'],
      ['c', 'three'],
      ['d', 'four'],
    ]);
  });
});
