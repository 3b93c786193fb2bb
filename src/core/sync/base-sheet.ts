// The link's hidden base sheet as a run reads and writes it: read whole or lazily (ids and seen marks,
// records loaded on demand), written back in dirty spans, its seen marks apart. The platform finds or
// makes the sheet (BaseSheetCells.open); this decides what is read and written.
import {
  assertBaseIntact,
  BASE_HEADER_WIDTH,
  BASE_ID_COLUMN,
  BASE_RECORD_COLUMN,
  BASE_SEEN_COLUMN,
  baseHeaderRow,
  parseBaseColumnIds,
} from '../base';
import { BaseTable } from '../base-table';
import { SyncError } from '../errors';
import { sheetRowOf } from '../lines';
import type { BasePort, SheetReadOptions } from './ports';
import type { SheetCells } from './sheet-cells';

/** The link's base sheet, found or made by the platform. */
export interface BaseSheetCells {
  /** The sheet's name (messages name it). */
  readonly name: string;
  /** Whether the link has synced: a base missing then was deleted. */
  synced(): boolean;
  /** The base's cells; null when it does not exist and is not to be made (`create`). */
  open(create: boolean): SheetCells | null;
}

/** The BasePort of a base sheet. */
export function basePortOver(base: BaseSheetCells): BasePort {
  return {
    read: (reading) => readBase(base, reading),
    write: (table) => writeBase(base, table),
    writeSeen: (table) => writeSeen(base, table),
  };
}

/** Reading the base whole, seen marks included (push and resolve). */
const WHOLE: SheetReadOptions = { eagerUpTo: Number.POSITIVE_INFINITY, withSeen: true };

/**
 * Reads the base: whole (ids and records, one call) for a fresh pull, a push or a resolve, which need
 * every record (each listed row is merged against its record), whatever `eagerUpTo` says of the
 * lines; a continuing pull (`eagerUpTo` 0) reads its ids and seen marks, with whole records read in
 * spans on demand. A fresh pull has a new pull id, so older seen marks mean nothing to it and are not
 * read.
 */
export function readBase(base: BaseSheetCells, options: SheetReadOptions = WHOLE): BaseTable {
  const cells = base.open(false);
  // Gone after a sync: without it every difference would look like a change on both sides.
  if (!cells && base.synced()) throw baseSheetDeleted(base.name);
  if (cells && options.eagerUpTo > 0) return readWholeBase(cells, base.name, options.withSeen);
  const lastRow = cells ? cells.lastRow() : 0;
  if (!cells || lastRow === 0) return new BaseTable([], []);
  cells.noteContentSize(lastRow, BASE_HEADER_WIDTH);
  const count = lastRow - 1;
  if (count <= options.eagerUpTo) {
    const width = options.withSeen ? BASE_SEEN_COLUMN : BASE_RECORD_COLUMN;
    const values = cells.values(1, 1, lastRow, width);
    assertBaseIntact(values[0], idsOf(values), base.name);
    return new BaseTable(values.slice(1), parseBaseColumnIds(values[0]?.[BASE_RECORD_COLUMN - 1]));
  }
  const header = cells.values(1, 1, 1, BASE_HEADER_WIDTH)[0] ?? [];
  const columnIds = parseBaseColumnIds(header[BASE_RECORD_COLUMN - 1]);
  const ids = cells.values(2, BASE_ID_COLUMN, count, 1);
  assertBaseIntact(
    header,
    ids.map((row) => row[0]),
    base.name,
  );
  const seen = options.withSeen ? cells.values(2, BASE_SEEN_COLUMN, count, 1) : [];
  const rows = ids.map((row, i) => [row[0], seen[i]?.[0] ?? '']);
  const loader = (first: number, n: number): unknown[][] =>
    cells.values(sheetRowOf(first), 1, n, BASE_HEADER_WIDTH);
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
function readWholeBase(cells: SheetCells, sheetName: string, withSeen: boolean): BaseTable {
  const width = withSeen ? BASE_SEEN_COLUMN : BASE_RECORD_COLUMN;
  const values = cells.columnValues(1, width);
  cells.noteGridRows(values.length);
  let lastRow = values.length;
  while (lastRow > 0 && (values[lastRow - 1] as unknown[]).every((cell) => cell === '' || cell === null)) {
    lastRow -= 1;
  }
  if (lastRow === 0) return new BaseTable([], []);
  cells.noteContentSize(lastRow, width);
  assertBaseIntact(values[0], idsOf(values.slice(0, lastRow)), sheetName);
  return new BaseTable(values.slice(1, lastRow), parseBaseColumnIds(values[0]?.[BASE_RECORD_COLUMN - 1]));
}

/** Writes a pull's seen marks (only needed when it continues in another execution). */
function writeSeen(base: BaseSheetCells, table: BaseTable): void {
  const spans = table.takeSeenSpans();
  if (spans.length === 0) return;
  const cells = base.open(true) as SheetCells;
  for (const span of spans) cells.write(sheetRowOf(span.start), BASE_SEEN_COLUMN, span.values);
}

/** Writes the base's dirty records, and its header row when its digest columns changed. */
function writeBase(base: BaseSheetCells, table: BaseTable): void {
  const spans = table.takeDirtySpans();
  if (spans.length === 0 && !table.headerChanged) return;
  const cells = base.open(true) as SheetCells;
  if (table.headerChanged) {
    // New digest columns (a first pull adds them all): the header row lists them.
    cells.write(1, 1, [baseHeaderRow(table.columnIds)]);
    table.headerChanged = false;
  }
  for (const span of spans) {
    const firstRow = sheetRowOf(span.start);
    // Rows are plain text from the start (the platform makes the sheet so); rows added later get it
    // as they come.
    const inserted = cells.ensureRows(firstRow + span.rows.length - 1);
    if (inserted) cells.setPlainText([[inserted[0], 1, inserted[1], BASE_HEADER_WIDTH]]);
    const firstColumn = span.withIds ? BASE_ID_COLUMN : BASE_RECORD_COLUMN;
    // Each row is BASE_WRITTEN_WIDTH - firstColumn + 1 cells wide: the record, and its id with it.
    cells.write(firstRow, firstColumn, span.rows);
  }
}
