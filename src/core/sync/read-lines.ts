// Reading a linked sheet's header row and lines in as few waiting calls as its size allows: small
// sheets whole in one call, large ones with their id and status columns up front and whole lines
// loaded in spans when needed (a lazy LineGrid), a live push's edited lines with the header.
import { adjacentColumnGroups, ID_HEADER, type Layout } from '../layout';
import { LineGrid } from '../line-grid';
import { sheetRowOf } from '../lines';
import type { SheetLines, SheetReadOptions } from './ports';
import { CELLS_PER_EXTRA_READ, type SheetCells } from './sheet-cells';

/**
 * Reads header row and data lines in one call. Without the sheet's size, the sheet's content from A1
 * (getSheetValues to its last row and column: one waiting call, where the data range and its values
 * wait twice); an empty sheet, which that read cannot give, through its data range.
 */
export function readLines(cells: SheetCells, lastRow?: number, lastColumn?: number): SheetLines {
  if (lastRow === undefined || lastColumn === undefined) {
    const content = contentValues(cells);
    return linesOf(cells, content ?? dataRangeValues(cells.dataRange()));
  }
  if (lastRow === 0 || lastColumn === 0) {
    cells.noteContentExtent(lastRow, lastColumn);
    return noLines(cells);
  }
  return linesOf(cells, cells.values(1, 1, lastRow, lastColumn));
}

/** An empty sheet's lines: none, as of now (a write with no wait since needs no re-identification). */
function noLines(cells: SheetCells): SheetLines {
  const grid = new LineGrid([], 0);
  grid.checkedAtWait = cells.waitsSoFar();
  grid.valuesReadAtWait = grid.checkedAtWait;
  return { headers: [], grid };
}

/** A data range's values; an empty sheet's data range is its one blank cell A1, read as no values. */
function dataRangeValues(range: { values(): unknown[][] }): unknown[][] {
  const values = range.values();
  return values.length === 1 && values[0]?.length === 1 && values[0][0] === '' ? [] : values;
}

/**
 * A sheet's whole content from A1 in one waiting call (getSheetValues to the last row and column with
 * content), or null when it could not be read so (an empty sheet): the caller asks the size instead.
 */
export function contentValues(cells: SheetCells): unknown[][] | null {
  try {
    return cells.sheetValues(1, 1, -1, -1);
  } catch {
    return null;
  }
}

/** The header row and lines of a sheet's values read from A1 (its whole content). */
function linesOf(cells: SheetCells, values: unknown[][]): SheetLines {
  const lastRow = values.length;
  const lastColumn = values[0]?.length ?? 0;
  cells.noteContentExtent(lastRow, lastColumn);
  if (lastRow === 0 || lastColumn === 0) return noLines(cells);
  const headers = values[0] ?? [];
  const grid = new LineGrid(values.slice(1), lastColumn);
  grid.checkedAtWait = cells.waitsSoFar();
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
  cells: SheetCells,
  layoutOf: (headers: unknown[]) => Layout,
  options: SheetReadOptions,
  knownLastRow?: number,
): SheetLines {
  const expectedSmall = options.expectedLines !== undefined && options.expectedLines <= options.eagerUpTo;
  const content = knownLastRow === undefined && expectedSmall ? contentValues(cells) : null;
  if (content) return linesOf(cells, content);
  if (knownLastRow === undefined && !expectedSmall && options.lines) {
    const near = readWithLines(cells, layoutOf, options.lines, options.expectedWidth ?? 0);
    if (near) return near;
  }
  const size = knownLastRow === undefined ? sizeOfDataRange(cells, options) : sizeOf(cells, knownLastRow);
  if ('lines' in size) return size.lines;
  if (size.lastRow - 1 <= options.eagerUpTo) return readLines(cells, size.lastRow, size.lastColumn);
  return readLazily(cells, layoutOf, size.lastRow, size.lastColumn);
}

type SizeOrLines = { lastRow: number; lastColumn: number } | { lines: SheetLines };

/** The size as the data range says it in one waiting call (its geometry is known without another). */
function sizeOfDataRange(cells: SheetCells, options: SheetReadOptions): SizeOrLines {
  const range = cells.dataRange();
  const lastRow = range.rows();
  const lastColumn = range.columns();
  if (lastRow === 1 && lastColumn === 1) return { lines: linesOf(cells, dataRangeValues(range)) };
  if (lastRow - 1 <= options.eagerUpTo) return { lines: linesOf(cells, range.values()) };
  return { lastRow, lastColumn };
}

/** The size with the last row known: the last column asked. */
function sizeOf(cells: SheetCells, lastRow: number): SizeOrLines {
  // An empty sheet has no columns to ask about.
  if (lastRow === 0) {
    cells.noteContentExtent(0, 0);
    return { lines: noLines(cells) };
  }
  const lastColumn = cells.lastColumn();
  if (lastColumn === 0) return { lines: noLines(cells) };
  return { lastRow, lastColumn };
}

/** A large sheet's header, and its id and status columns up front: whole lines loaded when needed. */
function readLazily(
  cells: SheetCells,
  layoutOf: (headers: unknown[]) => Layout,
  lastRow: number,
  lastColumn: number,
): SheetLines {
  cells.noteContentExtent(lastRow, lastColumn);
  const headers = cells.values(1, 1, 1, lastColumn)[0] ?? [];
  const layout = layoutOf(headers);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return readLines(cells, lastRow, lastColumn);
  const count = lastRow - 1;
  const preloaded = [idColumn, ...(layout.status === undefined ? [] : [layout.status])];
  const lines = blankLines(count, lastColumn);
  for (const column of preloaded) {
    const values = cells.values(2, column + 1, count, 1);
    for (let i = 0; i < count; i++) (lines[i] as unknown[])[column] = values[i]?.[0] ?? '';
  }
  const loader = (first: number, rows: number): unknown[][] =>
    cells.values(sheetRowOf(first), 1, rows, lastColumn);
  const grid = new LineGrid(lines, lastColumn, { loader, preloaded });
  grid.checkedAtWait = cells.waitsSoFar();
  return { headers, grid };
}

function blankLines(count: number, width: number): unknown[][] {
  return Array.from({ length: count }, () => new Array<unknown>(width).fill(''));
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
  cells: SheetCells,
  layoutOf: (headers: unknown[]) => Layout,
  lines: readonly number[],
  expectedWidth: number,
): SheetLines | null {
  const { blockRows, inBlock } = linesNearHeader(lines, expectedWidth);
  let block: unknown[][];
  try {
    block = cells.sheetValues(1, 1, blockRows, -1);
  } catch {
    return null;
  }
  const headers = block[0] ?? [];
  const lastColumn = headers.length;
  if (lastColumn === 0) return null;
  const layout = layoutOf(headers);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return null;
  const ids = idsToEnd(cells, idColumn);
  const count = ids.length;
  cells.noteContentExtent(count + 1, lastColumn);
  const gridLines = blankLines(count, lastColumn);
  for (let i = 0; i < count; i++) (gridLines[i] as unknown[])[idColumn] = ids[i]?.[0] ?? '';
  const preloaded = [idColumn];
  if (layout.status !== undefined && layout.status !== idColumn) {
    preloaded.push(layout.status);
    const statuses = count > 0 ? cells.values(2, layout.status + 1, count, 1) : [];
    for (let i = 0; i < count; i++) (gridLines[i] as unknown[])[layout.status] = statuses[i]?.[0] ?? '';
  }
  // The block serves the lines it holds only now: once the run waits, lines are read where they stand.
  let fromBlock: unknown[][] | null = block;
  const loader = (first: number, rows: number): unknown[][] => {
    if (fromBlock && sheetRowOf(first + rows - 1) <= fromBlock.length)
      return fromBlock.slice(sheetRowOf(first) - 1, sheetRowOf(first + rows - 1));
    return cells.values(sheetRowOf(first), 1, rows, lastColumn);
  };
  const grid = new LineGrid(gridLines, lastColumn, { loader, preloaded });
  grid.ensureLoaded(inBlock.filter((line) => line < count));
  fromBlock = null;
  grid.checkedAtWait = cells.waitsSoFar();
  return { headers, grid };
}

/** The lines read with the header: while the rows between cost fewer cells than a read of their own. */
function linesNearHeader(
  lines: readonly number[],
  expectedWidth: number,
): { blockRows: number; inBlock: number[] } {
  const wanted = [...new Set(lines)].filter((line) => line >= 0).sort((a, b) => a - b);
  let blockRows = 1;
  const inBlock: number[] = [];
  for (const line of wanted) {
    const rows = sheetRowOf(line);
    if ((rows - 1 - (inBlock.length + 1)) * Math.max(1, expectedWidth) > CELLS_PER_EXTRA_READ) break;
    blockRows = rows;
    inBlock.push(line);
  }
  return { blockRows, inBlock };
}

/** The id column's cells from row 2 down to the last row with content. */
function idsToEnd(cells: SheetCells, idColumn: number): unknown[][] {
  try {
    return cells.sheetValues(2, idColumn + 1, -1, 1);
  } catch {
    // No line under the header (UNCONFIRMED what -1 gives then): the size says it.
    const lastRow = cells.lastRow();
    return lastRow > 1 ? cells.values(2, idColumn + 1, lastRow - 1, 1) : [];
  }
}

/**
 * Whole columns (0-based) from row 2 to the last row with content, one array per column: one
 * getSheetValues per run of adjacent columns (the sheet's size is not asked apart). A sheet with no
 * line under its header gives none.
 */
export function readColumns(cells: SheetCells, columns: readonly number[]): unknown[][] {
  const wanted = [...new Set(columns)].sort((a, b) => a - b);
  const read = new Map<number, unknown[]>();
  for (const [first, width] of adjacentColumnGroups(wanted)) {
    let block: unknown[][] = [];
    try {
      block = cells.sheetValues(2, first + 1, -1, width);
    } catch {
      // No line under the header (UNCONFIRMED what a count of -1 gives then): no cells.
    }
    for (let k = 0; k < width; k++)
      read.set(
        first + k,
        block.map((row) => row[k] ?? ''),
      );
  }
  return columns.map((column) => read.get(column) ?? []);
}
