// A push, step by step, as decisions over the in-memory lines and base: what goes out, which lost
// creates are adopted, how edits meet the service's changes, what each answer settles. The Apps
// Script shell reads the sheet, sends the requests these steps name, and writes the grid back.

import type { HeldColumnInfo, HeldPush } from '../../../shared/types';
import type { BaseRecord, ConflictRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import { type DecodeContext, isOverCellLimit, type JsonValue } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { SyncError } from '../../errors';
import { headerProblems, ID_HEADER, type Layout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, indexLines, type LineIndex, sheetRowOf } from '../../lines';
import {
  conflictStatus,
  cutNotSentReason,
  freshColumnsText,
  headerProblemText,
  heldMessage,
  heldReasonText,
  heldStatus,
  notCreatedStatus,
  notPushedStatus,
  pendingStatus,
  pendingTokenOf,
  readOnlyRestoredStatus,
  STATUS,
} from '../../status';
import {
  adoptedBase,
  type Candidate,
  findChangedLostCreate,
  findLostCreate,
  isPendingRecord,
  matchPendingByContent,
  pendingRecord,
  sentDigests,
} from '../lost-creates';
import { findRenamedColumns } from '../renamed-columns';
import {
  countValuedLines,
  GUARD_MIN_LINES,
  type GuardVerdict,
  guardPush,
  heldKey,
  heldValueText,
  withoutHeld,
} from './guard';
import { baseAfterWrite, cellEdits, reconcileEdits } from './line-edits';
import { type CreatePlan, type PushPlan, planPush, type UpdatePlan } from './plan';

/** A row as the service answers it (fixed fields and column values by id). */
export type ServiceRow = Readonly<Record<string, unknown>>;

/** The service's answer for one row of a batch (GET, PATCH or POST). */
export type RowAnswer = { ok: true; row: ServiceRow } | { ok: false; error: SyncError };

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

export interface PushInput {
  grid: LineGrid;
  /** The layout readied by pushLayoutWarnings. */
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  decode: DecodeContext;
  fixedText: FixedFieldText;
}

/**
 * Plans the push: which lines are edits, creates, errors or unchanged (planPush). Error statuses go
 * onto their lines at once.
 */
export function startPushSession(input: PushInput): PushSession {
  const { grid, layout, live, base } = input;
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  if (idColumn === undefined || statusColumn === undefined) {
    throw new SyncError('INTERNAL', 'A push needs the layout readied by pushLayoutWarnings.');
  }
  const index = indexLines(grid, layout);
  const plan = planPush({ grid, layout, live, base, index }, input.decode);
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
  };
  for (const error of plan.errors) setStatus(session, error.line, error.status);
  return session;
}

function setStatus(session: PushSession, line: number, status: string): void {
  session.grid.set(line, session.statusColumn, status);
}

/** Edits a push would hold as a likely accident, and the key a person's "Push anyway" names. */
export interface HeldEdits {
  verdict: GuardVerdict;
  key: string;
}

/**
 * The edits to hold as a likely accident, or null when all go out: few lines edited, a person
 * confirmed any held edits (`true`), or confirmed exactly these by their key.
 */
export function editsToHold(
  session: PushSession,
  confirmHeld: boolean | string | undefined,
): HeldEdits | null {
  const { plan, live, layout, base, index } = session;
  if (plan.updates.length < GUARD_MIN_LINES || confirmHeld === true) return null;
  const columnIds = live.filter((column) => layout.columns.has(column.id)).map((column) => column.id);
  // The lines in the sheet whose row the base knows: rows no line shows (deleted from the sheet,
  // pending creates) had no value in it and must not dilute the share a push empties.
  const synced: BaseRecord[] = [];
  for (const id of index.lineById.keys()) {
    const record = base.get(id);
    if (record) synced.push(record);
  }
  const verdict = guardPush({
    updates: plan.updates,
    columnIds,
    syncedLines: synced.length,
    valuedLines: countValuedLines(synced, columnIds),
  });
  if (verdict.held.length === 0) return null;
  const key = heldKey(verdict, plan.updates);
  // Confirmed by its key: the held edits are exactly those the person saw, so they go out.
  return confirmHeld === key ? null : { verdict, key };
}

/** The rows whose service value a held push shows as examples (each once). */
export function heldExampleRowIds(toHold: HeldEdits): string[] {
  return [...new Set(toHold.verdict.held.flatMap((column) => column.examples.map((each) => each.rowId)))];
}

/**
 * What a held push shows a person: per column, how many lines and a few examples, each with the
 * service's value now (`now`, by row id) and the value it would send. `lines` is filled by holdEdits.
 */
export function heldPushOf(
  toHold: HeldEdits,
  now: ReadonlyMap<string, ServiceRow>,
  scheduled: boolean,
): HeldPush {
  const columns = toHold.verdict.held;
  const infos: HeldColumnInfo[] = columns.map((column) => ({
    columnId: column.columnId,
    reason: heldReasonText(column.reason, column.lines),
    lines: column.lines,
    examples: column.examples.map((example) => ({
      row: sheetRowOf(example.line),
      rowId: example.rowId,
      before: heldValueText(now.get(example.rowId)?.[column.columnId]),
      after: heldValueText(example.after),
    })),
  }));
  return { message: heldMessage(columns, scheduled), lines: 0, columns: infos, key: toHold.key };
}

/** Takes the held edits out of the plan (a line with nothing else left is not sent); returns the held lines' count. */
export function holdEdits(session: PushSession, verdict: GuardVerdict): number {
  const { plan, heldLines } = session;
  plan.updates = plan.updates.filter((update) => {
    const cells = verdict.heldCells.get(update.line);
    if (!cells) return true;
    heldLines.set(update.line, [...cells]);
    update.edits = withoutHeld(update.edits, cells);
    return Object.keys(update.edits.values).length > 0;
  });
  return heldLines.size;
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
    if (base.has(id) && pendingTokenOf(grid.get(line, statusColumn)) !== null)
      setStatus(session, line, STATUS.created);
  }
  for (const revert of session.plan.reverted)
    setStatus(session, revert.line, readOnlyRestoredStatus(revert.fields));
}

/**
 * The planned creates that were sent before, answer unknown: those whose status names a pending
 * token, and new lines whose status was cleared or pasted over but which hold exactly what an
 * unclaimed pending create sent (the base's pending records say a create went out, not a cell a
 * person can overwrite). These are looked for on the service, never sent again.
 */
export function claimPendingCreates(session: PushSession): CreatePlan[] {
  const { plan, base, live } = session;
  const pendingRecords = base.all().filter(isPendingRecord);
  if (pendingRecords.length > 0) {
    const claimed = new Set<string>();
    for (const create of plan.creates) if (create.pendingToken) claimed.add(create.pendingToken);
    const untagged = plan.creates.filter((create) => create.pendingToken === null);
    for (const [index, token] of matchPendingByContent(untagged, pendingRecords, claimed, live)) {
      (untagged[index] as CreatePlan).pendingToken = token;
    }
  }
  return plan.creates.filter((create) => create.pendingToken !== null);
}

/** Pages a listing of the whole table costs (more GETs than this: list instead). */
export function listingPagesLeft(
  session: PushSession,
  firstWave: { readonly done: boolean; readonly pageRequests: number } | null,
): number {
  if (firstWave?.done) return 0;
  const pages = Math.ceil(Math.max(session.base.size, session.grid.length) / 100) + 1;
  return Math.max(0, pages - (firstWave ? firstWave.pageRequests + 1 : 0));
}

/** A lost create adopted onto its line: the row it made, and the pending record it replaced. */
export interface Adoption {
  line: number;
  rowId: string;
  pending: BaseRecord;
}

/** This user's rows not on a line nor in the base, oldest first: the rows a lost create may have made. */
function adoptionCandidates(session: PushSession, listing: ReadonlyMap<string, ServiceRow>, me: string) {
  const taken = new Set<string>();
  for (const id of session.index.lineById.keys()) taken.add(id);
  for (const record of session.base.all()) taken.add(record.id);
  const candidates: Candidate[] = [];
  for (const row of listing.values()) {
    if (row.createdBy !== me || taken.has(String(row.id))) continue;
    candidates.push({
      id: String(row.id),
      cOn: String(row.cOn ?? ''),
      createdBy: String(row.createdBy),
      row,
    });
  }
  candidates.sort((a, b) => (a.cOn < b.cOn ? -1 : a.cOn > b.cOn ? 1 : 0));
  return { candidates, taken };
}

/** Writes the fixed fields of a row onto its line; returns them as shown (the base keeps them). */
function showFixedFields(session: PushSession, line: number, row: ServiceRow): Record<string, unknown> {
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
 * Adopts the rows lost creates made, found in the listing, so a retry never duplicates them. Each
 * pending create's record goes; a found row's id and fixed fields go onto the line, the base agrees
 * on what was sent, and whatever the person changed on the line since becomes an update. Exact
 * matches are taken first for every create, so a looser match never takes another's row. A row
 * someone changed since its creation is adopted as created (lMod = cOn), so its change is pulled in.
 */
export function adoptLostCreates(
  session: PushSession,
  pendingCreates: readonly CreatePlan[],
  listing: ReadonlyMap<string, ServiceRow>,
  me: string,
): Adoption[] {
  const { grid, base, live, plan } = session;
  const { candidates, taken } = adoptionCandidates(session, listing, me);
  const exact = new Map<CreatePlan, Candidate | undefined>();
  for (const create of pendingCreates) {
    const pending = base.get(create.pendingToken as string);
    exact.set(create, pending ? findLostCreate(pending, candidates, live, taken) : undefined);
  }
  const adopted: Adoption[] = [];
  for (const create of pendingCreates) {
    const token = create.pendingToken as string;
    const pending = base.get(token);
    // Someone changed the created row before its answer was recovered (chaos seed 20240141): found
    // only as the one row changed since its creation that still holds most of what was sent.
    const changed = exact.get(create) === undefined && pending !== undefined;
    const found = changed ? findChangedLostCreate(pending, candidates, live, taken) : exact.get(create);
    if (pending) base.delete(token);
    create.pendingToken = null;
    if (!found) continue;
    const row = found.row;
    const rowId = String(row.id);
    grid.set(create.line, session.idColumn, rowId);
    const shown = showFixedFields(session, create.line, row);
    const record: BaseRecord = {
      ...adoptedBase(pending as BaseRecord, rowId, String(changed ? row.cOn : row.lMod), live),
      shown,
    };
    base.set(record);
    const cells = grid.lineCells(create.line) ?? cellsByGet(grid, create.line, session.at);
    const edits = cellEdits(cells, session.at, record, live, session.decode);
    if (edits.errors.length === 0 && Object.keys(edits.values).length > 0) {
      plan.updates.push({ line: create.line, rowId, base: record, edits });
    }
    setStatus(session, create.line, STATUS.created);
    session.counts.created += 1;
    plan.creates.splice(plan.creates.indexOf(create), 1);
    adopted.push({ line: create.line, rowId, pending: pending as BaseRecord });
  }
  return adopted;
}

/**
 * After the adoptions were written: a line the write could not find again (moved, or its columns
 * moved while the run waited) did not get its row's id, so the base keeps the pending record instead
 * of the adopted row and the next run adopts it onto the line rather than adding the row as a second
 * line. Returns whether the base changed.
 */
export function keepUnwrittenAdoptionsPending(session: PushSession, adopted: readonly Adoption[]): boolean {
  const { grid, base, plan } = session;
  const unwritten = adopted.filter((each) => grid.physicalRow(each.line) < 0);
  for (const each of unwritten) {
    base.delete(each.rowId);
    base.set(each.pending);
    session.counts.created -= 1;
  }
  if (unwritten.length === 0) return false;
  const lost = new Set(unwritten.map((each) => each.line));
  plan.updates = plan.updates.filter((update) => !lost.has(update.line));
  return true;
}

/**
 * How to know the service's state of the edited rows: nothing to know, the listing (already read, or
 * cheaper than one GET per edited row), or one GET per row.
 */
export function editedRowsCheck(
  session: PushSession,
  haveListing: boolean,
  pagesLeft: number,
  read: ReadonlyMap<string, ServiceRow> = new Map(),
): 'none' | 'listing' | 'get' {
  const updates = session.plan.updates;
  if (updates.length === 0) return 'none';
  if (haveListing) return 'listing';
  let unread = 0;
  for (const update of updates) if (!read.has(update.rowId)) unread++;
  return unread > pagesLeft ? 'listing' : 'get';
}

/** The ids of the edited rows not read yet, in plan order (one GET each). */
export function editedRowIds(
  session: PushSession,
  read: ReadonlyMap<string, ServiceRow> = new Map(),
): string[] {
  return session.plan.updates.map((update) => update.rowId).filter((rowId) => !read.has(rowId));
}

/**
 * The edited rows as the GETs answered them (a row gone is left out). `changed`: some row moved on
 * since its base, so its values are needed and the listing should be read instead. An answer other
 * than "not found" stops the push.
 */
export function checkedRows(
  session: PushSession,
  rowIds: readonly string[],
  answers: readonly RowAnswer[],
  read: ReadonlyMap<string, ServiceRow> = new Map(),
): { rows: Map<string, ServiceRow>; changed: boolean } {
  const rows = new Map<string, ServiceRow>(read);
  const baseOf = new Map<string, UpdatePlan>();
  for (const update of session.plan.updates) baseOf.set(update.rowId, update);
  let changed = false;
  answers.forEach((answer, i) => {
    const rowId = rowIds[i] as string;
    const update = baseOf.get(rowId) as UpdatePlan;
    if (answer.ok) {
      rows.set(rowId, answer.row);
      if (String(answer.row.lMod) !== update.base.lMod) changed = true;
    } else if (answer.error.code !== 'NOT_FOUND') {
      throw answer.error;
    }
  });
  return { rows, changed };
}

/** A PATCH to send: the update it settles, the values, and whether the row moved on since its base. */
export interface PatchRequest {
  update: UpdatePlan;
  patch: Record<string, JsonValue>;
  stale: boolean;
}

/**
 * Meets every edit with the service's row before anything is sent: a row gone is marked removed;
 * an edit of a cut (over-long) service value is not sent; where the row moved on since the base, a
 * column also changed on the service to something else is a conflict (kept, not sent, both values in
 * the base), one the service already holds is agreed, and the rest is sent. Returns the PATCHes.
 */
export function reconcileUpdates(
  session: PushSession,
  serviceRows: ReadonlyMap<string, ServiceRow>,
): PatchRequest[] {
  const requests: PatchRequest[] = [];
  for (const update of session.plan.updates) {
    const serviceRow = serviceRows.get(update.rowId);
    if (!serviceRow) {
      setStatus(session, update.line, STATUS.removed);
      session.counts.errors += 1;
      continue;
    }
    if (!withoutCutEdits(session, update, serviceRow)) continue;
    const stale = String(serviceRow.lMod) !== update.base.lMod || update.base.conflict !== undefined;
    if (!stale) {
      requests.push({ update, patch: update.edits.values, stale });
      continue;
    }
    const send = reconcileStale(session, update, serviceRow);
    if (send) requests.push({ update, patch: send, stale });
  }
  return requests;
}

/**
 * A value longer than a cell holds shows cut: its cell is read-only, an edit of it never sent (planPush
 * refuses an edited cut cell by its mark; where the row's values are known, so here). Returns whether
 * any edit of the line is left to send.
 */
function withoutCutEdits(session: PushSession, update: UpdatePlan, serviceRow: ServiceRow): boolean {
  const cut = session.live
    .filter(
      (column) =>
        Object.prototype.hasOwnProperty.call(update.edits.values, column.id) &&
        isOverCellLimit(serviceRow[column.id], column.kind),
    )
    .map((column) => column.id);
  if (cut.length === 0) return true;
  update.edits = withoutHeld(update.edits, new Set(cut));
  setStatus(session, update.line, notPushedStatus(cut.map(cutNotSentReason)));
  session.counts.errors += 1;
  return Object.keys(update.edits.values).length > 0;
}

/** The three-way meeting of a stale row's edits; returns what is left to send, or null. */
function reconcileStale(
  session: PushSession,
  update: UpdatePlan,
  serviceRow: ServiceRow,
): Record<string, JsonValue> | null {
  const reconciled = reconcileEdits(update.edits, update.base, serviceRow, session.live);
  const settled: Record<string, Digest> = Object.create(null);
  for (const columnId of reconciled.alreadyEqual)
    settled[columnId] = update.edits.digests[columnId] as Digest;
  if (reconciled.conflicts.length > 0) {
    session.counts.conflicts += 1;
    const conflict: ConflictRecord = {
      lMod: String(serviceRow.lMod),
      theirs: reconciled.theirs,
      digests: reconciled.theirDigests,
      ...(typeof serviceRow.lModBy === 'string' ? { by: serviceRow.lModBy } : {}),
    };
    update.base = baseAfterWrite(update.base, update.rowId, update.base.lMod, settled, true, conflict);
    session.base.set(update.base);
    setStatus(session, update.line, conflictStatus(reconciled.conflicts));
  } else if (Object.keys(settled).length > 0) {
    update.base = baseAfterWrite(update.base, update.rowId, update.base.lMod, settled, true, undefined);
    session.base.set(update.base);
  }
  if (Object.keys(reconciled.send).length > 0) return reconciled.send;
  if (reconciled.conflicts.length === 0) setStatus(session, update.line, STATUS.inSync);
  return null;
}

/**
 * Settles a wave of PATCH answers: a written row's base agrees on what was sent at the answered lMod
 * (kept older when the row was stale or in conflict) and its fixed fields show the answer; a row gone
 * is marked removed; any other refusal says why on the line.
 */
export function settleUpdates(
  session: PushSession,
  wave: readonly PatchRequest[],
  answers: readonly RowAnswer[],
): void {
  answers.forEach((answer, i) => {
    const { update, patch, stale } = wave[i] as PatchRequest;
    if (answer.ok) {
      const settled: Record<string, Digest> = Object.create(null);
      for (const columnId of Object.keys(patch)) settled[columnId] = update.edits.digests[columnId] as Digest;
      const lMod = String(answer.row.lMod);
      const record = baseAfterWrite(update.base, update.rowId, lMod, settled, stale, update.base.conflict);
      record.shown = showFixedFields(session, update.line, answer.row);
      session.base.set(record);
      if (!update.base.conflict) setStatus(session, update.line, STATUS.pushed);
      session.counts.updated += 1;
    } else if (answer.error.code === 'NOT_FOUND') {
      setStatus(session, update.line, STATUS.removed);
      session.counts.errors += 1;
    } else {
      setStatus(session, update.line, notPushedStatus([answer.error.message]));
      session.counts.errors += 1;
    }
  });
}

/** The creates of a push, from pending marks to answers. */
export interface CreateRun {
  creates: CreatePlan[];
  /** Each create's pending token (its base record holds what is sent). */
  tokens: string[];
  /** Each line's status before its pending mark, put back when the create is never sent. */
  statusBefore: unknown[];
  /** Creates sent so far (in order). */
  sent: number;
  /** Per sent create: the id of the row it made, or null. */
  createdIds: Array<string | null>;
  /** Pending records of sent creates by token, kept to restore if the created row's line is lost. */
  pendingOf: Map<string, BaseRecord>;
  /** Sent creates whose lines were already checked after a write. */
  checked: number;
}

/**
 * Marks every create pending before the first is sent: its record of what is sent goes into the base
 * under its token and the line's status names the token, so a create is never sent twice (the next
 * push looks for the row first). `tokens` gives one fresh token per create; `sentAt` is the service's
 * time, from which a lost create's row is looked for.
 */
export function markCreatesPending(
  session: PushSession,
  creates: readonly CreatePlan[],
  tokens: readonly string[],
  sentAt: string,
): CreateRun {
  const statusBefore = creates.map((create) => session.grid.get(create.line, session.statusColumn));
  creates.forEach((create, i) => {
    const token = tokens[i] as string;
    session.base.set(
      pendingRecord(token, sentAt, { ...create, digests: sentDigests(create.values, session.live) }),
    );
    setStatus(session, create.line, pendingStatus(token));
  });
  return {
    creates: [...creates],
    tokens: [...tokens],
    statusBefore,
    sent: 0,
    createdIds: [],
    pendingOf: new Map(),
    checked: 0,
  };
}

/**
 * After the pending marks were written: a create is sent only once its line carries its mark, so a
 * line the write could not find again (moved, or its columns moved while the run waited) is left for
 * the next run, unsent, its record gone. Returns whether any was left (the base changed).
 */
export function keepMarkedCreates(session: PushSession, run: CreateRun): boolean {
  const kept = run.creates.map((create) => session.grid.physicalRow(create.line) >= 0);
  if (kept.every(Boolean)) return false;
  kept.forEach((keep, i) => {
    if (!keep) session.base.delete(run.tokens[i] as string);
  });
  run.creates = run.creates.filter((_, i) => kept[i]);
  run.tokens = run.tokens.filter((_, i) => kept[i]);
  run.statusBefore = run.statusBefore.filter((_, i) => kept[i]);
  return true;
}

/**
 * Settles a wave of POST answers (the creates from `start`): a created row's id and fixed fields go
 * onto its line and the base agrees on what was sent; an answer that never came leaves the create
 * pending (the next push finds the row or sends it again); a refusal says why on the line.
 */
export function settleCreates(
  session: PushSession,
  run: CreateRun,
  start: number,
  answers: readonly RowAnswer[],
): void {
  const { base, grid } = session;
  answers.forEach((answer, i) => {
    const create = run.creates[start + i] as CreatePlan;
    const token = run.tokens[start + i] as string;
    const record = base.get(token);
    if (record) run.pendingOf.set(token, record);
    run.createdIds.push(answer.ok ? String(answer.row.id) : null);
    if (answer.ok) {
      const rowId = String(answer.row.id);
      base.delete(token);
      grid.set(create.line, session.idColumn, rowId);
      const shown = showFixedFields(session, create.line, answer.row);
      base.set({
        ...baseAfterWrite(undefined, rowId, String(answer.row.lMod), create.digests, false, undefined),
        shown,
      });
      setStatus(session, create.line, STATUS.created);
      session.counts.created += 1;
    } else if (answer.error.outcomeUnknown) {
      session.counts.errors += 1;
    } else {
      base.delete(token);
      setStatus(session, create.line, notCreatedStatus([answer.error.message]));
      session.counts.errors += 1;
    }
  });
  run.sent = start + answers.length;
}

/**
 * After created ids were written: a created row whose line could not be found (moved, its pending
 * mark wiped) got no id, so its pending record comes back and the next push adopts the row instead
 * of creating it again.
 */
export function keepUnwrittenCreatesPending(session: PushSession, run: CreateRun): void {
  for (let i = run.checked; i < run.sent; i++) {
    const create = run.creates[i] as CreatePlan;
    const rowId = run.createdIds[i];
    const pending = run.pendingOf.get(run.tokens[i] as string);
    if (!rowId || !pending || session.grid.physicalRow(create.line) >= 0) continue;
    session.base.delete(rowId);
    session.base.set(pending);
    session.counts.created -= 1;
    session.counts.errors += 1;
  }
  run.checked = run.sent;
}

/** Creates never sent (out of time) are not pending: their record goes, their status is what it was. */
export function unmarkUnsentCreates(session: PushSession, run: CreateRun): void {
  for (let i = run.sent; i < run.creates.length; i++) {
    session.base.delete(run.tokens[i] as string);
    setStatus(session, (run.creates[i] as CreatePlan).line, String(run.statusBefore[i] ?? ''));
  }
}

/** Held lines say so, even where their other edits were sent. */
export function markHeldLines(session: PushSession): void {
  for (const [line, columnIds] of session.heldLines) setStatus(session, line, heldStatus(columnIds));
}
