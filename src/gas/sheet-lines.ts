// Reads a linked sheet's lines once, and writes back dirty spans in a constant number of range
// calls per flush: one per run of adjacent synced columns, plus one plain-text format call (a
// RangeList) for all text runs. Lines are re-identified by id right before a write.
import type { ColumnSpec } from '../core/columns';
import {
  contiguousRuns,
  headerText,
  ID_HEADER,
  joinRowBlocks,
  type Layout,
  syncedColumns,
} from '../core/layout';
import { cellText, sheetRowOf } from '../core/lines';
import { LineGrid, SPAN_GAP, sameCell, spansOf } from '../core/sheet-model';
import { pendingTokenOf } from '../core/status';
import { LOST, locateLines } from '../core/sync/locate-lines';
import { ensureColumns, ensureRows, noteContentSize } from './grid-size';
import { type Block, setPlainText, textColumns } from './plain-text';
import { waitsSoFar } from './url-fetch-port';

/**
 * Reads header row and data lines in one call. Without the sheet's size, its data range gives it
 * (one waiting call, where asking the last row and column takes two).
 */
export function readLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastRow?: number,
  lastColumn?: number,
): { headers: unknown[]; grid: LineGrid } {
  let values: unknown[][];
  if (lastRow === undefined || lastColumn === undefined) {
    values = sheet.getDataRange().getValues() as unknown[][];
    // An empty sheet's data range is its one blank cell A1.
    if (values.length === 1 && values[0]?.length === 1 && values[0][0] === '') values = [];
  } else {
    if (lastRow === 0 || lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
    values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as unknown[][];
  }
  return linesOf(sheet, values);
}

/** The header row and lines of a sheet's values read from A1 (its whole content). */
function linesOf(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  values: unknown[][],
): { headers: unknown[]; grid: LineGrid } {
  const lastRow = values.length;
  const lastColumn = values[0]?.length ?? 0;
  if (lastRow === 0 || lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
  noteContentSize(sheet, lastRow, lastColumn);
  const headers = values[0] ?? [];
  const grid = new LineGrid(values.slice(1), lastColumn);
  grid.checkedAtWait = waitsSoFar();
  return { headers, grid };
}

/** How a sync reads the sheet and its base. */
export interface SheetReadOptions {
  /** Sheets of at most this many lines are read whole, in one call; larger ones lazily, in spans. */
  eagerUpTo: number;
  /** Whether the base's seen marks are needed (only a pull continuing from an earlier execution). */
  withSeen: boolean;
}

/**
 * Reads the header row and the lines. A small sheet is read whole in one call; a large one gives its
 * header and only the id and status columns up front, whole lines in spans when needed
 * (LineGrid.ensureLoaded), so a run continuing a long pull does not re-read it all. Sheets without
 * an id column are read whole.
 */
export function readLinesForPull(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layoutOf: (headers: unknown[]) => Layout,
  options: SheetReadOptions,
  knownLastRow?: number,
): { headers: unknown[]; grid: LineGrid } {
  let lastRow: number;
  let lastColumn: number;
  if (knownLastRow === undefined) {
    // The data range says the size in one waiting call (its geometry is known without another).
    const range = sheet.getDataRange();
    lastRow = range.getNumRows();
    lastColumn = range.getNumColumns();
    if (lastRow === 1 && lastColumn === 1) return readLines(sheet);
    if (lastRow - 1 <= options.eagerUpTo) return linesOf(sheet, range.getValues() as unknown[][]);
  } else {
    lastRow = knownLastRow;
    // An empty sheet has no columns to ask about.
    if (lastRow === 0) return { headers: [], grid: new LineGrid([], 0) };
    lastColumn = sheet.getLastColumn();
    if (lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
    if (lastRow - 1 <= options.eagerUpTo) return readLines(sheet, lastRow, lastColumn);
  }
  noteContentSize(sheet, lastRow, lastColumn);
  const headers = (sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []) as unknown[];
  const layout = layoutOf(headers);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return readLines(sheet, lastRow, lastColumn);
  const count = lastRow - 1;
  const preloaded = [idColumn, ...(layout.status === undefined ? [] : [layout.status])];
  const lines: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(lastColumn).fill(''));
  for (const column of preloaded) {
    const values = sheet.getRange(2, column + 1, count, 1).getValues();
    for (let i = 0; i < count; i++) (lines[i] as unknown[])[column] = values[i]?.[0] ?? '';
  }
  const loader = (first: number, rows: number): unknown[][] =>
    sheet.getRange(sheetRowOf(first), 1, rows, lastColumn).getValues() as unknown[][];
  const grid = new LineGrid(lines, lastColumn, { loader, preloaded });
  grid.checkedAtWait = waitsSoFar();
  return { headers, grid };
}

/**
 * Finds the grid's lines where they stand now, right before a write: one read of the id column and
 * one of the status column (pending marks). People sort, insert and delete lines while a run waits
 * for the network; a line that moved is written where it now stands, one that cannot be found is not
 * written (the next run picks it up).
 */
export function relocateLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
  dirty?: readonly number[],
): void {
  // No wait since the grid last matched the sheet: nothing can have moved (no reads needed).
  const waits = waitsSoFar();
  const idColumn = layout.fixed.get(ID_HEADER);
  if (grid.checkedAtWait === waits || idColumn === undefined) {
    grid.relocate(null, false, grid.sheetRows);
    return;
  }
  const count = Math.max(0, sheet.getLastRow() - 1);
  if (columnsMovedSince(sheet, layout)) {
    // A person moved, inserted, deleted or renamed columns while the run waited: the run's column
    // positions would write lMods, ids or values into other columns (e.g. lMods into "notes", which
    // the next push sends). No line of this run can be written safely: all are left for the next
    // run, which reads the new layout (as for any line that cannot be found).
    grid.checkedAtWait = waits;
    grid.relocate(new Array<number>(grid.length).fill(LOST), true, count);
    return;
  }
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (const line of dirty ?? []) {
    const row = grid.physicalRow(line);
    if (row < 0) continue;
    if (row < low) low = row;
    if (row > high) high = row;
  }
  // Only lines new to the sheet: they go after its last line, wherever that is now.
  if (dirty && high < 0) {
    grid.relocate(null, false, count);
    return;
  }
  const expected = grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText);
  if (dirty && count === grid.sheetRows) {
    // The rows the write spans hold the lines the run expects there: nothing it writes has moved.
    const window = readIdsAndMarks(sheet, idColumn, layout.status, low, high - low + 1);
    let same = true;
    for (let line = 0; line < expected.length && same; line++) {
      const each = expected[line] as { row: number; id: string; marker: string | null };
      if (each.row < low || each.row > high) continue;
      same =
        cellText(window.ids[each.row - low]) === each.id &&
        (window.markers[each.row - low] ?? null) === each.marker;
    }
    if (same) {
      grid.relocate(null, false, count);
      return;
    }
  }
  grid.checkedAtWait = waits;
  const current =
    count > 0 ? readIdsAndMarks(sheet, idColumn, layout.status, 0, count) : { ids: [], markers: [] };
  const located = locateLines(expected, grid.sheetRows, current);
  grid.relocate(located.rows, located.moved, count);
}

/**
 * Whether a column the run writes (fixed fields, `_sync`, synced table columns) no longer carries the
 * header the run read at its position: one read of row 1, as wide as the run's columns.
 */
function columnsMovedSince(sheet: GoogleAppsScript.Spreadsheet.Sheet, layout: Layout): boolean {
  const positions = [...layout.fixed.values(), ...layout.columns.values()];
  if (layout.status !== undefined) positions.push(layout.status);
  if (positions.length === 0) return false;
  const width = Math.max(...positions) + 1;
  let now: unknown[];
  try {
    now = (sheet.getRange(1, 1, 1, width).getValues()[0] ?? []) as unknown[];
  } catch {
    // The grid is narrower than the run's columns (columns deleted, or not yet added): read what is there.
    const lastColumn = sheet.getLastColumn();
    now = lastColumn > 0 ? ((sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []) as unknown[]) : [];
  }
  // An empty header cell does not count: a header the run adds and has not written yet, or one a person
  // cleared (nothing shifted there). A shift of columns always moves some header onto another's place.
  return positions.some((index) => {
    const header = headerText(now[index]);
    return header !== '' && header !== layout.headers[index];
  });
}

/** The id cells and pending marks of `count` data rows from `first` (0-based): one read, or two. */
function readIdsAndMarks(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  idColumn: number,
  status: number | undefined,
  first: number,
  count: number,
): { ids: unknown[]; markers: Array<string | null> } {
  const ids: unknown[] = new Array(count);
  const markers: Array<string | null> = new Array(count).fill(null);
  if (status !== undefined && (Math.abs(status - idColumn) - 1) * count <= CELLS_PER_EXTRA_READ) {
    // Both columns in one read when the cells between them cost less than a second call.
    const from = Math.min(idColumn, status);
    const values = sheet
      .getRange(sheetRowOf(first), from + 1, count, Math.abs(status - idColumn) + 1)
      .getValues();
    for (let i = 0; i < count; i++) {
      ids[i] = values[i]?.[idColumn - from] ?? '';
      markers[i] = pendingTokenOf(values[i]?.[status - from]);
    }
    return { ids, markers };
  }
  const idValues = sheet.getRange(sheetRowOf(first), idColumn + 1, count, 1).getValues();
  for (let i = 0; i < count; i++) ids[i] = idValues[i]?.[0] ?? '';
  if (status !== undefined) {
    const statuses = sheet.getRange(sheetRowOf(first), status + 1, count, 1).getValues();
    for (let i = 0; i < count; i++) markers[i] = pendingTokenOf(statuses[i]?.[0]);
  }
  return { ids, markers };
}

/**
 * Cells skipped by one wide read that make a read per column run worth its extra call: a waiting call
 * costs about as much as 15,000 cells read (150 ms against 0.01 ms a cell, docs/performance.md).
 */
const CELLS_PER_EXTRA_READ = 15_000;

/**
 * The cells of columns firstColumn..lastColumn (0-based) of `count` rows: one read, or one per run of
 * written columns when the columns between them hold many cells.
 */
function readBlock(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  firstRow: number,
  count: number,
  firstColumn: number,
  lastColumn: number,
  runs: ReadonlyArray<[number, number]>,
): unknown[][] {
  const width = lastColumn - firstColumn + 1;
  let runCells = 0;
  for (const [, runWidth] of runs) runCells += runWidth;
  if ((width - runCells) * count <= CELLS_PER_EXTRA_READ * (runs.length - 1)) {
    return sheet.getRange(firstRow, firstColumn + 1, count, width).getValues() as unknown[][];
  }
  const block: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(width).fill(''));
  for (const [start, runWidth] of runs) {
    const values = sheet.getRange(firstRow, start + 1, count, runWidth).getValues();
    for (let i = 0; i < count; i++) {
      const row = block[i] as unknown[];
      const read = values[i] ?? [];
      for (let c = 0; c < runWidth; c++) row[start - firstColumn + c] = read[c] ?? '';
    }
  }
  return block;
}

/**
 * Writes the dirty lines of the grid back where they stand now (relocateLines): per span of nearby
 * rows, the written columns are read first and a cell is written only where the sheet still holds
 * what the run read (a cell a person changed meanwhile is their edit and stays); then one setValues
 * per run of adjacent synced columns (the person's own columns are never written), after setting
 * plain text on the text columns so strings stay literal. `columns` limits the write to some synced
 * columns (a push only changes fixed fields and the status).
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
  relocateLines(sheet, grid, layout, dirty);
  const existingRows = grid.sheetRowsBefore;
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
  const runs = contiguousRuns(written);
  if (written.length === 0) {
    grid.flushed();
    return 0;
  }
  ensureColumns(sheet, (written[written.length - 1] ?? 0) + 1);
  const firstColumn = written[0] as number;
  const lastColumn = written[written.length - 1] as number;
  // Cells of table columns a person changed meanwhile are kept; fixed fields and the status are the
  // add-on's own (read-only), so a push, which writes only those, reads nothing back.
  // Once lines moved, rows between the run's lines are no longer its copies: every written column
  // is read back, so those rows are written as they stand.
  const tableColumns = grid.hasMoved ? new Set(written) : new Set(layout.columns.values());
  const guarded =
    columns === 'synced' || grid.hasMoved ? written.filter((column) => tableColumns.has(column)) : [];
  const protect = guarded.length > 0;
  const guardedRuns = contiguousRuns(guarded);
  const guardFirst = guarded[0] ?? 0;
  const guardLast = guarded[guarded.length - 1] ?? 0;
  // The dirty lines by the row they stand on now; lost lines (-1) are left for the next run.
  const lineAt = new Map<number, number>();
  for (const line of dirty) {
    const row = grid.physicalRow(line);
    if (row >= 0) lineAt.set(row, line);
  }
  const rows = [...lineAt.keys()].sort((a, b) => a - b);
  for (const [first, last] of spansOf(rows, SPAN_GAP)) {
    const firstRow = sheetRowOf(first);
    const count = last - first + 1;
    const inserted = ensureRows(sheet, firstRow + count - 1);
    // What the sheet holds now in the written columns of rows it had (rows past its end are empty).
    // A push writes only read-only fields and the status: no edit of a person's to keep there.
    const readCount = protect ? Math.max(0, Math.min(last, existingRows - 1) - first + 1) : 0;
    const current =
      readCount > 0 ? readBlock(sheet, firstRow, readCount, guardFirst, guardLast, guardedRuns) : [];
    const block: unknown[][] = new Array(count);
    for (let i = 0; i < count; i++) {
      const cells = new Array<unknown>(lastColumn - firstColumn + 1).fill('');
      const line = lineAt.get(first + i);
      const ours = line === undefined ? undefined : (grid.lines[line] as unknown[]);
      const original = line === undefined ? undefined : grid.originalCells(line);
      const now = current[i];
      for (const column of written) {
        const c = column - firstColumn;
        const guardedHere = now !== undefined && tableColumns.has(column);
        const sheetValue = guardedHere ? (now[column - guardFirst] ?? '') : undefined;
        if (!ours) {
          // A row between the run's lines: written back as it stands (never its stale copy).
          cells[c] = guardedHere ? sheetValue : (grid.lines[first + i]?.[column] ?? '');
          continue;
        }
        const value = ours[column] ?? '';
        // The run's value goes in unless the person changed that cell since the run read it.
        if (!guardedHere || !original) cells[c] = value;
        else if (sameCell(original[column] ?? '', sheetValue)) cells[c] = value;
        else cells[c] = sheetValue;
      }
      block[i] = cells;
    }
    // Plain text before values, so strings like 00123, TRUE or =IMPORTXML(...) stay literal text.
    // Rows this run appends, and blank rows it adds, get it in every text column, so what a person
    // types there later stays literal too; rows the sheet had get it where text is written.
    const appendedFrom = Math.max(first, existingRows);
    const newRows: Array<[number, number]> = [];
    if (inserted) newRows.push(inserted);
    if (last >= appendedFrom) newRows.push([sheetRowOf(appendedFrom), last - appendedFrom + 1]);
    const blocks: Block[] = [];
    for (const [row, rowCount] of joinRowBlocks(newRows))
      for (const [start, width] of allTextRuns) blocks.push([row, start + 1, rowCount, width]);
    const kept = Math.min(last, appendedFrom - 1) - first + 1;
    if (kept > 0) for (const [start, width] of textRuns) blocks.push([firstRow, start + 1, kept, width]);
    setPlainText(sheet, blocks);
    for (const [start, width] of runs) {
      const values: unknown[][] = new Array(count);
      const from = start - firstColumn;
      for (let i = 0; i < count; i++) values[i] = (block[i] as unknown[]).slice(from, from + width);
      sheet.getRange(firstRow, start + 1, count, width).setValues(values);
    }
  }
  grid.flushed();
  return dirty.length;
}
