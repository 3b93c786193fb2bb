// The conflicts of the active sheet in detail, for a person to decide line by line: both values,
// who changed the row on the service and when.
import type { User } from '../api/types';
import { type DecodeContext, encodeCell, isDateLike } from '../core/codec';
import { liveColumns } from '../core/columns';
import { readLayout } from '../core/layout';
import { indexLines, sheetRowOf } from '../core/lines';
import { isConflictStatus } from '../core/status';
import type { ConflictLine } from '../shared/types';
import { activeSheetId } from './active';
import { readBase } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { knownDeletedColumnIds } from './headers';
import { clientFor, requireConnection, requireLink } from './operation';
import { readLines } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import { createUrlFetchPort } from './url-fetch-port';

/** Lines listed at most: more conflicts than this are settled with "for all". */
export const MAX_CONFLICT_LINES = 50;

/** A cell as the person sees it: a date typed into a cell in the spreadsheet's time zone. */
function shown(value: unknown, dates: DecodeContext): string {
  if (value === null || value === undefined) return '';
  if (isDateLike(value)) return dates.formatDate(value);
  return String(value);
}

function personName(user: User): string {
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  if (name && user.emailId) return `${name} <${user.emailId}>`;
  return name || String(user.emailId || user.id);
}

/**
 * The lines of the active sheet in conflict (up to MAX_CONFLICT_LINES), each with the conflicting
 * cells' two values and who changed the row on the service and when. Names come from the account's
 * members; a person the list does not show stays as their id.
 */
export function getConflicts(): ConflictLine[] {
  const link = requireLink(activeSheetId());
  const client = clientFor(requireConnection(), createUrlFetchPort());
  const sheet = requireLinkedSheet(link);
  const { headers, grid } = readLines(sheet);
  const table = client.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const base = readBase(link);
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  const index = indexLines(grid, layout);
  const dates = spreadsheetDecodeContext();
  const lines: ConflictLine[] = [];
  for (const [rowId, line] of index.lineById) {
    if (lines.length >= MAX_CONFLICT_LINES) break;
    const conflict = base.get(rowId)?.conflict;
    if (!conflict) continue;
    if (layout.status !== undefined && !isConflictStatus(grid.get(line, layout.status))) continue;
    const cells: ConflictLine['cells'] = [];
    const columnIds = new Set([...Object.keys(conflict.theirs), ...Object.keys(conflict.digests ?? {})]);
    for (const column of live) {
      if (!columnIds.has(column.id)) continue;
      const at = layout.columns.get(column.id);
      const known = Object.prototype.hasOwnProperty.call(conflict.theirs, column.id);
      cells.push({
        columnId: column.id,
        columnName: column.name,
        mine: at === undefined ? '' : shown(grid.get(line, at), dates),
        theirs: known ? String(encodeCell(conflict.theirs[column.id], column.kind).read) : null,
      });
    }
    lines.push({
      row: sheetRowOf(line),
      rowId,
      changedBy: conflict.by ?? null,
      changedAt: conflict.lMod,
      cells,
    });
  }
  lines.sort((a, b) => a.row - b.row);
  const ids = new Set(lines.map((each) => each.changedBy).filter((id): id is string => id !== null));
  if (ids.size > 0) {
    const names = new Map<string, string>();
    try {
      for (const user of client.allPeople()) names.set(String(user.id), personName(user));
    } catch {
      // Without the members list the ids still say who it was.
    }
    for (const each of lines)
      if (each.changedBy) each.changedBy = names.get(each.changedBy) ?? each.changedBy;
  }
  return lines;
}
