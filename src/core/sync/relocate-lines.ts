// Finding a run's lines where they stand now, right before it writes or loads them: people sort,
// insert and delete lines while a run waits for the network, so the sheet's id and status columns are
// read again (in as few waiting calls as the sheet's size allows) and each line found by its row id
// (locateLines). A line that moved is written where it now stands; one that cannot be found, or any
// line once columns moved under the run, is not written (the next run picks it up).
import { headerText, ID_HEADER, type Layout } from '../layout';
import type { LineGrid } from '../line-grid';
import { cellText, sheetRowOf } from '../lines';
import { pendingTokenOf } from '../status';
import { type CurrentColumns, type ExpectedLine, LOST, locateLines, NOT_WRITTEN_YET } from './locate-lines';
import { contentValues } from './read-lines';
import { CELLS_PER_EXTRA_READ, type SheetCells } from './sheet-cells';
import { type CellsRead, isUnmarked, loseMovedUnmarkedLines } from './unmarked-lines';

/** The id cells and pending marks of some data rows, as read. */
interface IdsAndMarks {
  ids: unknown[];
  markers: Array<string | null>;
  /** The block they were read in, when one read gave both columns and those between them. */
  block?: CellsRead;
  /** Row 1, when read with them (as wide as the block: columns before it blank). */
  header?: unknown[];
}

/**
 * Re-identifies a lazily read grid's lines before it loads more of them: its loader reads whole rows
 * where the lines stood when last found, and a sort or insert made while the run waited since would
 * load another row's cells (its id included) into a line, to be merged with this row's page. Eager
 * grids hold every cell already and are re-identified when written (writeLines).
 */
export function relocateBeforeLoading(cells: SheetCells, grid: LineGrid, layout: Layout): void {
  if (grid.lazy) relocateLines(cells, grid, layout);
}

/**
 * Finds the grid's lines where they stand now, right before a write: one read of the id column and
 * one of the status column (pending marks), fewer when the sheet is small or the written rows show
 * nothing moved. People sort, insert and delete lines while a run waits for the network; a line that
 * moved is written where it now stands, one that cannot be found is not written (the next run picks
 * it up). `dirty`: the lines about to be written (none: a load, every line's place is wanted).
 */
export function relocateLines(
  cells: SheetCells,
  grid: LineGrid,
  layout: Layout,
  dirty?: readonly number[],
): void {
  // No wait since the grid last matched the sheet: nothing can have moved (no reads needed).
  const waits = cells.waitsSoFar();
  const idColumn = layout.fixed.get(ID_HEADER);
  if (grid.checkedAtWait === waits || idColumn === undefined) {
    grid.placeAppendedLines(grid.sheetRows);
    return;
  }
  // A small sheet is read whole once (fewer cells than a waiting call costs): its size, headers, ids
  // and marks from one call where asking them apart takes three.
  const content = (grid.sheetRows + 1) * grid.width <= CELLS_PER_EXTRA_READ ? contentValues(cells) : null;
  // What a look at the written rows read already is not asked again: the header, and whether those
  // rows changed.
  let header: readonly unknown[] | undefined = content?.[0];
  let rowsChanged = false;
  if (!content && dirty) {
    const placement = stillInPlace(cells, grid, layout, idColumn, dirty);
    if (placement.inPlace) {
      grid.placeAppendedLines(grid.sheetRows);
      return;
    }
    header = placement.header;
    rowsChanged = placement.rowsChanged;
  }
  relocateAsNow(cells, grid, layout, { idColumn, waits, content, header, rowsChanged, dirty });
}

/** What relocateLines learned before reading the sheet's size. */
interface FirstLook {
  idColumn: number;
  waits: number;
  /** The sheet's whole content, when small enough to be read so. */
  content: unknown[][] | null;
  /** Row 1 as read already, if it was. */
  header: readonly unknown[] | undefined;
  /** Whether the written rows were read and hold other ids or marks than the run expects. */
  rowsChanged: boolean;
  dirty: readonly number[] | undefined;
}

/** Reads the sheet's size, its header and as few ids and marks as tell where the lines stand now. */
function relocateAsNow(cells: SheetCells, grid: LineGrid, layout: Layout, look: FirstLook): void {
  const { idColumn, content, dirty } = look;
  const { low, high } = rowSpanOf(grid, dirty ?? []);
  const expected = grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText);
  // The written rows' ids and marks read down to the last row with content tell the size too, where
  // asking it apart waits once more; only while the rows past the written ones are few. Written lines
  // without an id or a mark are told apart by their table cells: a read of both columns and those
  // between them gives those too, saving the read of their own.
  const cellsToCheck = (dirty ?? []).some((line) => isUnmarked(expected[line]))
    ? [...layout.columns.values()]
    : [];
  const tail =
    !content &&
    dirty &&
    high >= 0 &&
    !look.rowsChanged &&
    (grid.sheetRows - 1 - high) * 2 <= CELLS_PER_EXTRA_READ
      ? idsAndMarksToEnd(cells, idColumn, layout.status, {
          first: low,
          expectedCount: grid.sheetRows - low,
          wanted: cellsToCheck,
          positions: writtenColumns(layout),
        })
      : null;
  const lastRow = content ? content.length : tail ? sheetRowOf(low) - 1 + tail.ids.length : cells.lastRow();
  // New lines go right after the last row with content as it stands now, and rows are inserted there.
  cells.noteContentExtent(lastRow, content?.[0]?.length);
  const count = Math.max(0, lastRow - 1);
  if (columnsMovedSince(cells, layout, look.header ?? tail?.header)) {
    // A person moved, inserted, deleted or renamed columns while the run waited: the run's column
    // positions would write lMods, ids or values into other columns (e.g. lMods into "notes", which
    // the next push sends). No line of this run can be written safely: all are left for the next
    // run, which reads the new layout (as for any line that cannot be found).
    grid.checkedAtWait = look.waits;
    grid.relocate({ rows: new Array<number>(grid.length).fill(LOST), moved: true }, count);
    return;
  }
  // Only lines new to the sheet: they go after its last line, wherever that is now.
  if (dirty && high < 0) {
    grid.placeAppendedLines(count);
    return;
  }
  placeAsNow(cells, grid, layout, look, { expected, count, low, high, tail });
}

/** What the sheet holds now, as far as relocateAsNow read it. */
interface SheetNow {
  /** What each line held where the run read it. */
  expected: ExpectedLine[];
  /** Data rows the sheet holds. */
  count: number;
  /** The lowest and highest rows of the lines written. */
  low: number;
  high: number;
  /** Their ids and marks down to the last row, if read so. */
  tail: IdsAndMarks | null;
}

/**
 * Places the grid's lines where they stand now: where the run read them when the rows it writes hold
 * the ids and marks it read there (nothing it writes moved), else by their ids and marks (locateLines).
 * Either way a written line without an id or a mark is checked by its cells (loseMovedUnmarkedLines).
 */
function placeAsNow(cells: SheetCells, grid: LineGrid, layout: Layout, look: FirstLook, now: SheetNow): void {
  const { idColumn, content, dirty } = look;
  const { expected, count, low, high, tail } = now;
  const contentRead: CellsRead | undefined = content
    ? { firstRow: -1, firstColumn: 0, values: content }
    : undefined;
  const tableColumns = [...layout.columns.values()];
  if (dirty && count === grid.sheetRows && !look.rowsChanged) {
    // The rows the write spans hold the lines the run expects there: nothing it writes has moved.
    // Lines new to the sheet go after its last row, and a write span may join them with the rows
    // above, written as the run read them where not read back: down to the last row, then.
    const last = dirty.some((line) => expected[line]?.row === NOT_WRITTEN_YET) ? count - 1 : high;
    const window = tail ?? readIdsAndMarks(cells, idColumn, layout.status, low, last - low + 1, content);
    if (windowHolds(expected, window, low, last)) {
      grid.placeAppendedLines(count);
      loseMovedUnmarkedLines(cells, grid, tableColumns, expected, dirty, [contentRead, window.block]);
      return;
    }
  }
  grid.checkedAtWait = look.waits;
  // The tail read from the first row is the whole columns already.
  const current =
    tail && low === 0
      ? tail
      : count > 0
        ? readIdsAndMarks(cells, idColumn, layout.status, 0, count, content)
        : { ids: [], markers: [] };
  grid.relocate(locateLines(expected, grid.sheetRows, current), count);
  if (dirty)
    loseMovedUnmarkedLines(cells, grid, tableColumns, expected, dirty, [
      contentRead,
      tail?.block,
      current.block,
    ]);
}

/** The lowest and highest physical rows of these lines; `placed` false when one is not in the sheet. */
function rowSpanOf(grid: LineGrid, lines: readonly number[]): { low: number; high: number; placed: boolean } {
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  let placed = true;
  for (const line of lines) {
    const row = grid.physicalRow(line);
    if (row < 0) {
      placed = false;
      continue;
    }
    if (row < low) low = row;
    if (row > high) high = row;
  }
  return { low, high, placed };
}

/** Whether rows low..high hold the ids and marks of the lines expected there. */
function windowHolds(expected: readonly ExpectedLine[], window: CurrentColumns, low: number, high: number) {
  for (const each of expected) {
    if (each.row < low || each.row > high) continue;
    const at = each.row - low;
    if (cellText(window.ids[at]) !== each.id || (window.markers[at] ?? null) !== each.marker) return false;
  }
  return true;
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
  cells: SheetCells,
  grid: LineGrid,
  layout: Layout,
  idColumn: number,
  dirty: readonly number[],
): { inPlace: boolean; header?: unknown[]; rowsChanged: boolean } {
  const cannotTell = { inPlace: false, rowsChanged: false };
  const { low, high, placed } = rowSpanOf(grid, dirty);
  if (!placed || high < 0 || layout.status === undefined) return cannotTell;
  const atRow = uniqueLinesAt(
    grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText),
    low,
    high,
  );
  if (!atRow) return cannotTell;
  const positions = [...layout.fixed.values(), ...layout.columns.values(), layout.status];
  const width = Math.max(...positions) + 1;
  let header: unknown[];
  let window: IdsAndMarks;
  try {
    // Row 1 down to the span in one read, unless that costs more cells than a read apart saves.
    const apart = width + 2 * (high - low + 1);
    if (sheetRowOf(high) * width - apart <= CELLS_PER_EXTRA_READ) {
      const block = cells.values(1, 1, sheetRowOf(high), width);
      header = block[0] ?? [];
      window = readIdsAndMarks(cells, idColumn, layout.status, low, high - low + 1, block);
    } else {
      header = headerRowOf(cells, width);
      window = readIdsAndMarks(cells, idColumn, layout.status, low, high - low + 1);
    }
  } catch {
    // Rows or columns the run read are gone from the grid: the whole sheet's ids say where lines are.
    return cannotTell;
  }
  if (columnsMovedSince(cells, layout, header)) return { inPlace: false, header, rowsChanged: false };
  const same = atRow.every(
    (line, i) =>
      cellText(window.ids[i]) === line?.id && (window.markers[i] ?? null) === (line?.marker ?? null),
  );
  return { inPlace: same, header, rowsChanged: !same };
}

/**
 * The expected line on each row low..high, when every one of those rows holds a line whose id no
 * other line holds; null when that cannot be told (a row without such a line, or a line new to the
 * sheet, which goes after its last line: where that is takes the size).
 */
function uniqueLinesAt(
  expected: readonly ExpectedLine[],
  low: number,
  high: number,
): Array<ExpectedLine | undefined> | null {
  const linesWithId = new Map<string, number>();
  const atRow: Array<ExpectedLine | undefined> = new Array(high - low + 1);
  for (const line of expected) {
    if (line.row === NOT_WRITTEN_YET) return null;
    if (line.id !== '') linesWithId.set(line.id, (linesWithId.get(line.id) ?? 0) + 1);
    if (line.row >= low && line.row <= high) atRow[line.row - low] = line;
  }
  for (const line of atRow) if (!line || line.id === '' || linesWithId.get(line.id) !== 1) return null;
  return atRow;
}

/**
 * Whether a column the run writes (fixed fields, `_sync`, synced table columns) no longer carries the
 * header the run read at its position: one read of row 1, as wide as the run's columns, unless the
 * caller read it (`headerRow`).
 */
export function columnsMovedSince(
  cells: SheetCells,
  layout: Layout,
  headerRow?: readonly unknown[],
): boolean {
  const positions = writtenColumns(layout);
  if (positions.length === 0) return false;
  const width = Math.max(...positions) + 1;
  const now = headerRow ?? headerRowOf(cells, width);
  // An empty header cell does not count: a header the run adds and has not written yet, or one a person
  // cleared (nothing shifted there). A shift of columns always moves some header onto another's place.
  return positions.some((index) => {
    const header = headerText(now[index]);
    return header !== '' && header !== layout.headers[index];
  });
}

/** The columns a run writes: fixed fields, table columns, the status. */
function writtenColumns(layout: Layout): number[] {
  const positions = [...layout.fixed.values(), ...layout.columns.values()];
  if (layout.status !== undefined) positions.push(layout.status);
  return positions;
}

/** Row 1, `width` cells wide or as wide as the grid is. */
function headerRowOf(cells: SheetCells, width: number): unknown[] {
  try {
    return cells.values(1, 1, 1, width)[0] ?? [];
  } catch {
    // The grid is narrower than the run's columns (columns deleted, or not yet added): read what is there.
    const lastColumn = cells.lastColumn();
    return lastColumn > 0 ? (cells.values(1, 1, 1, lastColumn)[0] ?? []) : [];
  }
}

/**
 * The id cells and pending marks of `count` data rows from `first` (0-based): from the sheet's content
 * (or a block from row 1) when read already, else one read, or two.
 */
function readIdsAndMarks(
  cells: SheetCells,
  idColumn: number,
  status: number | undefined,
  first: number,
  count: number,
  content?: readonly unknown[][] | null,
): IdsAndMarks {
  const ids: unknown[] = new Array(count);
  const markers: Array<string | null> = new Array(count).fill(null);
  if (content) {
    for (let i = 0; i < count; i++) {
      const row = content[first + i + 1];
      ids[i] = row?.[idColumn] ?? '';
      if (status !== undefined) markers[i] = pendingTokenOf(row?.[status]);
    }
    return { ids, markers };
  }
  if (status !== undefined && (Math.abs(status - idColumn) - 1) * count <= CELLS_PER_EXTRA_READ) {
    // Both columns in one read when the cells between them cost less than a second call.
    const from = Math.min(idColumn, status);
    const values = cells.values(sheetRowOf(first), from + 1, count, Math.abs(status - idColumn) + 1);
    for (let i = 0; i < count; i++) {
      ids[i] = values[i]?.[idColumn - from] ?? '';
      markers[i] = pendingTokenOf(values[i]?.[status - from]);
    }
    return { ids, markers, block: { firstRow: first, firstColumn: from, values } };
  }
  const idValues = cells.values(sheetRowOf(first), idColumn + 1, count, 1);
  for (let i = 0; i < count; i++) ids[i] = idValues[i]?.[0] ?? '';
  if (status !== undefined) {
    const statuses = cells.values(sheetRowOf(first), status + 1, count, 1);
    for (let i = 0; i < count; i++) markers[i] = pendingTokenOf(statuses[i]?.[0]);
  }
  return { ids, markers };
}

/**
 * Whether the id and status columns are read in one block over `rows` rows: while the columns between
 * them cost fewer cells than the read apart they save, and the read of the `wanted` columns' cells
 * when those lie between them too.
 */
function oneReadPays(idColumn: number, status: number, rows: number, wanted: readonly number[]): boolean {
  const from = Math.min(idColumn, status);
  const to = Math.max(idColumn, status);
  const covers = wanted.length > 0 && wanted.every((column) => column > from && column < to);
  return (to - from - 1) * rows <= CELLS_PER_EXTRA_READ * (covers ? 2 : 1);
}

/** What a read of the ids and marks down to the last row reads. */
interface TailRead {
  /** The first data row read (0-based). */
  first: number;
  /** The rows it likely reads (to weigh the columns between the ids and the marks). */
  expectedCount: number;
  /** Columns whose cells the run reads on some of those rows anyway (new lines' table cells). */
  wanted: readonly number[];
  /** The columns the run writes, whose headers it checks. */
  positions: readonly number[];
}

/**
 * The id cells and pending marks from data row `first` (0-based) down to the last row with content:
 * getSheetValues to the last row, so their count says the sheet's size with no call of its own. The
 * marks ride in the ids' read when the columns between them, over the `expectedCount` rows, cost less
 * than the reads apart (oneReadPays: the `wanted` columns' own read too). Null when the sheet now ends
 * above `first` or is narrower than these columns (rows or columns deleted meanwhile): the caller asks
 * the size.
 */
function idsAndMarksToEnd(
  cells: SheetCells,
  idColumn: number,
  status: number | undefined,
  read: TailRead,
): IdsAndMarks | null {
  const firstRow = sheetRowOf(read.first);
  try {
    if (status !== undefined && oneReadPays(idColumn, status, read.expectedCount, read.wanted))
      return blockToEnd(cells, idColumn, status, read);
    const ids = cells.sheetValues(firstRow, idColumn + 1, -1, 1).map((row) => row[0] ?? '');
    if (ids.length === 0) return null;
    const markers: Array<string | null> = new Array(ids.length).fill(null);
    if (status !== undefined) {
      const statuses = cells.values(firstRow, status + 1, ids.length, 1);
      for (let i = 0; i < ids.length; i++) markers[i] = pendingTokenOf(statuses[i]?.[0]);
    }
    return { ids, markers };
  } catch {
    return null;
  }
}

/**
 * The ids, marks and the columns between them from data row `read.first` down to the last row, in one
 * read. When it reads new lines' cells too, the block spans the columns the run writes: read from
 * row 1, it gives their headers as well (`header`), where a read of its own waits once more, while
 * the rows above cost fewer cells than that wait.
 */
function blockToEnd(cells: SheetCells, idColumn: number, status: number, read: TailRead): IdsAndMarks | null {
  const from = Math.min(idColumn, status);
  const width = Math.abs(status - idColumn) + 1;
  const withHeader =
    read.wanted.length > 0 &&
    read.positions.every((column) => column >= from && column < from + width) &&
    sheetRowOf(read.first) * width <= CELLS_PER_EXTRA_READ;
  const all = cells.sheetValues(withHeader ? 1 : sheetRowOf(read.first), from + 1, -1, width);
  const values = withHeader ? all.slice(sheetRowOf(read.first) - 1) : all;
  // No rows (should the read give none rather than throw past the end) says no size.
  if (values.length === 0) return null;
  return {
    ids: values.map((row) => row[idColumn - from] ?? ''),
    markers: values.map((row) => pendingTokenOf(row[status - from])),
    block: { firstRow: read.first, firstColumn: from, values },
    ...(withHeader ? { header: [...new Array<unknown>(from).fill(''), ...(all[0] ?? [])] } : {}),
  };
}
