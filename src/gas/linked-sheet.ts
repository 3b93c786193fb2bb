// Reads a linked sheet and its base once, and writes back dirty spans in a constant number of range
// calls per flush: one per run of adjacent synced columns, plus one plain-text format per text run.
import { baseHeaderRow, parseBaseColumnIds } from '../core/base';
import type { ColumnSpec } from '../core/columns';
import { SyncError } from '../core/errors';
import { contiguousRuns, type Layout, STATUS_HEADER, syncedColumns } from '../core/layout';
import { BaseTable, LineGrid, SPAN_GAP, spansOf } from '../core/sheet-model';
import type { LinkRecord } from './stores';

export interface SheetCounters {
  sheetCalls: number;
  cellsWritten: number;
}

export function findSheetById(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, sheetId: number) {
  return spreadsheet.getSheets().find((sheet) => sheet.getSheetId() === sheetId) ?? null;
}

export function requireLinkedSheet(link: LinkRecord): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = findSheetById(SpreadsheetApp.getActiveSpreadsheet(), link.sheetId);
  if (!sheet) {
    throw new SyncError(
      'SHEET',
      `The sheet linked to table ${link.tableName} was deleted. Link another sheet from the sidebar.`,
    );
  }
  return sheet;
}

/** Reads header row and data lines in one call. */
export function readLines(sheet: GoogleAppsScript.Spreadsheet.Sheet): { headers: unknown[]; grid: LineGrid } {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  if (lastRow === 0 || lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
  const values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as unknown[][];
  const headers = values[0] ?? [];
  return { headers, grid: new LineGrid(values.slice(1), lastColumn) };
}

/** Inserts a sheet without leaving it active (insertSheet activates the new sheet). */
export function insertSheetQuietly(name: string): GoogleAppsScript.Spreadsheet.Sheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const active = spreadsheet.getActiveSheet();
  const sheet = spreadsheet.insertSheet(name, spreadsheet.getSheets().length);
  if (active) spreadsheet.setActiveSheet(active);
  return sheet;
}

/**
 * Reads the header row, and of the lines only the id and status columns; whole lines are read in
 * spans when needed (LineGrid.ensureLoaded). Sheets without an id column are read whole.
 */
export function readLinesLazily(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layoutOf: (headers: unknown[]) => Layout,
): { headers: unknown[]; grid: LineGrid } {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  if (lastRow === 0 || lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
  const headers = (sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []) as unknown[];
  const layout = layoutOf(headers);
  const idColumn = layout.fixed.get('id');
  if (lastRow < 2) return { headers, grid: new LineGrid([], lastColumn) };
  if (idColumn === undefined) return readLines(sheet);
  const count = lastRow - 1;
  const preloaded = [idColumn, ...(layout.status === undefined ? [] : [layout.status])];
  const lines: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(lastColumn).fill(''));
  for (const column of preloaded) {
    const values = sheet.getRange(2, column + 1, count, 1).getValues();
    for (let i = 0; i < count; i++) (lines[i] as unknown[])[column] = values[i]?.[0] ?? '';
  }
  const loader = (first: number, rows: number): unknown[][] =>
    sheet.getRange(first + 2, 1, rows, lastColumn).getValues() as unknown[][];
  return { headers, grid: new LineGrid(lines, lastColumn, { loader, preloaded }) };
}

/** Reads the base's header, ids and seen marks; whole records are read in spans when needed. */
export function readBaseLazily(link: LinkRecord): BaseTable {
  const sheet = baseSheetOf(link, false);
  const lastRow = sheet ? sheet.getLastRow() : 0;
  if (!sheet || lastRow === 0) return new BaseTable([], []);
  const header = sheet.getRange(1, 1, 1, 6).getValues()[0] ?? [];
  const columnIds = parseBaseColumnIds(header[2]);
  if (lastRow < 2) return new BaseTable([], columnIds);
  const count = lastRow - 1;
  const ids = sheet.getRange(2, 1, count, 1).getValues();
  const seen = sheet.getRange(2, 6, count, 1).getValues();
  const rows = ids.map((row, i) => [row[0], seen[i]?.[0] ?? '']);
  const loader = (first: number, n: number): unknown[][] =>
    sheet.getRange(first + 2, 1, n, 6).getValues() as unknown[][];
  return new BaseTable(rows, columnIds, { loader });
}

export function baseSheetOf(link: LinkRecord, create: boolean): GoogleAppsScript.Spreadsheet.Sheet | null {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let sheet = spreadsheet.getSheetByName(link.baseSheetName);
  if (!sheet && create) {
    sheet = insertSheetQuietly(link.baseSheetName);
    sheet.getRange(1, 1, sheet.getMaxRows(), 6).setNumberFormat('@');
    sheet.hideSheet();
  }
  return sheet;
}

export function readBase(link: LinkRecord): BaseTable {
  const sheet = baseSheetOf(link, false);
  if (!sheet || sheet.getLastRow() === 0) return new BaseTable([], []);
  const values = sheet.getRange(1, 1, sheet.getLastRow(), 6).getValues() as unknown[][];
  const columnIds = parseBaseColumnIds(values[0]?.[2]);
  return new BaseTable(values.slice(1), columnIds);
}

/** Blank rows kept below the data when the sheet grows, so a person can type new lines there. */
const SPARE_ROWS = 100;

/** Grows the sheet when needed; returns the first inserted row and how many, or null. */
function ensureRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastNeededRow: number,
): [number, number] | null {
  const maxRows = sheet.getMaxRows();
  if (lastNeededRow <= maxRows) return null;
  const count = lastNeededRow - maxRows + SPARE_ROWS;
  sheet.insertRowsAfter(maxRows, count);
  return [maxRows + 1, count];
}

function ensureColumns(sheet: GoogleAppsScript.Spreadsheet.Sheet, lastNeededColumn: number): void {
  const maxColumns = sheet.getMaxColumns();
  if (lastNeededColumn > maxColumns) sheet.insertColumnsAfter(maxColumns, lastNeededColumn - maxColumns);
}

/** Writes this execution's seen marks (only needed when a pull continues in another execution). */
export function flushSeen(link: LinkRecord, base: BaseTable): void {
  const spans = base.takeSeenSpans();
  if (spans.length === 0) return;
  const sheet = baseSheetOf(link, true) as GoogleAppsScript.Spreadsheet.Sheet;
  for (const span of spans) sheet.getRange(span.start + 2, 6, span.values.length, 1).setValues(span.values);
}

export function flushBase(link: LinkRecord, base: BaseTable): void {
  const spans = base.takeDirtySpans();
  if (spans.length === 0 && !base.headerChanged) return;
  const sheet = baseSheetOf(link, true) as GoogleAppsScript.Spreadsheet.Sheet;
  if (base.headerChanged || sheet.getLastRow() === 0) {
    sheet.getRange(1, 1, 1, 6).setValues([baseHeaderRow(base.columnIds)]);
    base.headerChanged = false;
  }
  for (const span of spans) {
    const firstRow = span.start + 2;
    ensureRows(sheet, firstRow + span.rows.length - 1);
    const range = sheet.getRange(firstRow, 1, span.rows.length, 6);
    range.setNumberFormat('@');
    range.setValues(span.rows);
  }
}

/** Sheet columns whose cells hold text: text and JSON table columns, fixed fields and the status. */
export function textColumns(layout: Layout, live: readonly ColumnSpec[]): number[] {
  const indexes: number[] = [...layout.fixed.values()];
  if (layout.status !== undefined) indexes.push(layout.status);
  for (const column of live) {
    const index = layout.columns.get(column.id);
    if (index !== undefined && (column.kind === 'text' || column.kind === 'json')) indexes.push(index);
  }
  return indexes.sort((a, b) => a - b);
}

/**
 * Writes the dirty lines of the grid back: per span of nearby dirty lines, one setValues per run of
 * adjacent synced columns (the person's own columns are never written), after setting plain text on
 * the text columns so strings stay literal. `columns` limits the write to some synced columns
 * (a push only changes fixed fields and the status).
 */
export function flushLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
  columns: 'synced' | 'fixedAndStatus' = 'synced',
): number {
  const dirty = grid.takeDirty();
  const changedColumns = new Set(grid.takeDirtyColumns());
  if (dirty.length === 0) return 0;
  // Only columns that changed are written: a re-pull that updates one column rewrites that column.
  const eligible =
    columns === 'synced'
      ? syncedColumns(layout)
      : [...layout.fixed.values(), ...(layout.status === undefined ? [] : [layout.status])].sort(
          (a, b) => a - b,
        );
  const written = eligible.filter((column) => changedColumns.has(column));
  const writtenSet = new Set(written);
  const allText = textColumns(layout, live).filter((column) => eligible.includes(column));
  const allTextRuns = contiguousRuns(allText);
  const text = allText.filter((column) => writtenSet.has(column));
  const textRuns = contiguousRuns(text);
  const plainText = (firstRow: number, count: number): void => {
    for (const [start, width] of allTextRuns)
      sheet.getRange(firstRow, start + 1, count, width).setNumberFormat('@');
  };
  const runs = contiguousRuns(written);
  ensureColumns(sheet, (written[written.length - 1] ?? 0) + 1);
  for (const [first, last] of spansOf(dirty, SPAN_GAP, (line) => grid.isLoaded(line))) {
    const firstRow = first + 2;
    const count = last - first + 1;
    const inserted = ensureRows(sheet, firstRow + count - 1);
    // Plain text before values, so strings like 00123, TRUE or =IMPORTXML(...) stay literal text;
    // lines this run appends, and blank rows it adds, get it in every text column, so what a person
    // types there later stays literal too.
    if (inserted) plainText(inserted[0], inserted[1]);
    const appendedFrom = Math.max(first, grid.initialLength);
    if (last >= appendedFrom) plainText(appendedFrom + 2, last - appendedFrom + 1);
    for (const [start, width] of textRuns)
      sheet.getRange(firstRow, start + 1, count, width).setNumberFormat('@');
    for (const [start, width] of runs) {
      const values: unknown[][] = new Array(count);
      for (let i = 0; i < count; i++)
        values[i] = (grid.lines[first + i] as unknown[]).slice(start, start + width);
      sheet.getRange(firstRow, start + 1, count, width).setValues(values);
    }
  }
  return dirty.length;
}

export { STATUS_HEADER };
