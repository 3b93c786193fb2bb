// Deletes lines of the linked sheet by row id: the id and status columns are read again right before
// deleting, so a line that moved is deleted where it stands now, and a line whose id or status changed
// since a person reviewed it is kept.
import { headerText, ID_HEADER, STATUS_HEADER } from '../core/layout';
import { cellText } from '../core/lines';
import { spansOf } from '../core/row-spans';
import { noteContentExtent } from './grid-size';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * Deletes the sheet rows of these lines, each only when exactly one line carries its row id and its
 * status cell still reads one of `statuses`. Returns the row ids whose lines were deleted.
 */
export function deleteLinesById(
  sheet: Sheet,
  lines: ReadonlyArray<{ rowId: string; statuses: readonly string[] }>,
): string[] {
  const lastRow = sheet.getLastRow();
  const lastColumn = sheet.getLastColumn();
  if (lastRow < 2 || lastColumn < 1 || lines.length === 0) return [];
  const headers = (sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []) as unknown[];
  const idColumn = headers.findIndex((cell) => headerText(cell) === ID_HEADER);
  const statusColumn = headers.findIndex((cell) => headerText(cell) === STATUS_HEADER);
  if (idColumn < 0 || statusColumn < 0) return [];
  const ids = sheet.getRange(2, idColumn + 1, lastRow - 1, 1).getValues();
  const statuses = sheet.getRange(2, statusColumn + 1, lastRow - 1, 1).getValues();
  const rowsById = new Map<string, number[]>();
  ids.forEach((cells, i) => {
    const id = cellText(cells[0]);
    if (id === '') return;
    const rows = rowsById.get(id);
    if (rows) rows.push(i + 2);
    else rowsById.set(id, [i + 2]);
  });
  const doomed: Array<{ row: number; rowId: string }> = [];
  for (const { rowId, statuses: expected } of lines) {
    const found = rowsById.get(rowId);
    if (found?.length !== 1) continue;
    const row = found[0] as number;
    if (expected.includes(String(statuses[row - 2]?.[0] ?? ''))) doomed.push({ row, rowId });
  }
  if (doomed.length === 0) return [];
  // Sheets refuses to delete every row below the frozen header: one blank row is kept.
  if (sheet.getMaxRows() - doomed.length <= sheet.getFrozenRows())
    sheet.insertRowsAfter(sheet.getMaxRows(), 1);
  const rows = doomed.map((each) => each.row).sort((a, b) => a - b);
  // Bottom up, a run of adjacent rows at a time: rows above a deletion keep their numbers.
  for (const [first, last] of spansOf(rows, 1).reverse()) sheet.deleteRows(first, last - first + 1);
  // Rows are inserted right after the content: it ends at most this far now.
  noteContentExtent(sheet, lastRow - doomed.length);
  return doomed.map((each) => each.rowId);
}
