// Push planning, as pure logic over in-memory lines: which lines are edited (against the base), which
// are new, which cannot be sent and why; and how a create whose answer was lost is found again.
import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import type { DecodeContext, JsonValue } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { ID_HEADER, type Layout, LMOD_HEADER } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, cellText, type LineIndex, sheetRowOf } from '../../lines';
import {
  anotherRowsLineStatus,
  clearedIdStatus,
  conflictStatus,
  duplicateStatus,
  headerlessColumnsReason,
  isOutdatedWhenUnedited,
  notCreatedStatus,
  notPushedStatus,
  pendingRecordLostStatus,
  pendingTokenOf,
  STATUS,
  unknownRowStatus,
} from '../../status';
import { deletedColumnProblems } from '../deleted-columns';
import {
  holdsOnlyOwnValues,
  LModOwners,
  rowWhoseValuesItHolds,
  shownLMod,
  showsLMod,
} from '../line-identity';
import { type LineEdits, lineDigests, newCellValues } from '../line-values';
import { isPendingToken } from '../lost-creates';
import { NONE, type RowPool, rowsOf, rowStoodFor, type StandsFor } from '../unnamed-lines';
import { cellEdits } from './line-edits';

export interface UpdatePlan {
  line: number;
  rowId: string;
  base: BaseRecord;
  edits: LineEdits;
  /** Why some of the line's edits cannot go (a column deleted on the service): the others go. */
  notSent?: string[];
}

export interface CreatePlan {
  line: number;
  values: Record<string, JsonValue>;
  digests: Record<string, Digest>;
  /** Token of an earlier create whose answer was lost, if any. */
  pendingToken: string | null;
}

export interface PushPlan {
  updates: UpdatePlan[];
  creates: CreatePlan[];
  /** Lines that cannot be sent, with the status to show. */
  errors: Array<{ line: number; status: string }>;
  /** Lines whose read-only fixed-field cells were restored. */
  reverted: Array<{ line: number; fields: string[] }>;
  /**
   * Lines with nothing to send whose status from an earlier run (an error, a hold, edits not pushed
   * yet) no longer holds, with the status that does.
   */
  restated: Array<{ line: number; status: string }>;
  unchanged: number;
}

export interface PushState {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
  /** Synced columns without a header of their own (renamed, deleted, repeated): new lines wait. */
  headerless?: readonly string[];
  /** A push of some lines (live sync): only these are planned; the others are neither read nor sent. */
  only?: ReadonlySet<number>;
  /** New lines people are still typing: not created yet (live sync creates one once they move on). */
  typing?: readonly number[];
}

function expectedFixedValue(record: BaseRecord, field: string): string | undefined {
  const shown = record.shown?.[field];
  if (shown !== undefined) return String(shown);
  return field === 'lMod' ? record.lMod : undefined;
}

/** Sheet positions looked up once per plan, not per line. */
interface PlanColumns {
  idColumn: number | undefined;
  statusColumn: number | undefined;
  /** Sheet column of each live column (-1: not in the sheet). */
  at: number[];
  /** Fixed fields but the id, and their sheet columns. */
  fixedFields: string[];
  fixedColumns: number[];
  lModColumn: number | undefined;
  /** Which row shows which lMod (a line showing another row's is not the row its id names). */
  lModOwners: LModOwners;
  /** The cell digests of the line being planned (scratch, filled by lineDigests). */
  lineDigests: Array<Digest | undefined>;
  /** The rows a line whose id was cleared may be (rowsWithoutOwnLine), made on the first such line. */
  clearedIdPool?: RowPool;
}

function planColumns(layout: Layout, live: readonly ColumnSpec[], base: BaseTable): PlanColumns {
  const fixedFields: string[] = [];
  const fixedColumns: number[] = [];
  for (const [field, column] of layout.fixed) {
    if (field === ID_HEADER) continue;
    fixedFields.push(field);
    fixedColumns.push(column);
  }
  return {
    idColumn: layout.fixed.get(ID_HEADER),
    statusColumn: layout.status,
    at: live.map((column) => layout.columns.get(column.id) ?? -1),
    fixedFields,
    fixedColumns,
    lModColumn: layout.fixed.get(LMOD_HEADER),
    lModOwners: new LModOwners(base),
    lineDigests: new Array(live.length),
  };
}

/**
 * Reads every line once and sorts it into updates, creates, errors and unchanged lines. A line
 * without an id is a create (or nothing, when empty); a line with an id is an update of its row when
 * the base knows the row and the id is on no other line. Read-only fixed-field cells a person changed
 * are put back in the grid (and listed in `reverted`).
 */
export function planPush(state: PushState, context: DecodeContext): PushPlan {
  const { grid, layout, live } = state;
  const plan: PushPlan = { updates: [], creates: [], errors: [], reverted: [], restated: [], unchanged: 0 };
  const columns = planColumns(layout, live, state.base);
  const lines = state.only
    ? [...state.only].filter((line) => line < grid.length).sort((a, b) => a - b)
    : null;
  const count = lines ? lines.length : grid.length;
  for (let at = 0; at < count; at++) {
    const line = lines ? (lines[at] as number) : at;
    // The line's own cells when loaded whole (cellText reads a missing cell as '', like get).
    const cells = grid.lineCells(line);
    const { idColumn } = columns;
    const rowId = idColumn === undefined ? '' : cellText(cells ? cells[idColumn] : grid.get(line, idColumn));
    if (rowId === '') {
      if (!state.typing?.includes(line)) planNewLine(state, columns, context, plan, line, cells);
    } else planSyncedLine(state, columns, context, plan, line, cells, rowId);
  }
  return plan;
}

/**
 * Whether a new line holds nothing but unticked checkboxes: what Insert › Checkbox puts down a column
 * of empty lines. Not a value a person typed, so not a row to create.
 */
function onlyUntickedCheckboxes(values: Readonly<Record<string, JsonValue>>): boolean {
  return Object.values(values).every((value) => value === false);
}

/**
 * A line without an id: a create of its values, unless it is empty, holds only unticked checkboxes,
 * or a value cannot be sent.
 */
function planNewLine(
  state: PushState,
  columns: PlanColumns,
  context: DecodeContext,
  plan: PushPlan,
  line: number,
  cells: readonly unknown[] | undefined,
): void {
  const { grid, live } = state;
  const status = columns.statusColumn === undefined ? '' : grid.get(line, columns.statusColumn);
  const token = pendingTokenOf(status);
  if (token !== null && state.base.get(token) === undefined) {
    // A create went out, and its record (what it sent) went with the hidden base sheet: the row may
    // be on the service, and without the record it cannot be found. Held, never sent again.
    plan.errors.push({ line, status: pendingRecordLostStatus(token) });
    return;
  }
  const lineCells = cells ?? cellsByGet(grid, line, columns.at);
  const values = newCellValues(lineCells, columns.at, live, context);
  const headerless = state.headerless ?? [];
  const cleared = token === null ? rowOfClearedId(state, columns, line, lineCells, values.values) : NONE;
  if (cleared.kind !== 'none') {
    // Its id cell was cleared: the row is there already, and the next pull puts its id back.
    plan.errors.push({ line, status: clearedIdStatus(rowsOf(cleared), cleared.kind === 'row') });
  } else if (values.errors.length > 0) {
    plan.errors.push({ line, status: notCreatedStatus(values.errors) });
  } else if (Object.keys(values.values).length === 0 || onlyUntickedCheckboxes(values.values)) {
    // Nothing a person typed: not a row to create. A line once refused ("not created: …") and since
    // emptied says so no more.
    if (isOutdatedWhenUnedited(status)) plan.restated.push({ line, status: '' });
  } else if (headerless.length > 0 && token === null) {
    // A create sent now would lack the column whose header is gone (interleavings seed 1040): the
    // line waits. One already sent (its token named) is still looked for, never sent again.
    plan.errors.push({ line, status: notCreatedStatus([headerlessColumnsReason(headerless)]) });
  } else {
    plan.creates.push({ line, values: values.values, digests: values.digests, pendingToken: token });
  }
}

/**
 * The row a line without an id stands for when its id cell was cleared: its other fixed fields (and
 * values) name a row without a line of its own (rowStoodFor). None for a new line, and for a copy of a
 * line that is still there.
 */
function rowOfClearedId(
  state: PushState,
  columns: PlanColumns,
  line: number,
  cells: readonly unknown[],
  values: Readonly<Record<string, JsonValue>>,
): StandsFor {
  const fixed: Array<[string, string]> = [];
  for (let f = 0; f < columns.fixedFields.length; f++) {
    const text = cellText(state.grid.get(line, columns.fixedColumns[f] as number));
    if (text !== '') fixed.push([columns.fixedFields[f] as string, text]);
  }
  // A line showing no fixed field is a new line (its row, were it one, cannot be told).
  if (fixed.length === 0) return NONE;
  const hasValue = Object.keys(values).length > 0;
  const digests = lineDigests(cells, columns.at, state.live, columns.lineDigests);
  columns.clearedIdPool ??= rowsWithoutOwnLine(state, columns);
  const marks = { fixed, digests, hasValue, hasId: false };
  return rowStoodFor(marks, state.live, columns.lModOwners, columns.clearedIdPool);
}

/**
 * Rows that may be a line's whose id was cleared: no line shows their id, or the lines that do are not
 * theirs (their lMod is another row's, or several lines show the id). A line the push did not read
 * counts as not theirs: nothing of a line that may be theirs is created.
 */
function rowsWithoutOwnLine(state: PushState, columns: PlanColumns): RowPool {
  const { grid, base, index } = state;
  const has = (rowId: string): boolean => {
    if (isPendingToken(rowId)) return false;
    const line = index.lineById.get(rowId);
    if (line === undefined || index.duplicates.has(rowId) || !grid.isLoaded(line)) return true;
    const record = base.get(rowId);
    if (!record || columns.lModColumn === undefined) return false;
    const lMod = cellText(grid.get(line, columns.lModColumn));
    if (lMod === '' || showsLMod(record, lMod)) return false;
    return columns.lModOwners.rowsShowing(lMod).length > 0;
  };
  // The rows no line shows by id, listed once per plan (not for each new line).
  let withoutLine: BaseRecord[] | undefined;
  const records = (): BaseRecord[] => {
    withoutLine ??= base
      .ids()
      .filter((rowId) => !isPendingToken(rowId) && !index.lineById.has(rowId))
      .map((rowId) => base.get(rowId))
      .filter((record): record is BaseRecord => record !== undefined);
    return withoutLine;
  };
  return { has, records };
}

/** A line with an id: an update of its edited cells, unchanged, or an error saying why it cannot be sent. */
function planSyncedLine(
  state: PushState,
  columns: PlanColumns,
  context: DecodeContext,
  plan: PushPlan,
  line: number,
  cells: readonly unknown[] | undefined,
  rowId: string,
): void {
  const { grid, live, base, index } = state;
  const duplicateLines = index.duplicates.get(rowId);
  if (duplicateLines) {
    plan.errors.push({ line, status: duplicateStatus(rowId, duplicateLines.map(sheetRowOf)) });
    return;
  }
  const record = base.get(rowId);
  if (!record) {
    plan.errors.push({ line, status: unknownRowStatus(rowId) });
    return;
  }
  const lineCells = cells ?? cellsByGet(grid, line, columns.at);
  // Hashed once: the id-swap check weighs the digests the edits are found by.
  const digests = lineDigests(lineCells, columns.at, live, columns.lineDigests);
  if (showsAnotherRow(state, columns, line, cells, digests, record)) {
    plan.errors.push({ line, status: anotherRowsLineStatus(rowId) });
    return;
  }
  const reverted = restoreFixedFields(grid, columns, line, cells, record);
  if (reverted) plan.reverted.push({ line, fields: reverted });
  const notSent = deletedColumnProblems(state.layout.deleted, (column) => grid.get(line, column), record);
  const edits = cellEdits(lineCells, columns.at, record, live, context, digests);
  const edited = Object.keys(edits.values).length > 0;
  // An edit in a column deleted on the service cannot go, but it never holds back the line's other
  // edits: they go, and the line says which did not and why.
  if (edits.errors.length > 0 || (notSent && !edited)) {
    plan.errors.push({ line, status: notPushedStatus([...(notSent ?? []), ...edits.errors]) });
  } else if (edited) {
    plan.updates.push({ line, rowId, base: record, edits, ...(notSent ? { notSent } : {}) });
  } else {
    plan.unchanged += 1;
    const status =
      columns.statusColumn === undefined ? '' : cellOfLine(grid, cells, line, columns.statusColumn);
    if (isOutdatedWhenUnedited(status)) plan.restated.push({ line, status: unEditedStatus(record) });
  }
}

/**
 * Whether a line showing a row's id is another row's: its lMod is exactly one other row's, or, where
 * several rows show it (one batch wrote them), it holds more of one of those rows' values than of its
 * own while that row's own line does not (ids of two rows patched together, swapped: team chaos seed
 * 20240132). A line holding its own row's values (most lines) is no other row's.
 */
function showsAnotherRow(
  state: PushState,
  columns: PlanColumns,
  line: number,
  cells: readonly unknown[] | undefined,
  digests: ReadonlyArray<Digest | undefined>,
  record: BaseRecord,
): boolean {
  const { grid, live, index } = state;
  if (columns.lModColumn === undefined) return false;
  const lMod = cellText(cells ? cells[columns.lModColumn] : grid.get(line, columns.lModColumn));
  if (lMod !== shownLMod(record) && columns.lModOwners.belongsToAnotherRow(lMod, record.id)) return true;
  if (holdsOnlyOwnValues(digests, live, record)) return false;
  const cellsOfLine =
    (at: number) =>
    (column: ColumnSpec): unknown => {
      const sheetColumn = columns.at[live.indexOf(column)] ?? -1;
      if (sheetColumn < 0) return undefined;
      return at === line && cells ? cells[sheetColumn] : grid.get(at, sheetColumn);
    };
  // A line the push did not read (runPush loads those of rows sharing a typed line's lMod) is not
  // compared: the row then counts as having no line, and this line sends nothing.
  const lineOf = (id: string): number | undefined => {
    const at = index.lineById.get(id);
    return at !== undefined && grid.isLoaded(at) ? at : undefined;
  };
  const owners = columns.lModOwners;
  return rowWhoseValuesItHolds(line, digests, cellsOfLine, lineOf, live, owners, lMod, record) !== undefined;
}

/** A cell of a line: from its cells when loaded whole, else from the grid. */
function cellOfLine(
  grid: LineGrid,
  cells: readonly unknown[] | undefined,
  line: number,
  column: number,
): unknown {
  return cells ? cells[column] : grid.get(line, column);
}

/** What holds for a line with nothing to send: in sync, unless its row is in a conflict still to settle. */
function unEditedStatus(record: BaseRecord): string {
  return record.conflict ? conflictStatus(Object.keys(record.conflict.theirs)) : STATUS.inSync;
}

/** Puts back read-only fixed-field cells a person changed; returns their fields, or null (most lines). */
function restoreFixedFields(
  grid: LineGrid,
  columns: PlanColumns,
  line: number,
  cells: readonly unknown[] | undefined,
  record: BaseRecord,
): string[] | null {
  let reverted: string[] | null = null;
  for (let f = 0; f < columns.fixedFields.length; f++) {
    const field = columns.fixedFields[f] as string;
    const column = columns.fixedColumns[f] as number;
    const expected = expectedFixedValue(record, field);
    const text = cellText(cells ? cells[column] : grid.get(line, column));
    if (expected === undefined || text === expected) continue;
    grid.set(line, column, expected);
    // A field the line still shows since a write of it was lost is written, not said to be restored.
    if (record.lineShows?.[field] !== undefined && String(record.lineShows[field]) === text) continue;
    reverted ??= [];
    reverted.push(field);
  }
  return reverted;
}
