// Rows whose lines are gone from the sheet: which they are (by row id, never by position), and how a
// person is shown them for review. A missing line is never a delete by itself: these rows are held
// until a person deletes them on the service or brings them back.
import type { MissingRow, MissingRowsReview } from '../../../shared/types';
import type { BaseTable } from '../../base-table';
import { encodeCell, valueDigest } from '../../codec';
import type { ColumnSpec } from '../../columns';
import { ID_HEADER, readLayout } from '../../layout';
import { indexLines } from '../../lines';
import { isPendingToken } from '../lost-creates';
import type { ServiceRow, SheetLines } from '../ports';
import { findEditedIds } from '../pull/edited-ids';
import { namedTitles } from './wording';

/** Rows a review lists at most (the count covers them all). */
export const MAX_REVIEW_ROWS = 500;

/** How long a service found not to serve deleting is not asked again (a day). */
export const DELETE_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The rows the base knows (pending creates aside) that no line of the sheet stands for, in base order.
 * A line sorted, filtered or moved still carries its id and is not missing; a line whose id cell a
 * person cleared or typed over (another row's id, an unknown one) is still its row's, found by its
 * other fixed fields and values (the next pull puts the id back): its row is not listed, nor is any
 * row such a line may be when it cannot tell which. None when the sheet has no id column: every row
 * would look missing, and the run says to restore the column instead. The lines read are those with
 * no id, an unknown one or one on several lines; `everyLine` (right before deleting): every line, so
 * a line showing another row's id once is found by its lMod too.
 */
export function missingRowIds(
  lines: SheetLines,
  base: BaseTable,
  live: readonly ColumnSpec[],
  deletedColumnIds: readonly string[],
  everyLine = false,
): string[] {
  const layout = readLayout(lines.headers, live, deletedColumnIds);
  if (layout.fixed.get(ID_HEADER) === undefined) return [];
  const index = indexLines(lines.grid, layout);
  const { standing } = findEditedIds({ grid: lines.grid, layout, live, base, index }, everyLine);
  return base.ids().filter((id) => !index.lineById.has(id) && !isPendingToken(id) && !standing.has(id));
}

/** Whether deleting may be offered: not within a day of the service answering that it does not serve it. */
export function deleteOffered(deleteUnsupportedAt: string | undefined, now: number): boolean {
  if (!deleteUnsupportedAt) return true;
  const at = Date.parse(deleteUnsupportedAt);
  return Number.isNaN(at) || now - at >= DELETE_RETRY_AFTER_MS;
}

/** The text a row is recognised by: its first non-empty text value, else its id. */
export function rowTitle(row: ServiceRow | undefined, live: readonly ColumnSpec[], rowId: string): string {
  if (row) {
    for (const column of live) {
      if (column.kind !== 'text') continue;
      const value = row[column.id];
      const text = typeof value === 'string' ? value.trim() : '';
      if (text !== '') return text.length > 80 ? `${text.slice(0, 79)}…` : text;
    }
  }
  return `row ${rowId}`;
}

/**
 * Each missing row as a person reviews it: as last synced, changed on the service since (which
 * columns, their values now), or no longer on the service. `found` holds the service's rows by id.
 */
export function reviewedRows(
  ids: readonly string[],
  base: BaseTable,
  found: ReadonlyMap<string, ServiceRow>,
  live: readonly ColumnSpec[],
): MissingRow[] {
  return ids.map((rowId): MissingRow => {
    const row = found.get(rowId);
    if (!row) return { rowId, title: rowTitle(undefined, live, rowId), state: 'gone', lMod: '', changes: [] };
    const record = base.get(rowId);
    const lMod = typeof row.lMod === 'string' ? row.lMod : String(row.lMod ?? '');
    const changes: MissingRow['changes'] = [];
    for (const column of live) {
      const agreed = record?.digests[column.id];
      if (agreed === undefined || valueDigest(row[column.id], column.kind) === agreed) continue;
      changes.push({ columnId: column.id, value: String(encodeCell(row[column.id], column.kind).read) });
    }
    const changed = changes.length > 0 || (record !== undefined && record.lMod !== lMod);
    return {
      rowId,
      title: rowTitle(row, live, rowId),
      state: changed ? 'changed' : 'unchanged',
      lMod,
      changes,
    };
  });
}

function rowsWord(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

/** The review's one sentence: what waits, what is unusual about it, and what the person may do. */
export function reviewMessage(count: number, rows: readonly MissingRow[], deleteSupported: boolean): string {
  if (count === 0) return 'No lines are missing from this sheet: nothing waits for review.';
  const changed = rows.filter((row) => row.state === 'changed').length;
  const gone = rows.filter((row) => row.state === 'gone').length;
  const parts = [
    `${count === 1 ? '1 row whose line was' : `${count} rows whose lines were`} deleted from this sheet (${namedTitles(rows, count)}) ${count === 1 ? 'is' : 'are'} held: nothing was deleted on the service, and pulls do not add ${count === 1 ? 'it' : 'them'} back.`,
  ];
  if (changed > 0)
    parts.push(
      `${rowsWord(changed)} changed on the service since your last sync: check what changed before deleting.`,
    );
  if (gone > 0) parts.push(`${rowsWord(gone)} no longer on the service.`);
  const them = count === 1 ? 'it' : 'them';
  parts.push(
    deleteSupported
      ? `Delete ${them} on the service, or bring ${them} back.`
      : `The service does not allow deleting rows through its API: bring ${them} back (and delete ${them} in the service itself if you meant to).`,
  );
  return parts.join(' ');
}

/** The review of missing rows, once the service's rows are known. */
export function missingRowsReview(
  ids: readonly string[],
  base: BaseTable,
  found: ReadonlyMap<string, ServiceRow>,
  live: readonly ColumnSpec[],
  deleteSupported: boolean,
): MissingRowsReview {
  const rows = reviewedRows(ids.slice(0, MAX_REVIEW_ROWS), base, found, live);
  return {
    count: ids.length,
    rows,
    deleteSupported,
    message: reviewMessage(ids.length, rows, deleteSupported),
  };
}
