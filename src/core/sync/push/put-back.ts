// "Put the service's values back" after a held push: the cells the push held get the service's value
// again, found by row id and column right before writing; a cell changed since the hold is left and said.

import type { LineIssue } from '../../../shared/types';
import type { BaseTable } from '../../base-table';
import { cellDigestFor, encodeCell, valueDigest } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { SyncError } from '../../errors';
import { cellsByGet, sheetRowOf } from '../../lines';
import type { LinkRecord } from '../../records';
import { keptLocalStatus, notPushedStatus, putBackStatus } from '../../status';
import { collectIssues, emptyTally, type IssueTally } from '../issues';
import { readLinkedLines } from '../linked-lines';
import type { ServiceRow, SyncPorts } from '../ports';
import type { HeldCell } from './hold';
import { cellEdits } from './line-edits';

/** Rows per page of a listing: fewer held rows than pages are read one by one. */
const LISTING_PAGE_ROWS = 100;

/** A held cell left as it is, and why. */
export interface LeftCell {
  /** 1-based sheet row, or null when the row has no line in the sheet. */
  row: number | null;
  rowId: string;
  columnId: string;
  why: string;
}

export interface PutBackResult {
  /** Cells that hold the service's value again. */
  restored: number;
  /** Lines they are on. */
  lines: number;
  left: LeftCell[];
  issues: LineIssue[];
  tally: IssueTally;
}

/**
 * Writes the service's current value into each held cell that still holds what the push held, and
 * touches nothing else: a cell changed since (before this run read it, or while it wrote) keeps the
 * person's value and is listed in `left`, as are cells whose line, header or row is gone. A line
 * left with no edits says the service's values are back; one with other edits says they wait.
 */
export function runPutBack(ports: SyncPorts, link: LinkRecord, held: readonly HeldCell[]): PutBackResult {
  const { sheet, live, grid, base, layout, index } = readLinkedLines(ports, link);
  const columns = new Map(live.map((column) => [column.id, column]));
  const left: LeftCell[] = [];
  const leave = (cell: HeldCell, line: number | undefined, why: string): void => {
    left.push({
      row: line === undefined ? null : sheetRowOf(line),
      rowId: cell.rowId,
      columnId: cell.columnId,
      why,
    });
  };

  // Which held cells can be put back, judged on the sheet as read: the service is asked only for those.
  const toWrite: Array<{ cell: HeldCell; line: number; column: ColumnSpec; at: number }> = [];
  for (const cell of held) {
    const line = index.lineById.get(cell.rowId);
    const column = columns.get(cell.columnId);
    const at = layout.columns.get(cell.columnId);
    if (line === undefined) leave(cell, undefined, 'its line is no longer in the sheet');
    else if (index.duplicates.has(cell.rowId)) leave(cell, line, 'its row id is on more than one line');
    else if (!column || at === undefined)
      leave(cell, line, `the column "${cell.columnId}" is not in the sheet`);
    else if (cellDigestFor(grid.get(line, at), column.kind) !== cell.digest)
      leave(cell, line, 'changed since the push held it');
    else toWrite.push({ cell, line, column, at });
  }
  const rows = serviceRowsOf(ports, link, [...new Set(toWrite.map((each) => each.cell.rowId))], base.size);

  const restoredByLine = new Map<number, { rowId: string; columnIds: string[] }>();
  let restored = 0;
  for (const { cell, line, column, at } of toWrite) {
    const row = rows.get(cell.rowId);
    if (!row) {
      leave(cell, line, 'the row is no longer on the service');
      continue;
    }
    const value = Object.prototype.hasOwnProperty.call(row, cell.columnId) ? row[cell.columnId] : null;
    grid.set(line, at, encodeCell(value, column.kind).write);
    agreeOn(base, cell.rowId, cell.columnId, valueDigest(value, column.kind));
    restored += 1;
    const onLine = restoredByLine.get(line) ?? { rowId: cell.rowId, columnIds: [] };
    onLine.columnIds.push(cell.columnId);
    restoredByLine.set(line, onLine);
  }
  if (layout.status !== undefined) {
    const at = live.map((column) => layout.columns.get(column.id) ?? -1);
    const decode = sheet.decodeContext();
    for (const [line, { rowId, columnIds }] of restoredByLine) {
      const record = base.get(rowId);
      const edits = record ? cellEdits(cellsByGet(grid, line, at), at, record, live, decode) : null;
      const waiting = edits ? Object.keys(edits.values) : [];
      const status =
        edits && edits.errors.length > 0
          ? notPushedStatus(edits.errors)
          : waiting.length > 0
            ? keptLocalStatus(waiting)
            : putBackStatus(columnIds);
      grid.set(line, layout.status, status);
    }
  }
  sheet.writeLines(grid, layout, live, 'synced');
  ports.base.write(base);
  // A cell a person changed while this run wrote is theirs: kept, and said.
  const columnAt = new Map([...layout.columns].map(([columnId, at]) => [at, columnId]));
  for (const kept of grid.takeKept()) {
    const columnId = columnAt.get(kept.column);
    const onLine = restoredByLine.get(kept.line);
    if (columnId === undefined || !onLine?.columnIds.includes(columnId)) continue;
    left.push({
      row: sheetRowOf(kept.line),
      rowId: onLine.rowId,
      columnId,
      why: 'changed while the values were put back',
    });
    restored -= 1;
  }
  const tally = emptyTally();
  const issues = collectIssues({ grid, layout }, 200, tally);
  return { restored, lines: restoredByLine.size, left, issues, tally };
}

/**
 * The cell now shows the service's value: that column is agreed at it (the service may have changed it
 * since the base), so it is no edit; the row's lMod stays, as a pull's does until every column agrees.
 */
function agreeOn(base: BaseTable, rowId: string, columnId: string, digest: Digest): void {
  const record = base.get(rowId);
  if (!record || record.digests[columnId] === digest) return;
  const digests: Record<string, Digest> = Object.assign(Object.create(null), record.digests);
  digests[columnId] = digest;
  base.set({ ...record, digests });
}

/** The service's rows of these ids now: one GET each when fewer than a listing's pages, else a listing. */
function serviceRowsOf(
  ports: SyncPorts,
  link: LinkRecord,
  rowIds: readonly string[],
  knownRows: number,
): Map<string, ServiceRow> {
  const rows = new Map<string, ServiceRow>();
  if (rowIds.length === 0) return rows;
  if (rowIds.length <= Math.ceil(knownRows / LISTING_PAGE_ROWS)) {
    ports.service.rowsByIds(link.tableAppId, link.tableId, rowIds).forEach((answer, i) => {
      if (answer.ok) rows.set(rowIds[i] as string, answer.row);
      else if (answer.error.code !== 'NOT_FOUND') throw answer.error;
    });
    return rows;
  }
  const wanted = new Set(rowIds);
  const listing = ports.service.listAllRows(link.tableAppId, link.tableId, {
    expectedTotal: knownRows,
    onPage: (page) => {
      for (const row of page) if (wanted.has(String(row.id))) rows.set(String(row.id), row);
    },
  });
  if (!listing.done) {
    throw new SyncError(
      'TIME',
      "Ran out of time while reading the table; nothing was put back. Choose Put the service's values back again.",
    );
  }
  return rows;
}

/** The sentence a person reads after putting the service's values back. */
export function putBackMessage(result: Pick<PutBackResult, 'restored' | 'lines' | 'left'>): string {
  const cells = (count: number): string => `${count} ${count === 1 ? 'cell' : 'cells'}`;
  const done =
    result.restored > 0
      ? `Put the service's values back into ${cells(result.restored)} on ${result.lines} ${result.lines === 1 ? 'line' : 'lines'}; nothing was sent.`
      : 'No held cell was put back; nothing was sent.';
  if (result.left.length === 0) return done;
  const shown = result.left
    .slice(0, 5)
    .map(
      (each) =>
        `${each.row === null ? `row ${each.rowId}` : `row ${each.row}`} ${each.columnId} (${each.why})`,
    )
    .join('; ');
  const more = result.left.length > 5 ? `; and ${result.left.length - 5} more` : '';
  return `${done} Left as they are: ${cells(result.left.length)} — ${shown}${more}. Push to send them, or change them by hand.`;
}
