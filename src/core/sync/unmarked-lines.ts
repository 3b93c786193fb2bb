// Lines with neither a row id nor a pending mark (a new line a person typed, not yet claimed by a
// create): the id and mark columns cannot tell one such line from another, so a sort that swapped two
// of them while the run waited leaves those columns as the run read them. Before such a line is
// written where it was read, its table cells must still hold what the run read there; a row holding
// other cells holds another line, and the line is not found (the next run picks it up).
import { type LineGrid, sameCell } from '../line-grid';
import { sheetRowOf } from '../lines';
import { spansOf } from '../row-spans';
import type { ExpectedLine } from './locate-lines';
import { CELLS_PER_EXTRA_READ, type SheetCells } from './sheet-cells';

/** Cells read from the sheet: `values[0]` is data row `firstRow` (0-based; -1 the header row), from sheet column `firstColumn` (0-based). */
export interface CellsRead {
  firstRow: number;
  firstColumn: number;
  values: ReadonlyArray<readonly unknown[]>;
}

/** Whether a line stood in the sheet, as read, with neither an id nor a mark. */
export function isUnmarked(line: ExpectedLine | undefined): boolean {
  return line !== undefined && line.row >= 0 && line.id === '' && line.marker === null;
}

/**
 * Takes as not found the lines about to be written (`dirty`) that carry no id and no mark and whose
 * row no longer holds the table cells the run read on it. `read`: cells at hand (the sheet's content,
 * or the id and mark columns' block when the table columns lie between them); rows they do not cover
 * are read, their table columns, one read per span of nearby rows. With no table column nothing tells
 * such lines apart: they are not found.
 */
export function loseMovedUnmarkedLines(
  cells: SheetCells,
  grid: LineGrid,
  tableColumns: readonly number[],
  expected: readonly ExpectedLine[],
  dirty: readonly number[],
  read: ReadonlyArray<CellsRead | undefined>,
): void {
  const unmarked = dirty.filter((line) => isUnmarked(expected[line]) && grid.physicalRow(line) >= 0);
  if (unmarked.length === 0) return;
  if (tableColumns.length === 0) {
    grid.lose(unmarked);
    return;
  }
  const sources = read.filter((each): each is CellsRead => each !== undefined);
  const uncovered = unmarked
    .map((line) => grid.physicalRow(line))
    .filter((row) => tableColumns.some((column) => cellOf(sources, row, column) === undefined));
  sources.push(...readRows(cells, [...new Set(uncovered)], tableColumns));
  const moved = unmarked.filter((line) => {
    const row = grid.physicalRow(line);
    const asRead = grid.originalCells(line) ?? grid.lines[line] ?? [];
    return tableColumns.some((column) => !sameCell(asRead[column] ?? '', cellOf(sources, row, column) ?? ''));
  });
  if (moved.length > 0) grid.lose(moved);
}

/** The cell at data row `row`, sheet column `column` (0-based) among cells read; undefined if none holds it. */
function cellOf(sources: readonly CellsRead[], row: number, column: number): unknown {
  for (const source of sources) {
    const cells = source.values[row - source.firstRow];
    const at = column - source.firstColumn;
    if (cells && at >= 0 && at < cells.length) return cells[at] ?? '';
  }
  return undefined;
}

/** The table columns of these data rows: one read per span of rows whose rows between cost fewer cells than a read. */
function readRows(cells: SheetCells, rows: readonly number[], tableColumns: readonly number[]): CellsRead[] {
  if (rows.length === 0) return [];
  const firstColumn = Math.min(...tableColumns);
  const width = Math.max(...tableColumns) - firstColumn + 1;
  const sorted = [...rows].sort((a, b) => a - b);
  return spansOf(sorted, Math.max(1, Math.floor(CELLS_PER_EXTRA_READ / width))).map(([first, last]) => ({
    firstRow: first,
    firstColumn,
    values: cells.values(sheetRowOf(first), firstColumn + 1, last - first + 1, width),
  }));
}
