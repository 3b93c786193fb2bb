// A sheet's grid size (rows and columns, blank or not) as this execution last saw or made it, and the
// growing of sheets. Invariant: every insertion of rows or columns in an execution goes through
// ensureRows or ensureColumns, so the remembered size stays true without asking again.

import { GROWTH_SPARE_ROWS } from '../core/capacity';
import { execution, type GridSize } from './execution';

/**
 * Blank rows kept below the data when the sheet grows, so a person can type new lines there (the
 * too-large check counts them: one constant).
 */
const SPARE_ROWS = GROWTH_SPARE_ROWS;

/** A sheet's grid size as this execution last saw or made it (asked once, kept up to date). */
export function gridSizeOf(sheet: GoogleAppsScript.Spreadsheet.Sheet): GridSize {
  let size = execution.gridSizes.get(sheet);
  if (!size) {
    size = { maxRows: null, maxColumns: null, rowsAtLeast: 0, columnsAtLeast: 0 };
    execution.gridSizes.set(sheet, size);
  }
  return size;
}

/** Notes that the sheet's content reaches this row and column (so the grid has at least as many). */
export function noteContentSize(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastRow: number,
  lastColumn: number,
): void {
  const size = gridSizeOf(sheet);
  size.rowsAtLeast = Math.max(size.rowsAtLeast, lastRow);
  size.columnsAtLeast = Math.max(size.columnsAtLeast, lastColumn);
}

/**
 * Up to how many rows a sheet made in this execution grows without asking its size: the rows it lacks
 * are inserted after the rows it is known to have, which can leave the new sheet's own blank rows
 * (1,000 in Sheets) below the data. Small enough that those cells never matter for the spreadsheet's
 * 10 million cells (a table near that limit has far more rows); larger needs ask the size once.
 */
const NEW_SHEET_BLIND_ROWS = 2000;

/**
 * Notes a sheet this execution just made: it has at least one row and one column and nothing in them,
 * so it can grow without asking its size (see ensureRows).
 */
export function noteNewSheet(sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  execution.sheetsMade.add(sheet);
  noteContentSize(sheet, 1, 1);
}

/** Grows the sheet when needed; returns the first inserted row and how many, or null. */
export function ensureRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastNeededRow: number,
): [number, number] | null {
  const size = gridSizeOf(sheet);
  if (lastNeededRow <= size.rowsAtLeast) return null;
  if (size.maxRows === null && execution.sheetsMade.has(sheet) && lastNeededRow <= NEW_SHEET_BLIND_ROWS) {
    // A sheet made here: its rows past those known are blank, so inserting after them moves nothing
    // and saves asking its size (a waiting call). Its size stays unknown: asked if it grows further.
    const from = size.rowsAtLeast;
    const count = lastNeededRow - from;
    sheet.insertRowsAfter(from, count);
    size.rowsAtLeast = lastNeededRow;
    return [from + 1, count];
  }
  const maxRows = maxRowsOf(sheet);
  if (lastNeededRow <= maxRows) return null;
  const count = lastNeededRow - maxRows + SPARE_ROWS;
  sheet.insertRowsAfter(maxRows, count);
  gridSizeOf(sheet).maxRows = maxRows + count;
  return [maxRows + 1, count];
}

/** The sheet's row count (every row, blank or not), asked once per execution. */
export function maxRowsOf(sheet: GoogleAppsScript.Spreadsheet.Sheet): number {
  const size = gridSizeOf(sheet);
  const maxRows = size.maxRows ?? sheet.getMaxRows();
  size.maxRows = maxRows;
  return maxRows;
}

/**
 * Grows the sheet to `lastNeededColumn` columns when needed. Every insertion of this execution goes
 * through here or ensureRows, so the remembered size stays true.
 */
export function ensureColumns(sheet: GoogleAppsScript.Spreadsheet.Sheet, lastNeededColumn: number): void {
  const size = gridSizeOf(sheet);
  if (lastNeededColumn <= size.columnsAtLeast) return;
  const maxColumns = size.maxColumns ?? sheet.getMaxColumns();
  size.maxColumns = maxColumns;
  if (lastNeededColumn <= maxColumns) return;
  sheet.insertColumnsAfter(maxColumns, lastNeededColumn - maxColumns);
  size.maxColumns = lastNeededColumn;
}
