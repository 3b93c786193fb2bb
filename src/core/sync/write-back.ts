// The write-back decision of a flush: which columns it writes and reads back first, and per span of
// rows the block of cells to write (the run's value, unless the person changed that cell since the
// run read it; rows between the run's lines as they stand) and the blocks that need plain text.
import { adjacentColumnGroups, joinRowBlocks } from '../layout';
import { sameCell } from '../line-grid';
import { sheetRowOf } from '../lines';
import { spansOf } from '../row-spans';

/** A block of sheet cells: 1-based first row and column, row and column counts. */
export type CellBlock = [number, number, number, number];

/** What a flush writes, as sheet column indexes (0-based, ascending) and their groups of adjacent columns [start, width]. */
export interface WriteBackPlan {
  /** The columns written: one setValues per group of adjacent ones. */
  written: readonly number[];
  groups: ReadonlyArray<[number, number]>;
  /**
   * The written columns read back before writing, so a cell a person changed since the run read it
   * is kept: the table columns, or every written column once lines moved (rows between the run's
   * lines are then no longer its copies). None for a write of the add-on's own read-only fields.
   */
  guarded: readonly number[];
  guardedGroups: ReadonlyArray<[number, number]>;
  /** Text columns among the written ones: plain text on the rows the sheet had. */
  textGroups: ReadonlyArray<[number, number]>;
  /** Every text column the flush may write: plain text on the rows it adds, for later typing too. */
  allTextGroups: ReadonlyArray<[number, number]>;
}

/** What decides a flush's columns. */
export interface WriteBackColumns {
  /** The columns this flush may write (ascending): synced columns, or fixed fields and the status. */
  eligible: readonly number[];
  /** The columns the run changed in some line since the last flush. */
  changed: ReadonlySet<number>;
  /** The columns holding text (ascending): text and JSON table columns, fixed fields, the status. */
  text: readonly number[];
  /** The table columns: a person may edit them while the run waits. */
  table: readonly number[];
  /** Whether table columns are written (a pull), not only the add-on's own fields (a push). */
  withTable: boolean;
  /** Whether the run's lines moved since it read them (sorts, inserts, deletes). */
  moved: boolean;
}

/**
 * The columns a flush writes: only those that changed (a re-pull that updates one column rewrites
 * that column). Null when none did: nothing is written.
 */
export function planWriteBack(columns: WriteBackColumns): WriteBackPlan | null {
  const { eligible, changed } = columns;
  const written = eligible.filter((column) => changed.has(column));
  if (written.length === 0) return null;
  const allText = columns.text.filter((column) => eligible.includes(column));
  const writtenSet = new Set(written);
  // Fixed fields and the status are the add-on's own (read-only): a push, which writes only those,
  // reads nothing back unless lines moved.
  const table = new Set(columns.table);
  const guarded = columns.moved
    ? written
    : columns.withTable
      ? written.filter((column) => table.has(column))
      : [];
  return {
    written,
    groups: adjacentColumnGroups(written),
    guarded,
    guardedGroups: adjacentColumnGroups(guarded),
    textGroups: adjacentColumnGroups(allText.filter((column) => writtenSet.has(column))),
    allTextGroups: adjacentColumnGroups(allText),
  };
}

/**
 * How many rows of the span first..last (0-based data rows) to read back before writing: those the
 * sheet had (`existingRows` data rows); none when no column is guarded.
 */
export function rowsToReadBack(
  plan: WriteBackPlan,
  first: number,
  last: number,
  existingRows: number,
): number {
  if (plan.guarded.length === 0) return 0;
  return Math.max(0, Math.min(last, existingRows - 1) - first + 1);
}

/** One row of a span to write. */
export type SpanRow =
  | {
      /** A line of the run stands on this row. */
      kind: 'line';
      /** Its cells as the run leaves them. */
      cells: readonly unknown[];
      /** Its cells as the run read them, when it changed them since (undefined: new, or unchanged). */
      read: readonly unknown[] | undefined;
    }
  | {
      /** A row between the run's lines. */
      kind: 'between';
      /** The grid's cells at this row's position (used only where the row is not read back). */
      cells: readonly unknown[] | undefined;
    };

/**
 * The block of cells to write over the span's rows, columns plan.written[0]..last written: per cell
 * of a line of the run, the run's value goes in unless the sheet now holds something other than what
 * the run read there (the person's edit, kept); a row between the run's lines is written as it stands
 * now (never a stale copy of it). `current[i]` holds what the sheet holds now in row i of the span,
 * columns plan.guarded[0].., for the rows read back (rowsToReadBack); the others are not compared.
 * Cells of columns not written inside the block are ''.
 */
export function writeBackBlock(
  plan: WriteBackPlan,
  rows: readonly SpanRow[],
  current: ReadonlyArray<readonly unknown[]>,
  /** Hears of each cell the run meant to change and left as the person changed it. */
  onKept?: (rowInSpan: number, column: number, sheetValue: unknown) => void,
): unknown[][] {
  const { written, guarded } = plan;
  const firstColumn = written[0] as number;
  const width = (written[written.length - 1] as number) - firstColumn + 1;
  const guardFirst = guarded[0] ?? 0;
  const guardedSet = new Set(guarded);
  const block: unknown[][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SpanRow;
    const now = current[i];
    const cells = new Array<unknown>(width).fill('');
    for (const column of written) {
      const c = column - firstColumn;
      const readBack = now !== undefined && guardedSet.has(column);
      const sheetValue = readBack ? (now[column - guardFirst] ?? '') : undefined;
      if (row.kind === 'between') {
        cells[c] = readBack ? sheetValue : (row.cells?.[column] ?? '');
        continue;
      }
      const value = row.cells[column] ?? '';
      if (!readBack || row.read === undefined || sameCell(row.read[column] ?? '', sheetValue))
        cells[c] = value;
      else {
        cells[c] = sheetValue;
        if (!sameCell(value, sheetValue)) onKept?.(i, column, sheetValue);
      }
    }
    block[i] = cells;
  }
  return block;
}

/**
 * The blocks to format as plain text before writing the span first..last (0-based data rows), so
 * strings like 00123, TRUE or =IMPORTXML(...) stay literal text: rows the run appends and blank rows
 * it inserted (`inserted`: first sheet row and count) get it in every text column, so what a person
 * types there later stays literal too; rows the sheet had get it where text is written.
 */
export function plainTextBlocks(
  plan: WriteBackPlan,
  first: number,
  last: number,
  existingRows: number,
  inserted: readonly [number, number] | null,
): CellBlock[] {
  const appendedFrom = Math.max(first, existingRows);
  const newRows: Array<[number, number]> = [];
  if (inserted) newRows.push([inserted[0], inserted[1]]);
  if (last >= appendedFrom) newRows.push([sheetRowOf(appendedFrom), last - appendedFrom + 1]);
  const blocks: CellBlock[] = [];
  for (const [row, rowCount] of joinRowBlocks(newRows))
    for (const [start, width] of plan.allTextGroups) blocks.push([row, start + 1, rowCount, width]);
  const kept = Math.min(last, appendedFrom - 1) - first + 1;
  if (kept > 0)
    for (const [start, width] of plan.textGroups) blocks.push([sheetRowOf(first), start + 1, kept, width]);
  return blocks;
}

/**
 * Cells written that cost as much as one queued call: rows nobody changed between two written lines
 * are written (as they stand) only while cheaper than the getRange and setValues a write span of their
 * own adds. A queued call costs about 2 ms against 0.03 ms a cell written (docs/performance.md).
 */
export const CELLS_PER_QUEUED_CALL = 67;

/** One write span of a flush: 0-based data rows first..last, and the block of cells written there. */
export interface WriteSpan {
  first: number;
  last: number;
  /** Its rows' cells, columns plan.written[0]..last written (writeBackBlock). */
  block: unknown[][];
}

/**
 * The write spans of a read span's lines (0-based rows, ascending): two neighbouring lines share one
 * while the rows between them cost fewer cells to write than the calls a span of its own adds (a
 * getRange and a setValues per group of adjacent written columns, `cellsPerCall` cells each). Rows
 * nobody changed are written only where that is cheaper than not writing them.
 */
export function writeSpanRows(
  plan: WriteBackPlan,
  lineRows: readonly number[],
  cellsPerCall: number,
): Array<[number, number]> {
  // Rows between two lines cost width cells each: joined while fewer than the calls cost.
  const joinBelow = 2 * plan.groups.length * cellsPerCall;
  return spansOf(lineRows, Math.ceil(joinBelow / plan.written.length));
}

/**
 * The write spans of the read span from data row `first` (`rows[i]` its row i, `current[i]` what the
 * sheet holds there now, as for writeBackBlock), each with its block: only the rows its lines span.
 */
export function writeBackSpans(
  plan: WriteBackPlan,
  first: number,
  rows: readonly SpanRow[],
  current: ReadonlyArray<readonly unknown[]>,
  cellsPerCall: number,
  /** Hears of each cell the run meant to change and left as the person changed it (row in the read span). */
  onKept?: (rowInSpan: number, column: number, sheetValue: unknown) => void,
): WriteSpan[] {
  const lineRows: number[] = [];
  rows.forEach((row, i) => {
    if (row.kind === 'line') lineRows.push(first + i);
  });
  return writeSpanRows(plan, lineRows, cellsPerCall).map(([from, to]) => {
    const offset = from - first;
    const heard =
      onKept && ((i: number, column: number, value: unknown) => onKept(offset + i, column, value));
    const block = writeBackBlock(
      plan,
      rows.slice(offset, to - first + 1),
      current.slice(offset, to - first + 1),
      heard,
    );
    return { first: from, last: to, block };
  });
}

/**
 * The blocks to format as plain text before a flush writes its write spans (all of them, ascending,
 * so one call formats them all): per span as plainTextBlocks says, the rows the grid grew by
 * (`inserted`) once.
 */
export function plainTextOfSpans(
  plan: WriteBackPlan,
  spans: ReadonlyArray<{ first: number; last: number }>,
  existingRows: number,
  inserted: readonly [number, number] | null,
): CellBlock[] {
  return spans.flatMap((span, i) =>
    plainTextBlocks(plan, span.first, span.last, existingRows, i === spans.length - 1 ? inserted : null),
  );
}
