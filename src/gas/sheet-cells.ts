// A sheet's raw cells (core/sync/sheet-cells.ts) over SpreadsheetApp: each operation is the Range
// calls it names, no more (the core decides which to make, and the benchmarks count them); the
// execution's knowledge of the sheet's extent is grid-size.ts's, its waits the fetch port's.
import { a1Notation, columnLetters } from '../core/layout';
import type { CellRange, SheetCells } from '../core/sync/sheet-cells';
import { ensureColumns, ensureRows, noteContentExtent, noteContentSize, noteGridRows } from './grid-size';
import { waitsSoFar } from './url-fetch-port';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

/** The raw cells of a sheet. */
export function sheetCellsOf(sheet: Sheet): SheetCells {
  return {
    values: (row, column, rows, columns) => sheet.getRange(row, column, rows, columns).getValues(),
    sheetValues: (row, column, rows, columns) => sheet.getSheetValues(row, column, rows, columns),
    columnValues: (firstColumn, width) => sheet.getRange(wholeColumns(firstColumn, width)).getValues(),
    dataRange: () => {
      const range = sheet.getDataRange();
      return {
        rows: () => range.getNumRows(),
        columns: () => range.getNumColumns(),
        values: () => range.getValues(),
      };
    },
    lastRow: () => sheet.getLastRow(),
    lastColumn: () => sheet.getLastColumn(),
    maxRows: () => sheet.getMaxRows(),
    frozenRows: () => sheet.getFrozenRows(),
    write: (row, column, values, asText) => {
      const range = sheet.getRange(row, column, values.length, values[0]?.length ?? 0);
      if (asText) range.setNumberFormat('@');
      range.setValues(values);
    },
    setPlainText: (ranges) => setPlainText(sheet, ranges),
    styleHeader: (look, column, values) => {
      const range = sheet.getRange(1, column, 1, values.length);
      const run = values as string[];
      if (look === 'notes') range.setNotes([run]);
      else if (look === 'backgrounds') range.setBackgrounds([run]);
      else range.setFontWeights([run as GoogleAppsScript.Spreadsheet.FontWeight[]]);
    },
    protectWarningOnly: (columns, description) => {
      const protection = sheet.getRange(columns).protect();
      protection.setWarningOnly(true);
      protection.setDescription(description);
    },
    freezeRows: (rows) => sheet.setFrozenRows(rows),
    insertRowsAfter: (row, count) => {
      sheet.insertRowsAfter(row, count);
    },
    deleteRows: (row, count) => sheet.deleteRows(row, count),
    waitsSoFar,
    noteContentExtent: (lastRow, lastColumn) => noteContentExtent(sheet, lastRow, lastColumn),
    noteContentSize: (lastRow, lastColumn) => noteContentSize(sheet, lastRow, lastColumn),
    noteGridRows: (rows) => noteGridRows(sheet, rows),
    ensureRows: (lastRow) => ensureRows(sheet, lastRow),
    ensureColumns: (lastColumn) => ensureColumns(sheet, lastColumn),
  };
}

/** Open-ended A1 of whole columns (`A:C`) from the 1-based `firstColumn`. */
function wholeColumns(firstColumn: number, width: number): string {
  return `${columnLetters(firstColumn)}:${columnLetters(firstColumn + width - 1)}`;
}

/** Formats ranges as plain text in one call (a RangeList when there are several); none: nothing. */
function setPlainText(sheet: Sheet, ranges: readonly CellRange[]): void {
  const only = ranges.length === 1 ? ranges[0] : undefined;
  if (only) rangeOf(sheet, only).setNumberFormat('@');
  else if (ranges.length > 1)
    sheet
      .getRangeList(ranges.map((range) => (typeof range === 'string' ? range : a1Notation(...range))))
      .setNumberFormat('@');
}

function rangeOf(sheet: Sheet, range: CellRange): Range {
  return typeof range === 'string' ? sheet.getRange(range) : sheet.getRange(...range);
}
