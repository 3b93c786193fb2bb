// The raw cells of one sheet, as the sheet-write rules (read-lines, relocate-lines, write-lines,
// delete-lines, header-row, base-sheet) read and write them. The rules decide which calls to make;
// src/gas implements each operation with the Range calls it names, tests over an in-memory grid.
// Rows and columns are 1-based, as the sheet numbers them.

/** A block of cells: first row and column, row and column counts. */
export type CellBlock = [number, number, number, number];

/** A block of cells, or whole columns in A1 notation (`C:D`: down to the grid's end). */
export type CellRange = CellBlock | string;

/** The header cells' managed looks, written a run of adjacent cells at a time. */
export type HeaderLook = 'notes' | 'backgrounds' | 'fontWeights';

/** A sheet's data range: its size is known with it, its values are one more waiting call. */
export interface DataRange {
  rows(): number;
  columns(): number;
  values(): unknown[][];
}

/**
 * Cells skipped by one wide read that make a read per column run worth its extra call: a waiting call
 * costs about as much as 15,000 cells read (150 ms against 0.01 ms a cell, docs/performance.md).
 */
export const CELLS_PER_EXTRA_READ = 15_000;

/** One sheet's cells and the execution's knowledge of it. */
export interface SheetCells {
  /** A block's values (getRange(...).getValues()); throws when it reaches past the grid. */
  values(row: number, column: number, rows: number, columns: number): unknown[][];
  /**
   * getSheetValues: `rows` or `columns` -1 reads to the last row or column with content, in one
   * waiting call. Throws when that leaves no cell (no content there).
   */
  sheetValues(row: number, column: number, rows: number, columns: number): unknown[][];
  /** Whole columns' values down to the grid's end (open-ended A1, `A:C`): the grid's row count too. */
  columnValues(firstColumn: number, width: number): unknown[][];
  /** The data range (one waiting call), its size known with it. */
  dataRange(): DataRange;
  /** The last row and column with content (a waiting call each). */
  lastRow(): number;
  lastColumn(): number;
  /** The grid's row count and the frozen rows (a waiting call each). */
  maxRows(): number;
  frozenRows(): number;

  /** Writes a block of values; `asText` formats the block as plain text first, on the same range. */
  write(row: number, column: number, values: unknown[][], asText?: boolean): void;
  /** Formats these ranges as plain text in one call (a RangeList when there are several). */
  setPlainText(ranges: readonly CellRange[]): void;
  /** Writes a look of a run of adjacent header cells (row 1) from `column`. */
  styleHeader(look: HeaderLook, column: number, values: readonly string[]): void;
  /** Protects whole columns (A1, `C:D`) with a warning only. */
  protectWarningOnly(columns: string, description: string): void;
  freezeRows(rows: number): void;
  insertRowsAfter(row: number, count: number): void;
  deleteRows(row: number, count: number): void;

  /**
   * The execution's count of waits (network calls, sleeps): while it stays the same, nobody can have
   * changed the sheet since the run last read it.
   */
  waitsSoFar(): number;
  /** Notes the last row (and column) with content as just read: rows are inserted right after them. */
  noteContentExtent(lastRow: number, lastColumn?: number): void;
  /** Notes that the content reaches at least this row and column (a partial read's sight). */
  noteContentSize(lastRow: number, lastColumn: number): void;
  /** Notes the grid's row count where a read told it. */
  noteGridRows(rows: number): void;
  /** Makes rows up to `lastRow` exist: the first inserted row and how many, or null. */
  ensureRows(lastRow: number): [number, number] | null;
  /** Makes columns up to `lastColumn` exist. */
  ensureColumns(lastColumn: number): void;
}
