// Conflicts, start to end: the lines in conflict in detail for a person to decide, and settling the
// chosen ones (keep mine, or take theirs). The sequence over the ports; the rules are ../resolve.ts.

import type { ConflictLine, LineIssue } from '../../../shared/types';
import { type DecodeContext, encodeCell, isDateLike } from '../../codec';
import { titleColumnOf } from '../../columns';
import { sheetRowOf } from '../../lines';
import type { Member } from '../../members';
import type { LinkRecord } from '../../records';
import { isConflictStatus } from '../../status';
import { collectIssues, emptyTally, type IssueTally } from '../issues';
import { readLinkedLines } from '../linked-lines';
import type { SyncPorts } from '../ports';
import { type KeepChoice, resolveConflictLines } from './resolve-conflicts';

/** Lines listed at most: more conflicts than this are settled with "for all". */
export const MAX_CONFLICT_LINES = 50;

/** What settling conflicts did. */
export interface ResolveResult {
  /** Lines settled. */
  lines: number;
  /** A pull must follow (a service value too large for the base was not kept). */
  pullAfter: boolean;
  issues: LineIssue[];
  tally: IssueTally;
}

/**
 * Settles the chosen lines in conflict (all when `rowIds` is null): reads the schema, the sheet and
 * the base, applies the choice (resolveConflictLines) and writes both back.
 */
export function runResolve(
  ports: SyncPorts,
  link: LinkRecord,
  keep: KeepChoice,
  rowIds: ReadonlySet<string> | null,
): ResolveResult {
  const { sheet, live, grid, base, layout, index } = readLinkedLines(ports, link);
  const resolved = resolveConflictLines({ grid, layout, live, base, index, keep, rowIds });
  sheet.writeLines(grid, layout, live, 'synced');
  ports.base.write(base);
  const tally = emptyTally();
  const issues = collectIssues({ grid, layout }, 200, tally);
  return { lines: resolved.lines, pullAfter: resolved.pullAfter, issues, tally };
}

/**
 * The lines in conflict (up to MAX_CONFLICT_LINES), each with its title as the sheet shows it (the
 * value of titleColumnOf), the conflicting cells' two values and who changed the row on the service
 * and when. Names come from the account's members; a person the
 * list does not show stays as their id.
 */
export function conflictDetails(ports: SyncPorts, link: LinkRecord): ConflictLine[] {
  const { sheet, live, grid, base, layout, index } = readLinkedLines(ports, link);
  const dates = sheet.decodeContext();
  const titleColumn = titleColumnOf(live);
  const titleAt = titleColumn === undefined ? undefined : layout.columns.get(titleColumn.id);
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
    const title = titleAt === undefined ? '' : shown(grid.get(line, titleAt), dates).trim();
    lines.push({
      row: sheetRowOf(line),
      rowId,
      title: title === '' ? null : clipTitle(title),
      changedBy: conflict.by ?? null,
      changedAt: conflict.lMod,
      cells,
    });
  }
  lines.sort((a, b) => a.row - b.row);
  nameWhoChanged(ports, lines);
  return lines;
}

const TITLE_CHARS = 60;

/** A row's title on one short line: line breaks flattened, long text cut with an ellipsis. */
function clipTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1)}…`;
}

/** A cell as the person sees it: a date typed into a cell in the spreadsheet's time zone. */
function shown(value: unknown, dates: DecodeContext): string {
  if (value === null || value === undefined) return '';
  if (isDateLike(value)) return dates.formatDate(value);
  return String(value);
}

function personName(person: Member): string {
  const name = `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
  if (name && person.emailId) return `${name} <${person.emailId}>`;
  return name || String(person.emailId || person.id);
}

/** Replaces the ids of who changed each row by their names (one members read, only when needed). */
function nameWhoChanged(ports: SyncPorts, lines: ConflictLine[]): void {
  const ids = new Set(lines.map((each) => each.changedBy).filter((id): id is string => id !== null));
  if (ids.size === 0) return;
  const names = new Map<string, string>();
  try {
    for (const person of ports.service.allPeople()) names.set(String(person.id), personName(person));
  } catch {
    // Without the members list the ids still say who it was.
  }
  for (const each of lines) if (each.changedBy) each.changedBy = names.get(each.changedBy) ?? each.changedBy;
}
