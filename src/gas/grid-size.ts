// How far a sheet's content reaches, as this execution last read or wrote it, and the growing of
// sheets. A sheet grows right after its content (rows inserted after the last row with content,
// columns after the last column with content), so the grid's size is never asked (a waiting call):
// the blank rows and columns past the content stay where they are, below and right of it, with
// whatever a person formatted or noted there. Every insertion of an execution goes through
// ensureRows or ensureColumns, and every read that finds the content's extent after a wait notes it
// (noteContentExtent), so a write never reaches past the grid's end.

import { execution, type GridSize } from './execution';

/** A sheet's content extent as this execution last saw or made it. */
export function gridSizeOf(sheet: GoogleAppsScript.Spreadsheet.Sheet): GridSize {
  let size = execution.gridSizes.get(sheet);
  if (!size) {
    // Every sheet has at least one row and one column (Sheets refuses deleting the last ones).
    size = { maxRows: null, rowsAtLeast: 1, columnsAtLeast: 1 };
    execution.gridSizes.set(sheet, size);
  }
  return size;
}

/** Notes that the sheet's content reaches at least this row and column (what a partial read saw). */
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
 * Notes the sheet's last row (and column) with content as just read: exactly, since rows a person
 * deleted while the run waited leave fewer, and rows are inserted right after this one.
 */
export function noteContentExtent(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastRow: number,
  lastColumn?: number,
): void {
  const size = gridSizeOf(sheet);
  size.rowsAtLeast = Math.max(1, lastRow);
  if (lastColumn !== undefined) size.columnsAtLeast = Math.max(1, lastColumn);
}

/** Notes the grid's row count where a read told it without asking (an open-ended A1 range). */
export function noteGridRows(sheet: GoogleAppsScript.Spreadsheet.Sheet, rows: number): void {
  gridSizeOf(sheet).maxRows = rows;
}

/**
 * Makes rows up to `lastNeededRow` exist; returns the first inserted row and how many, or null. Rows
 * known to exist are used (the content's, or the grid's where a read told it); past them rows are
 * inserted right after them, never into blank rows whose size would have to be asked.
 */
export function ensureRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastNeededRow: number,
): [number, number] | null {
  const size = gridSizeOf(sheet);
  const known = Math.max(size.rowsAtLeast, size.maxRows ?? 0);
  if (lastNeededRow <= known) {
    size.rowsAtLeast = Math.max(size.rowsAtLeast, lastNeededRow);
    return null;
  }
  const count = lastNeededRow - known;
  sheet.insertRowsAfter(known, count);
  size.rowsAtLeast = lastNeededRow;
  if (size.maxRows !== null) size.maxRows += count;
  return [known + 1, count];
}

/** Makes columns up to `lastNeededColumn` exist: inserted right after the last column with content. */
export function ensureColumns(sheet: GoogleAppsScript.Spreadsheet.Sheet, lastNeededColumn: number): void {
  const size = gridSizeOf(sheet);
  if (lastNeededColumn <= size.columnsAtLeast) return;
  sheet.insertColumnsAfter(size.columnsAtLeast, lastNeededColumn - size.columnsAtLeast);
  size.columnsAtLeast = lastNeededColumn;
}
