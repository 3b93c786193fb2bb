// The link's hidden base sheet: found or made once per execution, read whole or lazily, and written
// back in dirty spans. Invariant: only this add-on makes a base sheet, under the document lock, so a
// base found absent stays absent for the rest of the execution.

import {
  assertBaseIntact,
  BASE_HEADER_WIDTH,
  BASE_ID_COLUMN,
  BASE_RECORD_COLUMN,
  BASE_SEEN_COLUMN,
  BASE_WRITTEN_WIDTH,
  baseHeaderRow,
  parseBaseColumnIds,
} from '../core/base';
import { BaseTable } from '../core/base-table';
import { SyncError } from '../core/errors';
import { columnLetters } from '../core/layout';
import { sheetRowOf } from '../core/lines';
import type { SheetReadOptions } from '../core/sync/ports';
import { activeSpreadsheet } from './active';
import { execution } from './execution';
import { ensureRows, noteContentSize, noteGridRows } from './grid-size';
import { setPlainText } from './plain-text';
import { insertHiddenSheet } from './sheets';
import type { LinkRecord } from './stores';

/** Reading the base whole, seen marks included (push and resolve). */
const WHOLE: SheetReadOptions = { eagerUpTo: Number.POSITIVE_INFINITY, withSeen: true };

/**
 * Reads the base: whole (ids and records, one call) for a fresh pull, a push or a resolve, which need
 * every record (each listed row is merged against its record), whatever `eagerUpTo` says of the
 * lines; a continuing pull (`eagerUpTo` 0) reads its ids and seen marks, with whole records read in
 * spans on demand. A fresh pull has a new pull id, so older seen marks mean nothing to it and are not
 * read.
 */
export function readBase(link: LinkRecord, options: SheetReadOptions = WHOLE): BaseTable {
  const sheet = baseSheetOf(link, false);
  // Gone after a sync: without it every difference would look like a change on both sides.
  if (!sheet && link.lastSyncAt) throw baseSheetDeleted(link.baseSheetName);
  if (sheet && options.eagerUpTo > 0) return readWholeBase(sheet, link.baseSheetName, options.withSeen);
  const lastRow = sheet ? sheet.getLastRow() : 0;
  if (!sheet || lastRow === 0) return new BaseTable([], []);
  noteContentSize(sheet, lastRow, BASE_HEADER_WIDTH);
  const count = lastRow - 1;
  if (count <= options.eagerUpTo) {
    const width = options.withSeen ? BASE_SEEN_COLUMN : BASE_RECORD_COLUMN;
    const values = sheet.getRange(1, 1, lastRow, width).getValues() as unknown[][];
    assertBaseIntact(values[0], idsOf(values), link.baseSheetName);
    return new BaseTable(values.slice(1), parseBaseColumnIds(values[0]?.[BASE_RECORD_COLUMN - 1]));
  }
  const header = sheet.getRange(1, 1, 1, BASE_HEADER_WIDTH).getValues()[0] ?? [];
  const columnIds = parseBaseColumnIds(header[BASE_RECORD_COLUMN - 1]);
  const ids = sheet.getRange(2, BASE_ID_COLUMN, count, 1).getValues();
  assertBaseIntact(
    header,
    [header, ...ids].slice(1).map((row) => row[0]),
    link.baseSheetName,
  );
  const seen = options.withSeen ? sheet.getRange(2, BASE_SEEN_COLUMN, count, 1).getValues() : [];
  const rows = ids.map((row, i) => [row[0], seen[i]?.[0] ?? '']);
  const loader = (first: number, n: number): unknown[][] =>
    sheet.getRange(sheetRowOf(first), 1, n, BASE_HEADER_WIDTH).getValues() as unknown[][];
  return new BaseTable(rows, columnIds, { loader });
}

function baseSheetDeleted(name: string): SyncError {
  return new SyncError(
    'CONFIG',
    `The add-on's hidden sheet "${name}", which remembers what this sheet and the service last agreed on, was deleted, so nothing was sent or written: without it your edits cannot be told from changes made on the service. Undo the deletion (Edit › Undo, or File › Version history) and run again; or unlink this sheet and link it again, and settle the differences the next pull shows as conflicts.`,
  );
}

/** The id cells of the record rows (every row after the first). */
function* idsOf(values: readonly unknown[][]): Generator<unknown> {
  for (let i = 1; i < values.length; i++) yield values[i]?.[BASE_ID_COLUMN - 1];
}

/**
 * Reads the base whole in one waiting call: its columns down to the grid's end (open-ended A1 range),
 * where asking its last row first would wait twice. The blank rows below the records cost a few cells
 * each; the read also tells the grid's row count, so growing the base asks nothing more.
 */
function readWholeBase(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  sheetName: string,
  withSeen: boolean,
): BaseTable {
  const width = withSeen ? BASE_SEEN_COLUMN : BASE_RECORD_COLUMN;
  const values = sheet.getRange(`A:${columnLetters(width)}`).getValues() as unknown[][];
  noteGridRows(sheet, values.length);
  let lastRow = values.length;
  while (lastRow > 0 && (values[lastRow - 1] as unknown[]).every((cell) => cell === '' || cell === null)) {
    lastRow -= 1;
  }
  if (lastRow === 0) return new BaseTable([], []);
  noteContentSize(sheet, lastRow, width);
  assertBaseIntact(values[0], idsOf(values.slice(0, lastRow)), sheetName);
  return new BaseTable(values.slice(1, lastRow), parseBaseColumnIds(values[0]?.[BASE_RECORD_COLUMN - 1]));
}

/**
 * The link's base sheet, made when absent and `create`. A base found absent is not asked for again
 * in the same execution (only this add-on makes it, under the document lock; should a sheet of that
 * hidden name appear meanwhile, inserting it fails loudly and nothing is written).
 */
export function baseSheetOf(link: LinkRecord, create: boolean): GoogleAppsScript.Spreadsheet.Sheet | null {
  const known = execution.baseSheets.get(link.baseSheetName);
  if (known) return known;
  if (execution.absentBaseSheets.has(link.baseSheetName) && !create) return null;
  const spreadsheet = activeSpreadsheet();
  let sheet = execution.absentBaseSheets.has(link.baseSheetName)
    ? null
    : spreadsheet.getSheetByName(link.baseSheetName);
  if (!sheet && create) {
    sheet = insertHiddenSheet(link.baseSheetName);
    // Plain text everywhere: ids, lMods and digests must never be parsed as numbers or dates. Whole
    // columns, so the grid's size need not be asked (rows inserted later get it as they come).
    sheet.getRange(`A:${columnLetters(BASE_HEADER_WIDTH)}`).setNumberFormat('@');
  }
  if (sheet) {
    execution.baseSheets.set(link.baseSheetName, sheet);
    execution.absentBaseSheets.delete(link.baseSheetName);
  } else execution.absentBaseSheets.add(link.baseSheetName);
  return sheet;
}

/** Forgets a base sheet this execution found (it is about to be deleted). */
export function forgetBaseSheet(link: LinkRecord): void {
  execution.baseSheets.delete(link.baseSheetName);
}

/** Writes this execution's seen marks (only needed when a pull continues in another execution). */
export function flushSeen(link: LinkRecord, base: BaseTable): void {
  const spans = base.takeSeenSpans();
  if (spans.length === 0) return;
  const sheet = baseSheetOf(link, true) as GoogleAppsScript.Spreadsheet.Sheet;
  for (const span of spans)
    sheet.getRange(sheetRowOf(span.start), BASE_SEEN_COLUMN, span.values.length, 1).setValues(span.values);
}

export function flushBase(link: LinkRecord, base: BaseTable): void {
  const spans = base.takeDirtySpans();
  if (spans.length === 0 && !base.headerChanged) return;
  const sheet = baseSheetOf(link, true) as GoogleAppsScript.Spreadsheet.Sheet;
  if (base.headerChanged) {
    // New digest columns (a first pull adds them all): the header row lists them.
    sheet.getRange(1, 1, 1, BASE_HEADER_WIDTH).setValues([baseHeaderRow(base.columnIds)]);
    base.headerChanged = false;
  }
  for (const span of spans) {
    const firstRow = sheetRowOf(span.start);
    // Rows are plain text from the start (see baseSheetOf); rows added later get it as they come.
    const inserted = ensureRows(sheet, firstRow + span.rows.length - 1);
    if (inserted) setPlainText(sheet, [[inserted[0], 1, inserted[1], BASE_HEADER_WIDTH]]);
    const firstColumn = span.withIds ? BASE_ID_COLUMN : BASE_RECORD_COLUMN;
    sheet
      .getRange(firstRow, firstColumn, span.rows.length, BASE_WRITTEN_WIDTH - firstColumn + 1)
      .setValues(span.rows);
  }
}
