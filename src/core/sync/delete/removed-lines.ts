// Lines of rows removed on the service (a pull marked them, never deleted them): a person may remove
// them in one action, after a confirmation that says what else on those lines goes with them (their
// own columns). The lines are found again by row id right before the sheet rows are deleted.
import type { RemovedLine, RemovedLinesReview, RemoveLinesResult } from '../../../shared/types';
import { liveColumns } from '../../columns';
import { headerText, ID_HEADER, readLayout } from '../../layout';
import { cellText, indexLines, sheetRowOf } from '../../lines';
import type { LinkRecord } from '../../records';
import { isRemovedStatus, REMOVED_STATUSES } from '../../status';
import type { SyncPorts } from '../ports';
import { MAX_REVIEW_ROWS } from './missing-rows';
import { namedTitles } from './wording';

/**
 * The lines whose status says their row was removed on the service (lines sharing an id aside), with
 * the person's own columns that hold values on them and on how many.
 */
export function reviewRemovedLines(ports: SyncPorts, link: LinkRecord): RemovedLinesReview {
  const sheet = ports.openSheet();
  const table = ports.service.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const { headers, grid } = sheet.readLines();
  const layout = readLayout(headers, live, link.deletedColumnIds);
  const lines: RemovedLine[] = [];
  const ownCounts = new Map<number, number>();
  const statusColumn = layout.status;
  if (statusColumn !== undefined && layout.fixed.get(ID_HEADER) !== undefined) {
    const index = indexLines(grid, layout);
    const titleColumns = live
      .filter((column) => column.kind === 'text')
      .map((column) => layout.columns.get(column.id))
      .filter((column): column is number => column !== undefined);
    for (const [rowId, line] of index.lineById) {
      if (index.duplicates.has(rowId) || !isRemovedStatus(grid.get(line, statusColumn))) continue;
      const title = titleColumns
        .map((column) => cellText(grid.get(line, column)))
        .find((text) => text !== '');
      lines.push({ rowId, row: sheetRowOf(line), title: title ?? `row ${rowId}` });
      for (const column of layout.own) {
        if (cellText(grid.get(line, column)) !== '') ownCounts.set(column, (ownCounts.get(column) ?? 0) + 1);
      }
    }
  }
  lines.sort((a, b) => a.row - b.row);
  const ownValues = [...ownCounts].map(([column, count]) => ({
    header: headerText(layout.headers[column]) || `column ${column + 1}`,
    lines: count,
  }));
  return {
    count: lines.length,
    lines: lines.slice(0, MAX_REVIEW_ROWS),
    ownValues,
    message: removedLinesMessage(lines, ownValues),
  };
}

function linesWord(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}

/** What removing the lines takes with them, in one paragraph a confirmation shows. */
export function removedLinesMessage(
  lines: readonly RemovedLine[],
  ownValues: RemovedLinesReview['ownValues'],
): string {
  if (lines.length === 0) return 'No line of this sheet is marked as removed on the service.';
  const what = `${linesWord(lines.length)} of rows removed on the service (${namedTitles(lines)})`;
  const own =
    ownValues.length === 0
      ? 'None of your own columns holds a value on them.'
      : `Your own columns go with them: ${ownValues.map((each) => `${each.header} (${linesWord(each.lines)})`).join(', ')}.`;
  return `${what}. Removing ${lines.length === 1 ? 'it deletes that sheet row' : 'them deletes those sheet rows'}; nothing is sent to the service. ${own}`;
}

/**
 * Deletes the sheet rows of these rows' lines, each only where its line still carries that id and
 * still says its row was removed on the service; their base records go too.
 */
export function removeRemovedLines(ports: SyncPorts, rowIds: readonly string[]): RemoveLinesResult {
  const sheet = ports.openSheet();
  const base = ports.base.read();
  const unique = [...new Set(rowIds)];
  const removed = sheet.deleteLines(unique.map((rowId) => ({ rowId, statuses: REMOVED_STATUSES })));
  for (const rowId of removed) base.delete(rowId);
  if (removed.length > 0) ports.base.write(base);
  const skipped = unique.length - removed.length;
  const parts = [removed.length === 0 ? 'No line was removed.' : `Removed ${linesWord(removed.length)}.`];
  if (skipped > 0)
    parts.push(
      `${linesWord(skipped)} kept: ${skipped === 1 ? 'it' : 'they'} changed since the review (another id or status); review again.`,
    );
  return { ok: skipped === 0, message: parts.join(' '), removed: removed.length, skipped };
}
