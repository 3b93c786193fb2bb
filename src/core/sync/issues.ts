// The lines a run reports back: problem lines by kind from the status column, and the id-column guard
// every pull and push checks before matching lines to rows.

import type { LineIssue } from '../../shared/types';
import { SyncError } from '../errors';
import { columnLetters, ID_HEADER, type Layout } from '../layout';
import type { LineGrid } from '../line-grid';
import { sheetRowOf } from '../lines';
import { issueMessage, type ProblemKind, problemKind } from '../status';

/**
 * A sheet whose id column is gone (deleted or overwritten) cannot be matched to its rows: pulling
 * would add every row again and a push would create them all anew. Throws a SHEET error saying how to
 * repair when the "id" header is repeated, or missing while both the sheet and the base hold rows.
 */
export function assertIdColumn(layout: Layout, lines: number, baseRows: number): void {
  const repeated = layout.blocked.get(ID_HEADER);
  if (repeated) {
    throw new SyncError(
      'SHEET',
      `The header "id" is in columns ${repeated.map((index) => columnLetters(index + 1)).join(' and ')}, so lines cannot be matched to rows. Rename or delete the extra "id" column, then try again; nothing was changed.`,
    );
  }
  if (layout.fixed.has(ID_HEADER) || baseRows === 0 || lines === 0) return;
  throw new SyncError(
    'SHEET',
    'The id column of this sheet is missing, so lines cannot be matched to rows. Undo the change (Ctrl+Z) or restore the "id" header, then try again; nothing was changed.',
  );
}

/** How many lines of each kind the status column lists: the summary's counts match "Lines to check". */
export type IssueTally = Record<ProblemKind, number>;

/** A tally with every kind at zero (collectIssues adds to it). */
export function emptyTally(): IssueTally {
  return { conflict: 0, removed: 0, error: 0 };
}

/**
 * Lines whose status shows a conflict, an error or a removed row, in sheet order: the sidebar lists
 * them (up to `limit`); `tally`, when given, counts every such line of the sheet, past the limit too.
 * A sheet without a status column has none.
 */
export function collectIssues(
  state: { readonly grid: Pick<LineGrid, 'length' | 'get'>; readonly layout: Layout },
  limit = 200,
  tally?: IssueTally,
): LineIssue[] {
  const issues: LineIssue[] = [];
  const statusColumn = state.layout.status;
  const idColumn = state.layout.fixed.get(ID_HEADER);
  if (statusColumn === undefined) return issues;
  for (let line = 0; line < state.grid.length; line++) {
    if (issues.length >= limit && !tally) break;
    const status = state.grid.get(line, statusColumn);
    const kind = problemKind(status);
    if (kind === null) continue;
    if (tally) tally[kind] += 1;
    if (issues.length >= limit) continue;
    issues.push({
      row: sheetRowOf(line),
      rowId: idColumn === undefined ? '' : String(state.grid.get(line, idColumn)),
      kind,
      message: issueMessage(String(status)),
    });
  }
  return issues;
}
