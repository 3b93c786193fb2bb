// Each grid action of the playground as a step Undo can take back: what it did, said in a sentence,
// and how to put it back on the lines it changed, wherever they are by then (undo-lines.ts).
import { columnToLetters, parseA1 } from '../emulators/apps-script/a1';
import type { AppsScriptSimulator } from '../emulators/apps-script/index';
import { parseClipboard } from './clipboard';
import type { GridAction } from './grid-actions';
import {
  type CellRecord,
  emptyCell,
  movedNote,
  SheetLines,
  type TrackedLine,
  UndoRefused,
} from './undo-lines';

/** Cells pasted at once at most: a bigger clipboard is refused with a sentence. */
export const MAX_PASTE_CELLS = 100_000;

/** A refusal a person can act on; any other error is the playground's own fault. */
export class GridActionRefused extends Error {}

/** A done action: its sentence, and its undoing (returns a note for "Undone: …"; throws UndoRefused). */
export interface GridStep {
  said: string;
  undo: () => string;
}

type Of<A extends GridAction['action']> = Extract<GridAction, { action: A }>;

function a1Of(row: number, col: number): string {
  return `${columnToLetters(col)}${row}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function whole(value: unknown, what: string, min = 1): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw new GridActionRefused(`${what} must be a whole number from ${min}.`);
  return value;
}

/**
 * A step that changed the cells of a block in place: Undo puts `before` back on the block's lines,
 * where they are now, if every cell still holds what the step left.
 */
function cellsStep(
  lines: SheetLines,
  top: number,
  left: number,
  before: CellRecord[][],
  said: string,
): GridStep {
  const width = Math.max(0, ...before.map((line) => line.length));
  const what = said.replace(/\.$/, '');
  const after = lines.person.copyCells(lines.name(what), top, left, before.length, width);
  const tracked = lines.track(top, before.length);
  return {
    said,
    undo: () => {
      const rows = lines.rowsNow(tracked, what);
      lines.assertUnchanged(rows, left, after, what);
      lines.putBack(rows, left, before);
      return movedNote(tracked, rows);
    },
  };
}

/** A typed cell (`edit` types it), undone on its line. */
export function typedStep(
  sim: AppsScriptSimulator,
  sheetId: number,
  row: number,
  col: number,
  edit: () => void,
): GridStep {
  const lines = new SheetLines(sim, sheetId);
  const before = sim.person.copyCells(lines.name(''), row, col, 1, 1);
  edit();
  return cellsStep(lines, row, col, before, `Typed into ${a1Of(row, col)}.`);
}

function paste(sim: AppsScriptSimulator, request: Of<'paste'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const row = whole(request.row, 'The row');
  const col = whole(request.col, 'The column');
  const block = parseClipboard(request.text);
  const width = Math.max(0, ...block.map((line) => line.length));
  if (block.length === 0 || width === 0) throw new GridActionRefused('The clipboard holds no text to paste.');
  if (block.length * width > MAX_PASTE_CELLS)
    throw new GridActionRefused(
      `The clipboard holds ${block.length * width} cells; the playground pastes at most ${MAX_PASTE_CELLS} at once: paste it in parts.`,
    );
  const name = lines.name('');
  const before = sim.person.copyCells(name, row, col, block.length, width);
  sim.person.setValues(name, row, col, block);
  const said = `Pasted ${plural(block.length, 'line')} × ${plural(width, 'column')} at ${a1Of(row, col)}.`;
  return cellsStep(lines, row, col, before, said);
}

/** Delete on a selected cell: its content goes (formats and notes stay). */
function clear(sim: AppsScriptSimulator, request: Of<'clear'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const row = whole(request.row, 'The row');
  const col = whole(request.col, 'The column');
  const name = lines.name('');
  const before = sim.person.copyCells(name, row, col, 1, 1);
  sim.person.clearCells(name, a1Of(row, col));
  return cellsStep(lines, row, col, before, `Cleared ${a1Of(row, col)}.`);
}

function sortSheet(sim: AppsScriptSimulator, request: Of<'sortSheet'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const sheet = sim.person.sheet(name);
  const col = whole(request.col, 'The column');
  const top = sheet.getFrozenRows() + 1;
  const height = Math.max(0, sheet.getLastRow() - top + 1);
  const before = sim.person.copyCells(name, top, 1, height, sheet.getMaxColumns());
  sim.person.sortSheet(name, col, request.ascending);
  const order = request.ascending ? 'A → Z' : 'Z → A';
  const said = `Sorted the sheet by column ${columnToLetters(col)}, ${order} (below the frozen rows).`;
  return cellsStep(lines, top, 1, before, said);
}

function sortRange(sim: AppsScriptSimulator, request: Of<'sortRange'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const sheet = sim.person.sheet(name);
  const range = parseA1(String(request.range).trim().toUpperCase());
  if (!range || range.sheetName !== undefined)
    throw new GridActionRefused(`"${request.range}" is not a range of this sheet: write it like B2:B26.`);
  const [maxRows, maxColumns] = [sheet.getMaxRows(), sheet.getMaxColumns()];
  const top = Math.min(range.row ?? 1, range.endRow ?? maxRows);
  const left = Math.min(range.col ?? 1, range.endCol ?? maxColumns);
  const rows = Math.max(range.row ?? 1, range.endRow ?? maxRows) - top + 1;
  const cols = Math.max(range.col ?? 1, range.endCol ?? maxColumns) - left + 1;
  const col = whole(request.col, 'The column');
  if (col < left || col >= left + cols)
    throw new GridActionRefused(
      `Column ${columnToLetters(col)} is outside ${request.range}: sort by a column of the range.`,
    );
  const a1 = `${a1Of(top, left)}:${a1Of(top + rows - 1, left + cols - 1)}`;
  const before = sim.person.copyCells(name, top, left, rows, cols);
  sim.person.sortRange(name, a1, col, request.ascending);
  const order = request.ascending ? 'A → Z' : 'Z → A';
  const said = `Sorted ${a1} by column ${columnToLetters(col)}, ${order}; cells outside it did not move.`;
  return cellsStep(lines, top, left, before, said);
}

function insertRows(sim: AppsScriptSimulator, request: Of<'insertRows'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const maxRows = sim.person.sheet(name).getMaxRows();
  const before = whole(request.before, 'The row');
  const count = whole(request.count, 'The number of rows');
  if (before > maxRows + 1) throw new GridActionRefused(`The sheet has ${maxRows} rows.`);
  if (before === maxRows + 1) sim.person.sheet(name).insertRowsAfter(maxRows, count);
  else sim.person.insertRows(name, before, count);
  const said = `Inserted ${plural(count, 'row')} at row ${before}`;
  const tracked = lines.track(before, count);
  return {
    said: `${said}.`,
    undo: () => {
      const rows = lines.rowsNow(tracked, said);
      const filled = rows.find((row) => !lineEmpty(sim, lines.name(said), row));
      if (filled !== undefined)
        throw new UndoRefused(
          `Undo cannot take back “${said}”: row ${filled} holds values now, and Undo would delete them. Nothing was undone.`,
        );
      for (const row of [...rows].sort((a, b) => b - a)) sim.person.deleteRows(lines.name(said), row, 1);
      return movedNote(tracked, rows);
    },
  };
}

function lineEmpty(sim: AppsScriptSimulator, name: string, row: number): boolean {
  const width = Math.max(1, sim.person.sheet(name).getLastColumn());
  return (sim.person.copyCells(name, row, 1, 1, width)[0] ?? []).every(emptyCell);
}

function deleteRows(sim: AppsScriptSimulator, request: Of<'deleteRows'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const sheet = sim.person.sheet(name);
  const row = whole(request.row, 'The row');
  const count = whole(request.count, 'The number of rows');
  const cells = sim.person.copyCells(name, row, 1, count, sheet.getMaxColumns());
  // The lines around the deleted ones say where they go back.
  const above = row > 1 ? lines.track(row - 1, 1) : [];
  const below = row + count <= sheet.getMaxRows() ? lines.track(row + count, 1) : [];
  sim.person.deleteRows(name, row, count);
  const said = `Deleted ${count === 1 ? `row ${row}` : `rows ${row}–${row + count - 1}`}`;
  return {
    said: `${said}.`,
    undo: () => {
      const at = placeBetween(lines, above, below, said);
      const now = lines.name(said);
      if (at > sim.person.sheet(now).getMaxRows()) sim.person.sheet(now).insertRowsAfter(at - 1, count);
      else sim.person.insertRows(now, at, count);
      sim.person.putCells(now, at, 1, cells);
      if (at === row) return '';
      return ` (${count === 1 ? 'it goes' : 'they go'} back at row ${at}, between the lines it stood between)`;
    },
  };
}

/** The row deleted lines go back to: before the line that was below them, or after the one above. */
function placeBetween(
  lines: SheetLines,
  above: readonly TrackedLine[],
  below: readonly TrackedLine[],
  said: string,
): number {
  const name = lines.name(said);
  const belowNow = below[0] ? lines.person.rowOfLine(name, below[0].line) : 0;
  if (belowNow > 0) return belowNow;
  const aboveNow = above[0] ? lines.person.rowOfLine(name, above[0].line) : 0;
  if (aboveNow > 0) return aboveNow + 1;
  throw new UndoRefused(
    `Undo cannot put back “${said}”: the lines around them were deleted since (by the add-on or another editor), so their place is unknown. Nothing was undone.`,
  );
}

function insertColumns(sim: AppsScriptSimulator, request: Of<'insertColumns'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const maxColumns = sim.person.sheet(name).getMaxColumns();
  const before = whole(request.before, 'The column');
  const count = whole(request.count, 'The number of columns');
  if (before > maxColumns + 1) throw new GridActionRefused(`The sheet has ${maxColumns} columns.`);
  sim.person.insertColumnsAt(name, before, count);
  const said = `Inserted ${plural(count, 'column')} at column ${columnToLetters(before)}`;
  return {
    said: `${said}.`,
    undo: () => {
      const now = lines.name(said);
      const height = sim.person.sheet(now).getMaxRows();
      const held = sim.person
        .copyCells(now, 1, before, height, count)
        .findIndex((line) => !line.every(emptyCell));
      if (held >= 0)
        throw new UndoRefused(
          `Undo cannot take back “${said}”: row ${held + 1} holds values in it now, and Undo would delete them. Nothing was undone.`,
        );
      for (let i = 0; i < count; i++) sim.person.deleteColumn(now, before);
      return '';
    },
  };
}

function deleteColumns(sim: AppsScriptSimulator, request: Of<'deleteColumns'>): GridStep {
  const lines = new SheetLines(sim, request.sheetId);
  const name = lines.name('');
  const sheet = sim.person.sheet(name);
  const col = whole(request.col, 'The column');
  const count = whole(request.count, 'The number of columns');
  if (col + count - 1 > sheet.getMaxColumns())
    throw new GridActionRefused(`The sheet has ${sheet.getMaxColumns()} columns.`);
  // Each line's cells go back on that line, wherever it is by then.
  const held: Array<{ line: object; cells: CellRecord[] }> = [];
  sim.person.copyCells(name, 1, col, sheet.getMaxRows(), count).forEach((cells, i) => {
    const blank = cells.every((cell) => emptyCell(cell) && cell.n === undefined && cell.s === undefined);
    if (!blank) held.push({ line: sim.person.lineAt(name, i + 1), cells });
  });
  for (let i = 0; i < count; i++) sim.person.deleteColumn(name, col);
  const last = columnToLetters(col + count - 1);
  const said = `Deleted ${count === 1 ? `column ${columnToLetters(col)}` : `columns ${columnToLetters(col)}–${last}`}`;
  return {
    said: `${said}.`,
    undo: () => {
      const now = lines.name(said);
      sim.person.insertColumnsAt(now, col, count);
      let gone = 0;
      for (const each of held) {
        const row = sim.person.rowOfLine(now, each.line);
        if (row === 0) gone++;
        else sim.person.putCells(now, row, col, [each.cells]);
      }
      if (gone === 0) return '';
      return ` (${plural(gone, 'line')} holding its cells ${gone === 1 ? 'was' : 'were'} deleted since: those cells stay gone)`;
    },
  };
}

/** Every action but Undo, by name. */
export const STEPS = {
  paste,
  clear,
  sortSheet,
  sortRange,
  insertRows,
  deleteRows,
  insertColumns,
  deleteColumns,
} satisfies {
  [A in Exclude<GridAction['action'], 'undo'>]: (sim: AppsScriptSimulator, request: Of<A>) => GridStep;
};
