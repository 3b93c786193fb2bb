import type { BaseTable } from '../../base-table';
import type { DecodeContext } from '../../codec';
import type { ColumnSpec } from '../../columns';
import { SyncError } from '../../errors';
import { headerProblems, ID_HEADER, type Layout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { indexLines, type LineIndex } from '../../lines';
import {
  freshColumnsText,
  headerProblemText,
  pendingTokenOf,
  readOnlyRestoredStatus,
  STATUS,
} from '../../status';
import { findRenamedColumns } from '../renamed-columns';
import { type PushPlan, planPush } from './plan';

/** A row as the service answers it (fixed fields and column values by id). */
export type ServiceRow = Readonly<Record<string, unknown>>;

/** The service's answer for one row of a batch (GET, PATCH or POST). */
export type RowAnswer = { ok: true; row: ServiceRow } | { ok: false; error: SyncError; notSent?: boolean };

/** How a fixed field's value shows in its cell (emails instead of user ids, when the link asks). */
export type FixedFieldText = (field: string, value: unknown) => string;

export interface PushCounts {
  created: number;
  updated: number;
  unchanged: number;
  conflicts: number;
  errors: number;
}

/**
 * One push in progress: the lines, the base and the plan, changed in place by each step. The grid
 * and base are the in-memory copies the shell writes back; every step writes only to them.
 */
export interface PushSession {
  readonly grid: LineGrid;
  readonly layout: Layout;
  readonly live: readonly ColumnSpec[];
  readonly base: BaseTable;
  readonly index: LineIndex;
  readonly decode: DecodeContext;
  readonly fixedText: FixedFieldText;
  readonly statusColumn: number;
  readonly idColumn: number;
  /** Sheet column of each live column (-1: not in the sheet), in `live` order. */
  readonly at: readonly number[];
  readonly plan: PushPlan;
  readonly counts: PushCounts;
  /** Lines whose edits of these columns were held as a likely accident. */
  readonly heldLines: Map<number, string[]>;
  /** Synced columns without a header of their own: no create is sent while any is missing. */
  readonly headerless: readonly string[];
}

export interface PushLayoutInput {
  grid: LineGrid;
  /** The layout as read; columns a pull has not finished filling are taken out of it. */
  layout: Layout;
  live: readonly ColumnSpec[];
  /** The base, its digest columns already following the live columns. */
  base: BaseTable;
  /** Column ids the base followed before this push (to tell a renamed header from a new column). */
  syncedBefore: readonly string[];
  /** Columns a pull added and has not finished filling: their cells are empty, not edits. */
  freshColumns: readonly string[];
}

/**
 * Readies the layout for a push: columns a pull has not finished filling hold no edits and are taken
 * out. Throws when the sheet has no id or status column (such a sheet was never pulled). Returns,
 * for each synced column whose header is missing or repeated, what to restore: nothing of that column
 * is read as an edit, and the run says why.
 */
export function pushLayoutWarnings(input: PushLayoutInput): string[] {
  const { grid, layout, live, base } = input;
  // A column a pull is still filling is not a missing header: it is said apart.
  const fresh = input.freshColumns.filter((id) => layout.columns.has(id));
  for (const id of fresh) layout.columns.delete(id);
  const syncedBefore = input.syncedBefore.filter((id) => !fresh.includes(id));
  if (!layout.fixed.has(ID_HEADER) || layout.status === undefined) {
    throw new SyncError(
      'SHEET',
      'This sheet has no id or _sync column: pull the table first, then edit and push.',
    );
  }
  const renamed = findRenamedColumns(layout, live, syncedBefore, grid, base);
  const warnings = headerProblems(layout, live, syncedBefore, renamed).map(headerProblemText);
  return fresh.length > 0 ? [freshColumnsText(fresh), ...warnings] : warnings;
}

/**
 * Synced columns without a header of their own after pushLayoutWarnings (renamed, deleted or
 * repeated; a column a pull is still filling is not one): new lines wait until they are back.
 */
export function headerlessColumns(input: PushLayoutInput): string[] {
  const { layout, live } = input;
  const fresh = new Set(input.freshColumns);
  const synced = new Set(input.syncedBefore.filter((id) => !fresh.has(id)));
  return live
    .filter((column) => !layout.columns.has(column.id))
    .filter((column) => synced.has(column.id) || layout.blocked.has(column.id))
    .map((column) => column.id);
}

export interface PushInput {
  grid: LineGrid;
  /** The layout readied by pushLayoutWarnings. */
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  decode: DecodeContext;
  fixedText: FixedFieldText;
  /** From headerlessColumns: new lines wait while any is missing. */
  headerless?: readonly string[];
  /** Only these lines are planned (a live push of the edited lines); see PushState. */
  only?: ReadonlySet<number>;
  /** New lines still being typed: not created yet. */
  typing?: readonly number[];
}

/**
 * Plans the push: which lines are edits, creates, errors or unchanged (planPush). Error statuses, and
 * the statuses of lines whose earlier error or hold no longer holds, go onto their lines at once.
 */
export function startPushSession(input: PushInput): PushSession {
  const { grid, layout, live, base } = input;
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  if (idColumn === undefined || statusColumn === undefined) {
    throw new SyncError('INTERNAL', 'A push needs the layout readied by pushLayoutWarnings.');
  }
  const index = indexLines(grid, layout);
  const headerless = input.headerless ?? [];
  const plan = planPush(
    {
      grid,
      layout,
      live,
      base,
      index,
      headerless,
      ...(input.only ? { only: input.only } : {}),
      ...(input.typing !== undefined ? { typing: input.typing } : {}),
    },
    input.decode,
  );
  const counts: PushCounts = {
    created: 0,
    updated: 0,
    unchanged: plan.unchanged,
    conflicts: 0,
    errors: plan.errors.length,
  };
  const session: PushSession = {
    grid,
    layout,
    live,
    base,
    index,
    decode: input.decode,
    fixedText: input.fixedText,
    statusColumn,
    idColumn,
    at: live.map((column) => layout.columns.get(column.id) ?? -1),
    plan,
    counts,
    heldLines: new Map(),
    headerless,
  };
  for (const error of plan.errors) setStatus(session, error.line, error.status);
  for (const restated of plan.restated) setStatus(session, restated.line, restated.status);
  return session;
}

export function setStatus(session: PushSession, line: number, status: string): void {
  session.grid.set(line, session.statusColumn, status);
}

/** Writes the fixed fields of a row onto its line; returns them as shown (the base keeps them). */
export function showFixedFields(
  session: PushSession,
  line: number,
  row: ServiceRow,
): Record<string, unknown> {
  const shown: Record<string, unknown> = Object.create(null);
  for (const [field, column] of session.layout.fixed) {
    if (field === ID_HEADER) continue;
    const text = session.fixedText(field, row[field]);
    session.grid.set(line, column, text);
    shown[field] = text;
  }
  return shown;
}

/**
 * Statuses that need no answer from the service: a stale pending mark on a line whose row the base
 * knows, and read-only fixed-field cells the plan put back.
 */
export function markSettledLines(session: PushSession): void {
  const { grid, base, index, statusColumn } = session;
  // A run stopped after the id reached the line and before its status did: the create is done, so
  // the stale mark goes (chaos seed 20240122: "⏳ create sent" stayed on a created line through every
  // later run).
  for (const [id, line] of index.lineById) {
    // A push of some lines leaves the others as they are (they are not loaded).
    if (!grid.isLoaded(line)) continue;
    if (base.has(id) && pendingTokenOf(grid.get(line, statusColumn)) !== null)
      setStatus(session, line, STATUS.created);
  }
  for (const revert of session.plan.reverted)
    setStatus(session, revert.line, readOnlyRestoredStatus(revert.fields));
}
