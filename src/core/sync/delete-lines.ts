// Deleting lines of the linked sheet by row id: the id and status columns are read again right before
// deleting, so a line that moved is deleted where it stands now, and a line whose id or status changed
// since a person reviewed it is kept.
import { headerText, ID_HEADER, STATUS_HEADER } from '../layout';
import { cellText } from '../lines';
import { spansOf } from '../row-spans';
import type { SheetCells } from './sheet-cells';

/** A line to delete: its row id, and the statuses its status cell may read for it to go. */
export interface LineToDelete {
  rowId: string;
  statuses: readonly string[];
}

/**
 * Deletes the sheet rows of these lines, each only when exactly one line carries its row id and its
 * status cell still reads one of `statuses`. Returns the row ids whose lines were deleted.
 */
export function deleteLinesById(cells: SheetCells, lines: readonly LineToDelete[]): string[] {
  const lastRow = cells.lastRow();
  const lastColumn = cells.lastColumn();
  if (lastRow < 2 || lastColumn < 1 || lines.length === 0) return [];
  const headers = cells.values(1, 1, 1, lastColumn)[0] ?? [];
  const idColumn = headers.findIndex((cell) => headerText(cell) === ID_HEADER);
  const statusColumn = headers.findIndex((cell) => headerText(cell) === STATUS_HEADER);
  if (idColumn < 0 || statusColumn < 0) return [];
  const ids = cells.values(2, idColumn + 1, lastRow - 1, 1);
  const statuses = cells.values(2, statusColumn + 1, lastRow - 1, 1);
  const doomed = rowsToDelete(lines, rowsById(ids), statuses);
  if (doomed.length === 0) return [];
  // Sheets refuses to delete every row below the frozen header: one blank row is kept.
  if (cells.maxRows() - doomed.length <= cells.frozenRows()) cells.insertRowsAfter(cells.maxRows(), 1);
  const rows = doomed.map((each) => each.row).sort((a, b) => a - b);
  // Bottom up, a run of adjacent rows at a time: rows above a deletion keep their numbers.
  for (const [first, last] of spansOf(rows, 1).reverse()) cells.deleteRows(first, last - first + 1);
  // Rows are inserted right after the content: it ends at most this far now.
  cells.noteContentExtent(lastRow - doomed.length);
  return doomed.map((each) => each.rowId);
}

/** The sheet rows (from row 2) carrying each id. */
function rowsById(ids: readonly unknown[][]): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  ids.forEach((cells, i) => {
    const id = cellText(cells[0]);
    if (id === '') return;
    const found = rows.get(id);
    if (found) found.push(i + 2);
    else rows.set(id, [i + 2]);
  });
  return rows;
}

/** The lines that go: found on exactly one row, whose status cell still reads one of theirs. */
function rowsToDelete(
  lines: readonly LineToDelete[],
  byId: ReadonlyMap<string, number[]>,
  statuses: readonly unknown[][],
): Array<{ row: number; rowId: string }> {
  const doomed: Array<{ row: number; rowId: string }> = [];
  for (const { rowId, statuses: expected } of lines) {
    const found = byId.get(rowId);
    if (found?.length !== 1) continue;
    const row = found[0] as number;
    if (expected.includes(String(statuses[row - 2]?.[0] ?? ''))) doomed.push({ row, rowId });
  }
  return doomed;
}
