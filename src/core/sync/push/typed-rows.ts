// What a live push reads before it knows the edits: the header, id and status columns and its lines
// (readPushedLines), then the schema with the rows of the lines the edit event named, when the typed
// cells include a synced column (schemaWithTypedRows).
import type { BaseTable } from '../../base-table';
import { ALL_FIXED_FIELDS, headerText, ID_HEADER, readLayout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellText, indexLines } from '../../lines';
import type { LinkRecord } from '../../records';
import type { LinkedSheetPort, RowAnswer, ServiceTable, SyncPorts } from '../ports';

/** Lines a live push reads whole at most when the sheet is small (one read is then cheapest). */
const LINES_PUSH_EAGER_MAX = 200;

/** The cells an edit event named: its lines (0-based) and sheet columns (0-based, inclusive). */
export interface TypedCells {
  lines: readonly number[];
  firstColumn: number;
  lastColumn: number;
}

/** The sheet as read before the schema, and the typed cells. */
export interface TypedRowsInput {
  grid: LineGrid;
  headers: readonly unknown[];
  base: BaseTable;
  typed: TypedCells | undefined;
}

/** Rows read with the schema at most: with it, one fetchAll round of 10. */
export const TYPED_ROWS_WITH_SCHEMA = 9;

/**
 * The row ids of the typed lines whose check can ride with the schema: lines with an id the base
 * knows and no other line shows, when a typed column's header is one the base follows (a synced
 * column). Cells typed only in a person's own columns send nothing, so no row is read for them; a
 * line whose typed value turns out unchanged costs its row's read (one request of the same round).
 */
export function typedRowIds(input: TypedRowsInput, max: number): string[] {
  const { grid, headers, base, typed } = input;
  if (!typed) return [];
  const layout = readLayout(headers, []);
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return [];
  const synced = new Set(base.columnIds);
  let typedSynced = false;
  for (let column = Math.max(0, typed.firstColumn); column <= typed.lastColumn; column++) {
    if (column >= headers.length) break;
    if (synced.has(headerText(headers[column]))) typedSynced = true;
  }
  if (!typedSynced) return [];
  const { duplicates } = indexLines(grid, layout);
  const rowIds: string[] = [];
  for (const line of typed.lines) {
    if (rowIds.length >= max) break;
    if (line < 0 || line >= grid.length) continue;
    const rowId = cellText(grid.get(line, idColumn));
    if (rowId === '' || duplicates.has(rowId) || !base.has(rowId) || rowIds.includes(rowId)) continue;
    rowIds.push(rowId);
  }
  return rowIds;
}

/**
 * The header, the id and status columns, and the pushed lines whole, read before the schema (the id
 * and status columns are found by their headers alone): a small sheet, or every line, in one read.
 */
export function readPushedLines(
  sheet: LinkedSheetPort,
  base: BaseTable,
  options: { lines: readonly number[]; everyLine?: boolean | undefined },
): { headers: unknown[]; grid: LineGrid; wanted: number[] } {
  const { headers, grid } = sheet.readLinesForPull((read) => readLayout(read, []), {
    eagerUpTo: options.everyLine ? Number.POSITIVE_INFINITY : LINES_PUSH_EAGER_MAX,
    withSeen: false,
    expectedLines: base.size,
    lines: options.lines,
    // The synced columns, fixed fields and the status (a person's own columns widen it).
    expectedWidth: base.columnIds.length + ALL_FIXED_FIELDS.length + 1,
  });
  const wanted = options.everyLine
    ? Array.from({ length: grid.length }, (_, line) => line)
    : options.lines.filter((line) => line >= 0 && line < grid.length);
  // Loaded before any wait: the lines are where they were read.
  grid.ensureLoaded(wanted);
  return { headers, grid, wanted };
}

/**
 * The schema, with the typed lines' rows when the service reads both in one round. An answer that is
 * neither the row nor "not found" (a fault, a limit) is not kept: the row is read again after it.
 */
export function schemaWithTypedRows(
  ports: SyncPorts,
  link: LinkRecord,
  read: TypedRowsInput,
): { table: ServiceTable; checked: Map<string, RowAnswer> } {
  const rowIds = ports.service.tableAndRowsByIds ? typedRowIds(read, TYPED_ROWS_WITH_SCHEMA) : [];
  if (rowIds.length === 0 || !ports.service.tableAndRowsByIds)
    return { table: ports.service.table(link.tableAppId, link.tableId), checked: new Map() };
  const { table, rows } = ports.service.tableAndRowsByIds(link.tableAppId, link.tableId, rowIds);
  const checked = new Map<string, RowAnswer>();
  rows.forEach((answer, i) => {
    if (answer.ok || answer.error.code === 'NOT_FOUND') checked.set(rowIds[i] as string, answer);
  });
  return { table, checked };
}
