// Edits in columns deleted on the service. The sheet keeps such a column (its header still names it)
// and the base its agreed digests, so a cell a person changed there is an edit that can never be
// sent: a push sends the line's other edits and says which did not go, a pull keeps saying so, and the
// value stays in its cell.
import type { BaseRecord } from '../base';
import { cellDigest, listCellDigest } from '../codec';
import { deletedColumnEditReason } from '../status';

/**
 * The columns deleted on the service (id → sheet column) whose cell on a line differs from the agreed
 * value; null when none (most lines). A deleted column's kind is no longer known: a list agreed by its
 * choices is as good as by its text.
 */
export function deletedColumnEdits(
  deleted: ReadonlyMap<string, number>,
  cellAt: (column: number) => unknown,
  record: BaseRecord,
): string[] | null {
  let edited: string[] | null = null;
  for (const [columnId, column] of deleted) {
    const digest = record.digests[columnId];
    if (digest === undefined) continue;
    const value = cellAt(column);
    if (cellDigest(value) !== digest && listCellDigest(value) !== digest) {
      edited ??= [];
      edited.push(columnId);
    }
  }
  return edited;
}

/** Why a line's edits in columns deleted on the service are not sent (null: it has none). */
export function deletedColumnProblems(
  deleted: ReadonlyMap<string, number>,
  cellAt: (column: number) => unknown,
  record: BaseRecord,
): string[] | null {
  if (deleted.size === 0) return null;
  return deletedColumnEdits(deleted, cellAt, record)?.map(deletedColumnEditReason) ?? null;
}
