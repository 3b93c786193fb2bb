// Settling conflicts a person decided: "Keep mine" agrees with the service's values so the cells are
// pushed as edits; "Take theirs" writes the service's values into the cells. Lines are named by row
// id, never by sheet row, so a sort since the person chose never settles another line.
import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import { cellDigestFor, encodeCell, valueDigest } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { SyncError } from '../../errors';
import { type Layout, LMOD_HEADER } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellText, type LineIndex } from '../../lines';
import { STATUS } from '../../status';
import { LModOwners, shownLMod } from '../line-identity';

export type KeepChoice = 'mine' | 'theirs';

/** The person's choice, or a message saying what to choose. */
export function keepChoiceOf(input: unknown): KeepChoice {
  const keep = (input as { keep?: unknown } | null | undefined)?.keep;
  if (keep !== 'mine' && keep !== 'theirs') throw new SyncError('CONFIG', 'Choose Keep mine or Take theirs.');
  return keep;
}

/** The row ids a person chose, or null (none named) for every line in conflict. */
export function chosenRowIds(input: unknown): ReadonlySet<string> | null {
  const rowIds = (input as { rowIds?: unknown } | null | undefined)?.rowIds;
  if (rowIds === undefined || rowIds === null) return null;
  if (!Array.isArray(rowIds)) {
    throw new SyncError('CONFIG', 'rowIds must be a list of row ids (or left out to settle every conflict).');
  }
  return rowIds.length > 0 ? new Set(rowIds.map(String)) : null;
}

export interface ResolveInput {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
  keep: KeepChoice;
  /** Rows to settle; null: every line in conflict. */
  rowIds: ReadonlySet<string> | null;
}

export interface Resolved {
  /** Lines settled. */
  lines: number;
  /**
   * Some service value was too large to keep in the base: its cell agrees with the base for now and
   * a pull must follow to bring the service's value in.
   */
  pullAfter: boolean;
}

/**
 * Settles the chosen lines in conflict (those whose base record holds a conflict), in the grid and
 * base. Either way the base takes the service's lMod and digests of the conflicting columns and the
 * conflict is gone. Keep mine: the cells stay, so they now read as edits and the status says they
 * are being pushed. Take theirs: the service's values go into the cells and the line is in sync.
 * Columns no longer in the table or the sheet are left alone, and so is a row id carried by two lines.
 */
export function resolveConflictLines(input: ResolveInput): Resolved {
  const { grid, layout, base, keep, rowIds } = input;
  const kinds = new Map(input.live.map((column) => [column.id, column.kind]));
  const resolved: Resolved = { lines: 0, pullAfter: false };
  const lModColumn = layout.fixed.get(LMOD_HEADER);
  const owners = new LModOwners(base);
  for (const [rowId, line] of input.index.lineById) {
    if (rowIds && !rowIds.has(rowId)) continue;
    // An id on two lines (a copied line): neither is known to be the row, so neither is settled.
    if (input.index.duplicates.has(rowId)) continue;
    const record = base.get(rowId);
    if (!record?.conflict) continue;
    // A line showing another row's lMod (id cells sorted or swapped) is not this row's: the service's
    // values would land on another row's line (team chaos seed 20240149).
    if (lModColumn !== undefined) {
      const lMod = cellText(grid.get(line, lModColumn));
      if (lMod !== shownLMod(record) && owners.belongsToAnotherRow(lMod, rowId)) continue;
    }
    const conflict = record.conflict;
    // A dictionary without a prototype: a column id such as "__proto__" stays an ordinary key.
    const digests: Record<string, Digest> = Object.assign(Object.create(null), record.digests);
    const columnIds = new Set([...Object.keys(conflict.theirs), ...Object.keys(conflict.digests ?? {})]);
    // A conflicting column of the table whose header is not in the sheet (renamed, cleared) cannot be
    // settled: the line keeps its conflict until the header is back (team chaos seed 20240168).
    if ([...columnIds].some((columnId) => kinds.has(columnId) && !layout.columns.has(columnId))) continue;
    for (const columnId of columnIds) {
      const kind = kinds.get(columnId);
      const column = layout.columns.get(columnId);
      if (kind === undefined || column === undefined) continue;
      const known = Object.prototype.hasOwnProperty.call(conflict.theirs, columnId);
      const theirDigest = conflict.digests?.[columnId] ?? valueDigest(conflict.theirs[columnId], kind);
      if (keep === 'mine') {
        digests[columnId] = theirDigest;
      } else if (known) {
        grid.set(line, column, encodeCell(conflict.theirs[columnId], kind).write);
        digests[columnId] = theirDigest;
      } else {
        // Too large to keep in the base: agree with the cell for now, so the next pull brings theirs.
        digests[columnId] = cellDigestFor(grid.get(line, column), kind);
        resolved.pullAfter = true;
      }
    }
    const settled: BaseRecord = { ...record, digests, lMod: conflict.lMod };
    delete settled.conflict;
    base.set(settled);
    if (layout.status !== undefined)
      grid.set(line, layout.status, keep === 'theirs' ? STATUS.inSync : STATUS.keepingMine);
    resolved.lines += 1;
  }
  return resolved;
}
