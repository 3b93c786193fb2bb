// Lines of a linked sheet as plain data: a cell's text, lines indexed by row id, and the sheet row
// (1-based) of a line's index (0-based, after the header row).
import { ID_HEADER, type Layout } from './layout';
import type { LineGrid } from './line-grid';

/** The sheet row (1-based, row 1 the headers) of a line (0-based index of data lines). */
export function sheetRowOf(line: number): number {
  return line + 2;
}

export interface LineIndex {
  lineById: Map<string, number>;
  /** Row ids carried by more than one line, with those lines. */
  duplicates: Map<string, number[]>;
}

// String methods called with .call in per-line code: a method looked up on cells of many string
// representations is not inlined by V8 (see charCodeAt in digest.ts).
const trim = String.prototype.trim;

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? trim.call(value) : String(value);
}

/** Indexes lines by the row id in their `id` cell; lines without an id are not indexed. */
export function indexLines(grid: LineGrid, layout: Layout): LineIndex {
  const lineById = new Map<string, number>();
  const duplicates = new Map<string, number[]>();
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return { lineById, duplicates };
  for (let line = 0; line < grid.length; line++) {
    const cells = grid.lineCells(line);
    const id = cellText(cells ? cells[idColumn] : grid.get(line, idColumn));
    if (id === '') continue;
    const first = lineById.get(id);
    if (first === undefined) {
      lineById.set(id, line);
    } else {
      const lines = duplicates.get(id) ?? [first];
      lines.push(line);
      duplicates.set(id, lines);
    }
  }
  return { lineById, duplicates };
}

/** A line's cells read one by one (a line not loaded whole: `get` says which cells are known). */
export function cellsByGet(grid: LineGrid, line: number, at: readonly number[]): unknown[] {
  const cells: unknown[] = [];
  for (const column of at) if (column >= 0) cells[column] = grid.get(line, column);
  return cells;
}
