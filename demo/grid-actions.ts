// What a person does to the playground's grid besides typing into a cell, as in Sheets: paste a block
// of tab-separated lines, Data › Sort (a sheet or a selected range, one column alone included), insert
// and delete rows and columns, and Undo the last of these (issue 26, point 9: the README warns about
// each, so a person must be able to try them here).
import { columnToLetters, parseA1 } from '../emulators/apps-script/a1';
import type { AppsScriptSimulator } from '../emulators/apps-script/index';

/** Cells pasted at once at most: a bigger clipboard is refused with a sentence. */
export const MAX_PASTE_CELLS = 100_000;
/** Undo steps kept (the oldest go first). */
const UNDO_DEPTH = 50;

/** One grid action as the page sends it. */
export type GridAction =
  | { action: 'paste'; sheetId: number; row: number; col: number; text: string }
  | { action: 'sortSheet'; sheetId: number; col: number; ascending: boolean }
  | { action: 'sortRange'; sheetId: number; range: string; col: number; ascending: boolean }
  | { action: 'insertRows'; sheetId: number; before: number; count: number }
  | { action: 'deleteRows'; sheetId: number; row: number; count: number }
  | { action: 'insertColumns'; sheetId: number; before: number; count: number }
  | { action: 'deleteColumns'; sheetId: number; col: number; count: number }
  | { action: 'undo' };

/** A refusal a person can act on; any other error is the playground's own fault. */
export class GridActionRefused extends Error {}

interface UndoStep {
  said: string;
  undo: () => void;
}

/**
 * Reads clipboard text as Sheets does: lines by line breaks, cells by tabs, a cell in double quotes
 * may hold tabs, line breaks and doubled quotes. One final line break ends the last line.
 */
export function parseClipboard(text: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let cell = '';
  let quoted = false;
  let cellStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text.charAt(i + 1) === '"') {
        cell += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && cellStart) {
      quoted = true;
      cellStart = false;
    } else if (ch === '\t') {
      line.push(cell);
      cell = '';
      cellStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text.charAt(i + 1) === '\n') i++;
      line.push(cell);
      lines.push(line);
      line = [];
      cell = '';
      cellStart = true;
    } else {
      cell += ch;
      cellStart = false;
    }
  }
  if (cell !== '' || line.length > 0 || !cellStart) {
    line.push(cell);
    lines.push(line);
  }
  return lines;
}

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

/** The playground's grid actions over the current simulator, with their Undo history. */
export class GridActions {
  private steps: UndoStep[] = [];

  constructor(private readonly simulator: () => AppsScriptSimulator) {}

  /** Forgets the Undo history (a fresh spreadsheet). */
  clear(): void {
    this.steps = [];
  }

  /** Runs one action; returns what happened, in a sentence for the page. */
  run(request: GridAction): string {
    if (request.action === 'undo') return this.undo();
    const sim = this.simulator();
    const sheet = sim.spreadsheet.getSheetById(request.sheetId);
    if (!sheet) throw new GridActionRefused('That sheet is gone: pick a tab below the grid.');
    const name = sheet.getName();
    const person = sim.person;
    const maxColumns = sheet.getMaxColumns();
    const maxRows = sheet.getMaxRows();
    let step: UndoStep;
    switch (request.action) {
      case 'paste': {
        const row = whole(request.row, 'The row');
        const col = whole(request.col, 'The column');
        const block = parseClipboard(request.text);
        const width = Math.max(0, ...block.map((line) => line.length));
        if (block.length === 0 || width === 0)
          throw new GridActionRefused('The clipboard holds no text to paste.');
        if (block.length * width > MAX_PASTE_CELLS)
          throw new GridActionRefused(
            `The clipboard holds ${block.length * width} cells; the playground pastes at most ${MAX_PASTE_CELLS} at once: paste it in parts.`,
          );
        const before = person.copyCells(name, row, col, block.length, width);
        person.setValues(name, row, col, block);
        const said = `Pasted ${plural(block.length, 'line')} × ${plural(width, 'column')} at ${a1Of(row, col)}.`;
        step = { said, undo: () => person.putCells(name, row, col, before) };
        break;
      }
      case 'sortSheet': {
        const col = whole(request.col, 'The column');
        const top = sheet.getFrozenRows() + 1;
        const before = person.copyCells(name, top, 1, Math.max(0, maxRows - top + 1), maxColumns);
        person.sortSheet(name, col, request.ascending);
        const order = request.ascending ? 'A → Z' : 'Z → A';
        const said = `Sorted the sheet by column ${columnToLetters(col)}, ${order} (below the frozen rows).`;
        step = { said, undo: () => person.putCells(name, top, 1, before) };
        break;
      }
      case 'sortRange': {
        const range = parseA1(String(request.range).trim().toUpperCase());
        if (!range || range.sheetName !== undefined)
          throw new GridActionRefused(
            `"${request.range}" is not a range of this sheet: write it like B2:B26.`,
          );
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
        const before = person.copyCells(name, top, left, rows, cols);
        person.sortRange(name, a1, col, request.ascending);
        const order = request.ascending ? 'A → Z' : 'Z → A';
        const said = `Sorted ${a1} by column ${columnToLetters(col)}, ${order}; cells outside it did not move.`;
        step = { said, undo: () => person.putCells(name, top, left, before) };
        break;
      }
      case 'insertRows': {
        const before = whole(request.before, 'The row');
        const count = whole(request.count, 'The number of rows');
        if (before > maxRows + 1) throw new GridActionRefused(`The sheet has ${maxRows} rows.`);
        if (before === maxRows + 1) sheet.insertRowsAfter(maxRows, count);
        else person.insertRows(name, before, count);
        const said = `Inserted ${plural(count, 'row')} at row ${before}.`;
        step = { said, undo: () => person.deleteRows(name, before, count) };
        break;
      }
      case 'deleteRows': {
        const row = whole(request.row, 'The row');
        const count = whole(request.count, 'The number of rows');
        const cells = person.copyCells(name, row, 1, count, maxColumns);
        person.deleteRows(name, row, count);
        const said = `Deleted ${count === 1 ? `row ${row}` : `rows ${row}–${row + count - 1}`}.`;
        step = {
          said,
          undo: () => {
            const now = sim.spreadsheet.getSheetById(request.sheetId)?.getMaxRows() ?? 0;
            if (row <= now) person.insertRows(name, row, count);
            person.putCells(name, row, 1, cells);
          },
        };
        break;
      }
      case 'insertColumns': {
        const before = whole(request.before, 'The column');
        const count = whole(request.count, 'The number of columns');
        if (before > maxColumns + 1) throw new GridActionRefused(`The sheet has ${maxColumns} columns.`);
        person.insertColumnsAt(name, before, count);
        const said = `Inserted ${plural(count, 'column')} at column ${columnToLetters(before)}.`;
        step = {
          said,
          undo: () => {
            for (let i = 0; i < count; i++) person.deleteColumn(name, before);
          },
        };
        break;
      }
      case 'deleteColumns': {
        const col = whole(request.col, 'The column');
        const count = whole(request.count, 'The number of columns');
        if (col + count - 1 > maxColumns) throw new GridActionRefused(`The sheet has ${maxColumns} columns.`);
        const cells = person.copyCells(name, 1, col, maxRows, count);
        for (let i = 0; i < count; i++) person.deleteColumn(name, col);
        const last = columnToLetters(col + count - 1);
        const said = `Deleted ${count === 1 ? `column ${columnToLetters(col)}` : `columns ${columnToLetters(col)}–${last}`}.`;
        step = {
          said,
          undo: () => {
            person.insertColumnsAt(name, col, count);
            person.putCells(name, 1, col, cells);
          },
        };
        break;
      }
    }
    this.remember(step);
    return step.said;
  }

  /** Records a typed cell so Undo can put its previous content back. */
  typed(sheetId: number, row: number, col: number, edit: () => void): void {
    const sim = this.simulator();
    const sheet = sim.spreadsheet.getSheetById(sheetId);
    if (!sheet) {
      edit();
      return;
    }
    const name = sheet.getName();
    const before = sim.person.copyCells(name, row, col, 1, 1);
    edit();
    this.remember({
      said: `Typed into ${a1Of(row, col)}.`,
      undo: () => sim.person.putCells(name, row, col, before),
    });
  }

  private remember(step: UndoStep): void {
    this.steps.push(step);
    if (this.steps.length > UNDO_DEPTH) this.steps.shift();
  }

  private undo(): string {
    const step = this.steps.pop();
    if (!step) return 'Nothing to undo.';
    step.undo();
    return `Undone: ${step.said}`;
  }
}
