// Writing a run's dirty lines back where they stand now: re-identified by row id first
// (relocate-lines), read back per span of nearby rows so a cell a person changed meanwhile is kept,
// written one setValues per run of adjacent synced columns per write span (lines far enough apart are
// written apart, not the rows between them), after one plain-text format call for all. The choices
// of cells are write-back.ts's; this reads, asks it and writes.
import type { ColumnSpec } from '../columns';
import { type Layout, syncedColumns } from '../layout';
import type { LineGrid } from '../line-grid';
import { sheetRowOf } from '../lines';
import { SPAN_GAP, spansOf } from '../row-spans';
import { relocateLines } from './relocate-lines';
import { CELLS_PER_EXTRA_READ, type SheetCells } from './sheet-cells';
import {
  CELLS_PER_QUEUED_CALL,
  plainTextOfSpans,
  planWriteBack,
  rowsToReadBack,
  type SpanRow,
  type WriteBackPlan,
  type WriteSpan,
  writeBackSpans,
} from './write-back';

/**
 * Writes the dirty lines of the grid back where they stand now (relocateLines): per span of nearby
 * rows, the written columns are read first and a cell is written only where the sheet still holds
 * what the run read (a cell a person changed meanwhile is their edit and stays); then, per write span
 * (lines joined only while the rows between cost less to write than the calls apart), one setValues
 * per run of adjacent synced columns (the person's own columns are never written), after setting
 * plain text on the text columns so strings stay literal. `columns` limits the write to some synced
 * columns (a push only changes fixed fields and the status). Returns the lines written.
 */
export function writeLines(
  cells: SheetCells,
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
  columns: 'synced' | 'fixedAndStatus' = 'synced',
): number {
  const dirty = grid.takeDirty();
  const changed = new Set(grid.takeDirtyColumns());
  if (dirty.length === 0) return 0;
  relocateLines(cells, grid, layout, dirty);
  // No wait since every cell was read: the sheet still holds what the run read, nothing to read back.
  const readBack = grid.valuesReadAtWait !== cells.waitsSoFar();
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
  cells.ensureColumns((plan.written[plan.written.length - 1] as number) + 1);
  const lineAt = linesByRow(grid, dirty);
  const lineRows = [...lineAt.keys()].sort((a, b) => a - b);
  const lastLineRow = lineRows[lineRows.length - 1];
  const inserted = lastLineRow === undefined ? null : cells.ensureRows(sheetRowOf(lastLineRow));
  const spans = writeSpansOf(cells, grid, plan, lineAt, readBack);
  // Plain text before values, so strings like 00123, TRUE or =IMPORTXML(...) stay literal text.
  cells.setPlainText(plainTextOfSpans(plan, spans, grid.sheetRowsBefore, inserted));
  const firstColumn = plan.written[0] as number;
  for (const { first, block } of spans) {
    for (const [start, width] of plan.groups) {
      const from = start - firstColumn;
      cells.write(
        sheetRowOf(first),
        start + 1,
        block.map((row) => row.slice(from, from + width)),
      );
    }
  }
  grid.flushed();
  return dirty.length;
}

/**
 * The write spans of the dirty lines (`lineAt`: each by the row it stands on) with their blocks, the
 * cells a person changed since the run read them kept (read back first, per span of nearby rows,
 * when `readBack`). Every read span is read back before anything is formatted: plain text set first
 * would change how some cells read (a date-formatted number in a text column), and the guard
 * compares them.
 */
function writeSpansOf(
  cells: SheetCells,
  grid: LineGrid,
  plan: WriteBackPlan,
  lineAt: ReadonlyMap<number, number>,
  readBack: boolean,
): WriteSpan[] {
  const { guarded, guardedGroups } = plan;
  const spans: WriteSpan[] = [];
  for (const [first, last] of spansOf(
    [...lineAt.keys()].sort((a, b) => a - b),
    SPAN_GAP,
  )) {
    const readCount = readBack ? rowsToReadBack(plan, first, last, grid.sheetRowsBefore) : 0;
    const current =
      readCount > 0
        ? readBlock(
            cells,
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
  return spans;
}

/**
 * The cells of columns firstColumn..lastColumn (0-based) of `count` rows: one read, or one per run of
 * written columns when the columns between them hold many cells.
 */
function readBlock(
  cells: SheetCells,
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
    return cells.values(firstRow, firstColumn + 1, count, width);
  }
  const block: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(width).fill(''));
  for (const [start, runWidth] of runs) {
    const values = cells.values(firstRow, start + 1, count, runWidth);
    for (let i = 0; i < count; i++) {
      const row = block[i] as unknown[];
      const read = values[i] ?? [];
      for (let c = 0; c < runWidth; c++) row[start - firstColumn + c] = read[c] ?? '';
    }
  }
  return block;
}

/** Fixed fields and the status: the columns a push writes (ascending). */
function fixedAndStatusColumns(layout: Layout): number[] {
  return [...layout.fixed.values(), ...(layout.status === undefined ? [] : [layout.status])].sort(
    (a, b) => a - b,
  );
}

/** Sheet columns whose cells hold text: text and JSON table columns, fixed fields and the status. */
export function textColumns(layout: Layout, live: readonly ColumnSpec[]): number[] {
  const indexes: number[] = [...layout.fixed.values()];
  if (layout.status !== undefined) indexes.push(layout.status);
  for (const column of live) {
    const index = layout.columns.get(column.id);
    if (index !== undefined && (column.kind === 'text' || column.kind === 'list' || column.kind === 'json'))
      indexes.push(index);
  }
  return indexes.sort((a, b) => a - b);
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
