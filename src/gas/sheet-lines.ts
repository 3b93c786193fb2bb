// Reads a linked sheet's lines once, and writes back dirty lines: one read back per span of nearby
// rows, one setValues per run of adjacent synced columns per write span (lines far enough apart are
// written apart, not the rows between them), and one plain-text format call (a RangeList) for all.
// Lines are re-identified by id right before a write.

import type { ColumnSpec } from '../core/columns';
import { headerText, ID_HEADER, type Layout, syncedColumns } from '../core/layout';
import { LineGrid } from '../core/line-grid';
import { cellText, sheetRowOf } from '../core/lines';
import { SPAN_GAP, spansOf } from '../core/row-spans';
import { pendingTokenOf } from '../core/status';
import { LOST, locateLines, NOT_WRITTEN_YET } from '../core/sync/locate-lines';
import type { SheetReadOptions } from '../core/sync/ports';
import {
  CELLS_PER_QUEUED_CALL,
  plainTextOfSpans,
  planWriteBack,
  rowsToReadBack,
  type SpanRow,
  type WriteSpan,
  writeBackSpans,
} from '../core/sync/write-back';
import { execution } from './execution';
import { ensureColumns, ensureRows, noteContentExtent } from './grid-size';
import { setPlainText, textColumns } from './plain-text';
import { waitsSoFar } from './url-fetch-port';

/**
 * Reads header row and data lines in one call. Without the sheet's size, the sheet's content from A1
 * (getSheetValues to its last row and column: one waiting call, where the data range and its values
 * wait twice); an empty sheet, which that read cannot give, through its data range.
 */
export function readLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  lastRow?: number,
  lastColumn?: number,
): { headers: unknown[]; grid: LineGrid } {
  let values: unknown[][];
  if (lastRow === undefined || lastColumn === undefined) {
    const content = contentValues(sheet);
    if (content) return linesOf(sheet, content);
    values = dataRangeValues(sheet.getDataRange());
  } else {
    if (lastRow === 0 || lastColumn === 0) {
      noteContentExtent(sheet, lastRow, lastColumn);
      return noLines();
    }
    values = sheet.getRange(1, 1, lastRow, lastColumn).getValues() as unknown[][];
  }
  return linesOf(sheet, values);
}

/** An empty sheet's lines: none, as of now (a write with no wait since needs no re-identification). */
function noLines(): { headers: unknown[]; grid: LineGrid } {
  const grid = new LineGrid([], 0);
  grid.checkedAtWait = waitsSoFar();
  grid.valuesReadAtWait = grid.checkedAtWait;
  return { headers: [], grid };
}

/** A data range's values; an empty sheet's data range is its one blank cell A1, read as no values. */
function dataRangeValues(range: GoogleAppsScript.Spreadsheet.Range): unknown[][] {
  const values = range.getValues() as unknown[][];
  return values.length === 1 && values[0]?.length === 1 && values[0][0] === '' ? [] : values;
}

/**
 * A sheet's whole content from A1 in one waiting call (getSheetValues to the last row and column with
 * content), or null when it could not be read so (an empty sheet): the caller asks the size instead.
 */
function contentValues(sheet: GoogleAppsScript.Spreadsheet.Sheet): unknown[][] | null {
  try {
    return sheet.getSheetValues(1, 1, -1, -1) as unknown[][];
  } catch {
    return null;
  }
}

/** The header row and lines of a sheet's values read from A1 (its whole content). */
function linesOf(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  values: unknown[][],
): { headers: unknown[]; grid: LineGrid } {
  const lastRow = values.length;
  const lastColumn = values[0]?.length ?? 0;
  noteContentExtent(sheet, lastRow, lastColumn);
  if (lastRow === 0 || lastColumn === 0) return noLines();
  const headers = values[0] ?? [];
  const grid = new LineGrid(values.slice(1), lastColumn);
  grid.checkedAtWait = waitsSoFar();
  grid.valuesReadAtWait = grid.checkedAtWait;
  return { headers, grid };
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
  const expectedSmall = options.expectedLines !== undefined && options.expectedLines <= options.eagerUpTo;
  const content = knownLastRow === undefined && expectedSmall ? contentValues(sheet) : null;
  if (content) return linesOf(sheet, content);
  if (knownLastRow === undefined && !expectedSmall && options.lines) {
    const near = readWithLines(sheet, layoutOf, options.lines, options.expectedWidth ?? 0);
    if (near) return near;
  }
  if (knownLastRow === undefined) {
    // The data range says the size in one waiting call (its geometry is known without another).
    const range = sheet.getDataRange();
    lastRow = range.getNumRows();
    lastColumn = range.getNumColumns();
    if (lastRow === 1 && lastColumn === 1) return linesOf(sheet, dataRangeValues(range));
    if (lastRow - 1 <= options.eagerUpTo) return linesOf(sheet, range.getValues() as unknown[][]);
  } else {
    lastRow = knownLastRow;
    // An empty sheet has no columns to ask about.
    if (lastRow === 0) {
      noteContentExtent(sheet, 0, 0);
      return noLines();
    }
    lastColumn = sheet.getLastColumn();
    if (lastColumn === 0) return noLines();
    if (lastRow - 1 <= options.eagerUpTo) return readLines(sheet, lastRow, lastColumn);
  }
  noteContentExtent(sheet, lastRow, lastColumn);
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
  execution.lazyGrids.add(grid);
  return { headers, grid };
}

/**
 * A large sheet's header, id and status columns, and `lines` whole (a live push's edited lines): the
 * header and the lines near it in one read (rows 1 to the last such line, to the last column with
 * content), the ids to the last row with content (their count is the sheet's lines, where asking the
 * size waits once more), the status column. Three waiting calls where asking the size, the header, the
 * two columns and the lines apart takes five. Null when the sheet has no content or no id column: the
 * caller reads it as before.
 */
function readWithLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layoutOf: (headers: unknown[]) => Layout,
  lines: readonly number[],
  expectedWidth: number,
): { headers: unknown[]; grid: LineGrid } | null {
  const wanted = [...new Set(lines)].filter((line) => line >= 0).sort((a, b) => a - b);
  // The lines read with the header: while the rows between cost fewer cells than a read of their own.
  let blockRows = 1;
  const inBlock: number[] = [];
  for (const line of wanted) {
    const rows = sheetRowOf(line);
    if ((rows - 1 - (inBlock.length + 1)) * Math.max(1, expectedWidth) > CELLS_PER_EXTRA_READ) break;
    blockRows = rows;
    inBlock.push(line);
  }
  let block: unknown[][];
  try {
    block = sheet.getSheetValues(1, 1, blockRows, -1) as unknown[][];
  } catch {
    return null;
  }
  const headers = block[0] ?? [];
  const lastColumn = headers.length;
  if (lastColumn === 0) return null;
  const layout = layoutOf(headers);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return null;
  let ids: unknown[][];
  try {
    ids = sheet.getSheetValues(2, idColumn + 1, -1, 1) as unknown[][];
  } catch {
    // No line under the header (UNCONFIRMED what -1 gives then): the size says it.
    const lastRow = sheet.getLastRow();
    ids = lastRow > 1 ? (sheet.getRange(2, idColumn + 1, lastRow - 1, 1).getValues() as unknown[][]) : [];
  }
  const count = ids.length;
  noteContentExtent(sheet, count + 1, lastColumn);
  const gridLines: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(lastColumn).fill(''));
  for (let i = 0; i < count; i++) (gridLines[i] as unknown[])[idColumn] = ids[i]?.[0] ?? '';
  const preloaded = [idColumn];
  if (layout.status !== undefined && layout.status !== idColumn) {
    preloaded.push(layout.status);
    const statuses = count > 0 ? sheet.getRange(2, layout.status + 1, count, 1).getValues() : [];
    for (let i = 0; i < count; i++) (gridLines[i] as unknown[])[layout.status] = statuses[i]?.[0] ?? '';
  }
  // The block serves the lines it holds only now: once the run waits, lines are read where they stand.
  let fromBlock: unknown[][] | null = block;
  const loader = (first: number, rows: number): unknown[][] => {
    if (fromBlock && sheetRowOf(first + rows - 1) <= fromBlock.length)
      return fromBlock.slice(sheetRowOf(first) - 1, sheetRowOf(first + rows - 1));
    return sheet.getRange(sheetRowOf(first), 1, rows, lastColumn).getValues() as unknown[][];
  };
  const grid = new LineGrid(gridLines, lastColumn, { loader, preloaded });
  grid.ensureLoaded(inBlock.filter((line) => line < count));
  fromBlock = null;
  grid.checkedAtWait = waitsSoFar();
  execution.lazyGrids.add(grid);
  return { headers, grid };
}

/**
 * Re-identifies a lazily read grid's lines before it loads more of them: its loader reads whole rows
 * where the lines stood when last found, and a sort or insert made while the run waited since would
 * load another row's cells (its id included) into a line, to be merged with this row's page. Eager
 * grids hold every cell already and are re-identified when written (flushLines).
 */
export function relocateBeforeLoading(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
): void {
  if (execution.lazyGrids.has(grid)) relocateLines(sheet, grid, layout);
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
    grid.placeAppendedLines(grid.sheetRows);
    return;
  }
  // A small sheet is read whole once (fewer cells than a waiting call costs): its size, headers, ids
  // and marks from one call where asking them apart takes three.
  const content = (grid.sheetRows + 1) * grid.width <= CELLS_PER_EXTRA_READ ? contentValues(sheet) : null;
  // What a look at the written rows read already is not asked again: the header, and whether those
  // rows changed.
  let header: readonly unknown[] | undefined = content?.[0];
  let rowsChanged = false;
  if (!content && dirty) {
    const placement = stillInPlace(sheet, grid, layout, idColumn, dirty);
    if (placement.inPlace) {
      grid.placeAppendedLines(grid.sheetRows);
      return;
    }
    header = placement.header;
    rowsChanged = placement.rowsChanged;
  }
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (const line of dirty ?? []) {
    const row = grid.physicalRow(line);
    if (row < 0) continue;
    if (row < low) low = row;
    if (row > high) high = row;
  }
  // The written rows' ids and marks read down to the last row with content tell the size too, where
  // asking it apart waits once more; only while the rows past the written ones are few.
  const tail =
    !content && dirty && high >= 0 && !rowsChanged && (grid.sheetRows - 1 - high) * 2 <= CELLS_PER_EXTRA_READ
      ? idsAndMarksToEnd(sheet, idColumn, layout.status, low, grid.sheetRows - low)
      : null;
  const lastRow = content
    ? content.length
    : tail
      ? sheetRowOf(low) - 1 + tail.ids.length
      : sheet.getLastRow();
  // New lines go right after the last row with content as it stands now, and rows are inserted there.
  noteContentExtent(sheet, lastRow, content?.[0]?.length);
  const count = Math.max(0, lastRow - 1);
  if (columnsMovedSince(sheet, layout, header)) {
    // A person moved, inserted, deleted or renamed columns while the run waited: the run's column
    // positions would write lMods, ids or values into other columns (e.g. lMods into "notes", which
    // the next push sends). No line of this run can be written safely: all are left for the next
    // run, which reads the new layout (as for any line that cannot be found).
    grid.checkedAtWait = waits;
    grid.relocate({ rows: new Array<number>(grid.length).fill(LOST), moved: true }, count);
    return;
  }
  // Only lines new to the sheet: they go after its last line, wherever that is now.
  if (dirty && high < 0) {
    grid.placeAppendedLines(count);
    return;
  }
  const expected = grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText);
  if (dirty && count === grid.sheetRows && !rowsChanged) {
    // The rows the write spans hold the lines the run expects there: nothing it writes has moved.
    const window = tail ?? readIdsAndMarks(sheet, idColumn, layout.status, low, high - low + 1, content);
    let same = true;
    for (let line = 0; line < expected.length && same; line++) {
      const each = expected[line] as { row: number; id: string; marker: string | null };
      if (each.row < low || each.row > high) continue;
      same =
        cellText(window.ids[each.row - low]) === each.id &&
        (window.markers[each.row - low] ?? null) === each.marker;
    }
    if (same) {
      grid.placeAppendedLines(count);
      return;
    }
  }
  grid.checkedAtWait = waits;
  // The tail read from the first row is the whole columns already.
  const current =
    tail && low === 0
      ? tail
      : count > 0
        ? readIdsAndMarks(sheet, idColumn, layout.status, 0, count, content)
        : { ids: [], markers: [] };
  const located = locateLines(expected, grid.sheetRows, current);
  grid.relocate(located, count);
}

/**
 * Whether the dirty lines stand where the run read them, told without the sheet's size: when every row
 * the write spans holds a line whose id no other line holds, those rows still holding these ids and
 * marks, under the same headers, means no line moved into or out of them (a row inserted or deleted
 * above shifts another id in). One read of row 1 down to the span when the rows between are few
 * (where asking the size, the header and the span apart waits three times), else two. Not in place
 * when it cannot tell (lines without an id, or new to the sheet) or something moved: the caller reads
 * the ids of the whole sheet, and takes the header read here (`header`) and whether the span's rows
 * changed (`rowsChanged`) rather than reading them again.
 */
function stillInPlace(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
  idColumn: number,
  dirty: readonly number[],
): { inPlace: boolean; header?: unknown[]; rowsChanged: boolean } {
  const cannotTell = { inPlace: false, rowsChanged: false };
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (const line of dirty) {
    const row = grid.physicalRow(line);
    if (row < 0) return cannotTell;
    if (row < low) low = row;
    if (row > high) high = row;
  }
  if (high < 0 || layout.status === undefined) return cannotTell;
  const expected = grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText);
  const linesWithId = new Map<string, number>();
  const atRow: Array<{ id: string; marker: string | null } | undefined> = new Array(high - low + 1);
  for (const line of expected) {
    // A line new to the sheet goes after its last line: where that is takes the size.
    if (line.row === NOT_WRITTEN_YET) return cannotTell;
    if (line.id !== '') linesWithId.set(line.id, (linesWithId.get(line.id) ?? 0) + 1);
    if (line.row >= low && line.row <= high) atRow[line.row - low] = line;
  }
  for (const line of atRow) if (!line || line.id === '' || linesWithId.get(line.id) !== 1) return cannotTell;
  const positions = [...layout.fixed.values(), ...layout.columns.values(), layout.status];
  const width = Math.max(...positions) + 1;
  let header: unknown[];
  let window: { ids: unknown[]; markers: Array<string | null> };
  try {
    // Row 1 down to the span in one read, unless that costs more cells than a read apart saves.
    const apart = width + 2 * (high - low + 1);
    if (sheetRowOf(high) * width - apart <= CELLS_PER_EXTRA_READ) {
      const block = sheet.getRange(1, 1, sheetRowOf(high), width).getValues() as unknown[][];
      header = block[0] ?? [];
      window = readIdsAndMarks(sheet, idColumn, layout.status, low, high - low + 1, block);
    } else {
      header = headerRowOf(sheet, width);
      window = readIdsAndMarks(sheet, idColumn, layout.status, low, high - low + 1);
    }
  } catch {
    // Rows or columns the run read are gone from the grid: the whole sheet's ids say where lines are.
    return cannotTell;
  }
  if (columnsMovedSince(sheet, layout, header)) return { inPlace: false, header, rowsChanged: false };
  const same = atRow.every(
    (line, i) =>
      cellText(window.ids[i]) === line?.id && (window.markers[i] ?? null) === (line?.marker ?? null),
  );
  return { inPlace: same, header, rowsChanged: !same };
}

/**
 * Whether a column the run writes (fixed fields, `_sync`, synced table columns) no longer carries the
 * header the run read at its position: one read of row 1, as wide as the run's columns.
 */
function columnsMovedSince(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layout: Layout,
  headerRow?: readonly unknown[],
): boolean {
  const positions = [...layout.fixed.values(), ...layout.columns.values()];
  if (layout.status !== undefined) positions.push(layout.status);
  if (positions.length === 0) return false;
  const width = Math.max(...positions) + 1;
  const now = headerRow ?? headerRowOf(sheet, width);
  // An empty header cell does not count: a header the run adds and has not written yet, or one a person
  // cleared (nothing shifted there). A shift of columns always moves some header onto another's place.
  return positions.some((index) => {
    const header = headerText(now[index]);
    return header !== '' && header !== layout.headers[index];
  });
}

/** Row 1, `width` cells wide or as wide as the grid is. */
function headerRowOf(sheet: GoogleAppsScript.Spreadsheet.Sheet, width: number): unknown[] {
  try {
    return (sheet.getRange(1, 1, 1, width).getValues()[0] ?? []) as unknown[];
  } catch {
    // The grid is narrower than the run's columns (columns deleted, or not yet added): read what is there.
    const lastColumn = sheet.getLastColumn();
    return lastColumn > 0 ? ((sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []) as unknown[]) : [];
  }
}

/**
 * The id cells and pending marks of `count` data rows from `first` (0-based): from the sheet's content
 * when read already, else one read, or two.
 */
function readIdsAndMarks(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  idColumn: number,
  status: number | undefined,
  first: number,
  count: number,
  content?: readonly unknown[][] | null,
): { ids: unknown[]; markers: Array<string | null> } {
  const ids: unknown[] = new Array(count);
  const markers: Array<string | null> = new Array(count).fill(null);
  if (content) {
    for (let i = 0; i < count; i++) {
      const cells = content[first + i + 1];
      ids[i] = cells?.[idColumn] ?? '';
      if (status !== undefined) markers[i] = pendingTokenOf(cells?.[status]);
    }
    return { ids, markers };
  }
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
 * The id cells and pending marks from data row `first` (0-based) down to the last row with content:
 * getSheetValues to the last row, so their count says the sheet's size with no call of its own. The
 * marks ride in the ids' read when the columns between them, over the `expectedCount` rows, cost less
 * than a read apart. Null when the sheet now ends above `first` or is narrower than these columns
 * (rows or columns deleted meanwhile): the caller asks the size.
 */
function idsAndMarksToEnd(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  idColumn: number,
  status: number | undefined,
  first: number,
  expectedCount: number,
): { ids: unknown[]; markers: Array<string | null> } | null {
  const firstRow = sheetRowOf(first);
  try {
    if (status !== undefined && (Math.abs(status - idColumn) - 1) * expectedCount <= CELLS_PER_EXTRA_READ) {
      const from = Math.min(idColumn, status);
      const values = sheet.getSheetValues(firstRow, from + 1, -1, Math.abs(status - idColumn) + 1);
      // No rows (should the read give none rather than throw past the end) says no size.
      if (values.length === 0) return null;
      return {
        ids: values.map((cells) => cells[idColumn - from] ?? ''),
        markers: values.map((cells) => pendingTokenOf(cells[status - from])),
      };
    }
    const ids = sheet.getSheetValues(firstRow, idColumn + 1, -1, 1).map((cells) => cells[0] ?? '');
    if (ids.length === 0) return null;
    const markers: Array<string | null> = new Array(ids.length).fill(null);
    if (status !== undefined) {
      const statuses = sheet.getRange(firstRow, status + 1, ids.length, 1).getValues();
      for (let i = 0; i < ids.length; i++) markers[i] = pendingTokenOf(statuses[i]?.[0]);
    }
    return { ids, markers };
  } catch {
    return null;
  }
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
 * what the run read (a cell a person changed meanwhile is their edit and stays); then, per write span
 * (lines joined only while the rows between cost less to write than the calls apart), one setValues
 * per run of adjacent synced columns (the person's own columns are never written), after setting
 * plain text on the text columns so strings stay literal. `columns` limits the write to some synced
 * columns (a push only changes fixed fields and the status). The decisions are the core's
 * (core/sync/write-back.ts); this reads, calls it and writes.
 */
export function flushLines(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
  columns: 'synced' | 'fixedAndStatus' = 'synced',
): number {
  const dirty = grid.takeDirty();
  const changed = new Set(grid.takeDirtyColumns());
  if (dirty.length === 0) return 0;
  relocateLines(sheet, grid, layout, dirty);
  // No wait since every cell was read: the sheet still holds what the run read, nothing to read back.
  const readBack = grid.valuesReadAtWait !== waitsSoFar();
  const existingRows = grid.sheetRowsBefore;
  const plan = planWriteBack({
    eligible: columns === 'synced' ? syncedColumns(layout) : fixedAndStatusColumns(layout),
    changed,
    text: textColumns(layout, live),
    table: [...layout.columns.values()],
    withTable: columns === 'synced',
    moved: grid.hasMoved,
  });
  if (plan === null) {
    grid.flushed();
    return 0;
  }
  const firstColumn = plan.written[0] as number;
  ensureColumns(sheet, (plan.written[plan.written.length - 1] as number) + 1);
  const lineAt = linesByRow(grid, dirty);
  const lineRows = [...lineAt.keys()].sort((a, b) => a - b);
  const lastLineRow = lineRows[lineRows.length - 1];
  const inserted = lastLineRow === undefined ? null : ensureRows(sheet, sheetRowOf(lastLineRow));
  const { guarded, guardedGroups } = plan;
  // Every read span is read back before anything is formatted: plain text set first would change
  // how some cells read (a date-formatted number in a text column), and the guard compares them.
  const spans: WriteSpan[] = [];
  for (const [first, last] of spansOf(lineRows, SPAN_GAP)) {
    const readCount = readBack ? rowsToReadBack(plan, first, last, existingRows) : 0;
    const current =
      readCount > 0
        ? readBlock(
            sheet,
            sheetRowOf(first),
            readCount,
            guarded[0] as number,
            guarded[guarded.length - 1] as number,
            guardedGroups,
          )
        : [];
    const rows = spanRows(grid, lineAt, first, last - first + 1);
    const written = writeBackSpans(plan, first, rows, current, CELLS_PER_QUEUED_CALL, (i, column, value) => {
      const line = lineAt.get(first + i);
      if (line !== undefined) grid.noteKept(line, column, value);
    });
    // A loop, not push(...written): a flush may hold more spans than a call takes arguments.
    for (const span of written) spans.push(span);
  }
  // Plain text before values, so strings like 00123, TRUE or =IMPORTXML(...) stay literal text.
  setPlainText(sheet, plainTextOfSpans(plan, spans, existingRows, inserted));
  for (const { first, last, block } of spans) {
    for (const [start, width] of plan.groups) {
      const from = start - firstColumn;
      const values = block.map((cells) => cells.slice(from, from + width));
      sheet.getRange(sheetRowOf(first), start + 1, last - first + 1, width).setValues(values);
    }
  }
  grid.flushed();
  return dirty.length;
}

/** Fixed fields and the status: the columns a push writes (ascending). */
function fixedAndStatusColumns(layout: Layout): number[] {
  return [...layout.fixed.values(), ...(layout.status === undefined ? [] : [layout.status])].sort(
    (a, b) => a - b,
  );
}

/** The dirty lines by the physical row they stand on now; lost lines (-1) are left for the next run. */
function linesByRow(grid: LineGrid, dirty: readonly number[]): Map<number, number> {
  const lineAt = new Map<number, number>();
  for (const line of dirty) {
    const row = grid.physicalRow(line);
    if (row >= 0) lineAt.set(row, line);
  }
  return lineAt;
}

/**
 * The span's rows as the core's write-back reads them: the run's lines, and the rows between them.
 * A row between lines of a lazily read grid is loaded: a pull loads whole spans of the lines it
 * touches (LineGrid.ensureLoaded, the same SPAN_GAP as these read spans), so its fixed-field cells
 * written back are the ones read, never the blanks of an unloaded line.
 */
function spanRows(
  grid: LineGrid,
  lineAt: ReadonlyMap<number, number>,
  first: number,
  count: number,
): SpanRow[] {
  const rows: SpanRow[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const line = lineAt.get(first + i);
    rows[i] =
      line === undefined
        ? { kind: 'between', cells: grid.lines[first + i] }
        : { kind: 'line', cells: grid.lines[line] as unknown[], read: grid.originalCells(line) };
  }
  return rows;
}
