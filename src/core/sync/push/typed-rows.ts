// Which rows a live push checks on the service with the schema, before it knows the edits: the rows of
// the lines the edit event named, when the typed cells include a synced column.
import type { BaseTable } from '../../base-table';
import { headerText, ID_HEADER, readLayout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellText, indexLines } from '../../lines';

/** The cells an edit event named: its lines (0-based) and sheet columns (0-based, inclusive). */
export interface TypedCells {
  lines: readonly number[];
  firstColumn: number;
  lastColumn: number;
}

/** The sheet as read before the schema, and the typed cells. */
export interface TypedRowsInput {
  grid: LineGrid;
  headers: readonly unknown[];
  base: BaseTable;
  typed: TypedCells | undefined;
}

/** Rows read with the schema at most: with it, one fetchAll round of 10. */
export const TYPED_ROWS_WITH_SCHEMA = 9;

/**
 * The row ids of the typed lines whose check can ride with the schema: lines with an id the base
 * knows and no other line shows, when a typed column's header is one the base follows (a synced
 * column). Cells typed only in a person's own columns send nothing, so no row is read for them; a
 * line whose typed value turns out unchanged costs its row's read (one request of the same round).
 */
export function typedRowIds(input: TypedRowsInput, max: number): string[] {
  const { grid, headers, base, typed } = input;
  if (!typed) return [];
  const layout = readLayout(headers, []);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return [];
  const synced = new Set(base.columnIds);
  let typedSynced = false;
  for (let column = Math.max(0, typed.firstColumn); column <= typed.lastColumn; column++) {
    if (column >= headers.length) break;
    if (synced.has(headerText(headers[column]))) typedSynced = true;
  }
  if (!typedSynced) return [];
  const { duplicates } = indexLines(grid, layout);
  const rowIds: string[] = [];
  for (const line of typed.lines) {
    if (rowIds.length >= max) break;
    if (line < 0 || line >= grid.length) continue;
    const rowId = cellText(grid.get(line, idColumn));
    if (rowId === '' || duplicates.has(rowId) || !base.has(rowId) || rowIds.includes(rowId)) continue;
    rowIds.push(rowId);
  }
  return rowIds;
}
