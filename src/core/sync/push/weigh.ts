// A live push names only the lines its edit fired for, but an accident is a column's: a column sorted
// alone moves values on every line, and whether the sort fired an edit is UNCONFIRMED (apps-script-facts
// §13, §14), so each keystroke after it would send its own line's moved value under the guard's
// threshold. So the columns a live push would send are weighed over the whole sheet against the base.
// Free where the firing read the sheet whole; on a larger sheet, a column is read whole only when the
// push changes it where the firing's edit named no cell (a change that fired no edit of its own).
import { cellDigest, cellDigestFor, decodeCell, isCutCell, type JsonValue } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { cellText } from '../../lines';
import type { LinkedSheetPort } from '../ports';
import { GUARD_DISTINCT_SHARE, type GuardUpdate } from './guard';
import type { PushSession } from './session';
import type { TypedCells } from './typed-rows';

const EMPTY_DIGEST = cellDigest('');

/** The columns the push's plan changes (an edit of a line, or a value of a new line), by id. */
function plannedColumns(session: PushSession): string[] {
  const ids = new Set<string>();
  for (const update of session.plan.updates) for (const id of Object.keys(update.edits.values)) ids.add(id);
  for (const create of session.plan.creates) {
    for (const id of Object.keys(create.digests)) if (create.digests[id] !== EMPTY_DIGEST) ids.add(id);
  }
  return session.live
    .filter((column) => ids.has(column.id) && session.layout.columns.has(column.id))
    .map((c) => c.id);
}

/** Whether every line of the sheet is in the grid (a firing read a small sheet whole). */
export function holdsWholeSheet(session: PushSession): boolean {
  for (let line = 0; line < session.grid.length; line++) if (!session.grid.isLoaded(line)) return false;
  return true;
}

/**
 * Whether the push's changes of a column look like part of something done to the whole column: a
 * change the firing's edit did not name (a sort, fill down, find and replace or undo that fired no
 * edit of its own; or a line another firing left), or a new line carrying a value another row had
 * (sorted onto it, in a column of mostly distinct values, as the guard's moved rule).
 */
function looksMoved(session: PushSession, columnId: string, typed: TypedCells | undefined): boolean {
  const at = session.layout.columns.get(columnId) ?? -1;
  const named = (line: number): boolean =>
    typed?.lines.includes(line) === true && at >= typed.firstColumn && at <= typed.lastColumn;
  for (const update of session.plan.updates) {
    if (Object.prototype.hasOwnProperty.call(update.edits.values, columnId) && !named(update.line))
      return true;
  }
  const values = session.plan.creates
    .map((create) => create.digests[columnId])
    .filter((digest): digest is Digest => digest !== undefined && digest !== EMPTY_DIGEST);
  if (values.length === 0) return false;
  const counts = new Map<Digest, number>();
  let records = 0;
  for (const record of session.base.all()) {
    const digest = record.digests[columnId];
    if (digest === undefined) continue;
    records++;
    counts.set(digest, (counts.get(digest) ?? 0) + 1);
  }
  return counts.size >= GUARD_DISTINCT_SHARE * records && values.some((digest) => counts.has(digest));
}

/**
 * The columns of a live push to weigh over the whole sheet: every column it changes when the sheet is
 * in the grid already; otherwise those whose changes look like part of a whole column's (looksMoved):
 * a keystroke typed into a line reads no more than before.
 */
export function columnsToWeigh(
  session: PushSession,
  wholeSheet: boolean,
  typed?: TypedCells | undefined,
): string[] {
  const planned = plannedColumns(session);
  return wholeSheet ? planned : planned.filter((columnId) => looksMoved(session, columnId, typed));
}

/** A column's cells over the whole sheet, line by line as read, with the id cell of each line. */
export interface WholeColumns {
  ids: readonly unknown[];
  /** By column id: the cell of each line (same order as `ids`). */
  cells: ReadonlyMap<string, readonly unknown[]>;
}

/** The weighed columns' cells as the grid holds them (a sheet read whole). */
export function columnsFromGrid(session: PushSession, columnIds: readonly string[]): WholeColumns {
  const { grid, idColumn, layout } = session;
  const ids: unknown[] = [];
  const cells = new Map<string, unknown[]>(columnIds.map((id) => [id, []]));
  for (let line = 0; line < grid.length; line++) {
    ids.push(grid.get(line, idColumn));
    for (const id of columnIds) cells.get(id)?.push(grid.get(line, layout.columns.get(id) as number));
  }
  return { ids, cells };
}

/**
 * The changes of the weighed columns on the lines the push does not plan, as the guard takes them:
 * per synced row (its id on one line only, known to the base) whose cell no longer matches the base.
 * Each keeps its line in the run's numbering (found by id), so it names the same line as the plan's.
 */
export function widerUpdates(session: PushSession, whole: WholeColumns): GuardUpdate[] {
  const planned = new Set(session.plan.updates.map((update) => update.rowId));
  const seen = new Map<string, number>();
  for (const id of whole.ids) seen.set(cellText(id), (seen.get(cellText(id)) ?? 0) + 1);
  const columns = session.live.filter((column) => whole.cells.has(column.id));
  const updates: GuardUpdate[] = [];
  whole.ids.forEach((idCell, i) => {
    const rowId = cellText(idCell);
    const line = session.index.lineById.get(rowId);
    const base = session.base.get(rowId);
    if (rowId === '' || planned.has(rowId) || seen.get(rowId) !== 1 || session.index.duplicates.has(rowId))
      return;
    if (line === undefined || !base) return;
    const edits = changedCells(session, columns, whole, i, base.digests);
    if (edits) updates.push({ line, rowId, base, edits });
  });
  return updates;
}

/** The weighed cells of line `i` that differ from the base, decoded (null when none). */
function changedCells(
  session: PushSession,
  columns: readonly ColumnSpec[],
  whole: WholeColumns,
  i: number,
  digests: Readonly<Record<string, Digest>>,
): GuardUpdate['edits'] | null {
  let edits: GuardUpdate['edits'] | null = null;
  for (const column of columns) {
    const cell = whole.cells.get(column.id)?.[i] ?? '';
    const baseDigest = digests[column.id];
    const digest = cellDigestFor(cell, column.kind);
    if (baseDigest === undefined || digest === baseDigest || isCutCell(cell)) continue;
    const decoded = decodeCell(cell, column, session.decode);
    if (!decoded.ok) continue;
    edits ??= {
      values: Object.create(null) as Record<string, JsonValue>,
      digests: Object.create(null),
      errors: [],
    };
    edits.values[column.id] = decoded.value;
    edits.digests[column.id] = digest;
  }
  return edits;
}

/**
 * The changes, on lines a live push does not send, of the columns it would change, for the guard to
 * weigh with its own: from the grid when it holds the whole sheet, else read whole (the id column
 * with them) where the push's own changes look like part of a whole column's.
 */
export function weighedLines(
  session: PushSession,
  sheet: LinkedSheetPort,
  typed: TypedCells | undefined,
): GuardUpdate[] {
  const whole = holdsWholeSheet(session);
  const columnIds = columnsToWeigh(session, whole, typed);
  if (columnIds.length === 0) return [];
  if (whole) return widerUpdates(session, columnsFromGrid(session, columnIds));
  const at = columnIds.map((id) => session.layout.columns.get(id) as number);
  const [ids = [], ...cells] = sheet.readColumns([session.idColumn, ...at]);
  return widerUpdates(session, { ids, cells: new Map(columnIds.map((id, i) => [id, cells[i] ?? []])) });
}
