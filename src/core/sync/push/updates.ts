import type { BaseRecord, ConflictRecord } from '../../base';
import { isOverCellLimit, type JsonValue } from '../../codec';
import type { Digest } from '../../digest';
import {
  conflictStatus,
  cutNotSentReason,
  notPushedStatus,
  partlyPushedStatus,
  STATUS,
  WAITS_FOR_PULL_STATUS,
} from '../../status';
import { heldBackByRateLimit } from './creates';
import { withoutHeld } from './guard';
import { baseAfterWrite, type Reconciled, reconcileEdits } from './line-edits';
import type { UpdatePlan } from './plan';
import { type PushSession, type RowAnswer, type ServiceRow, setStatus, showFixedFields } from './session';

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

/**
 * Edited rows that moved on since their base while their values are unknown (read by GET, which
 * answers fixed fields only; the listing did not fit the run): nothing of them is sent; they wait for
 * a pull to meet both sides. Taken out of the plan.
 */
export function waitForPull(
  session: PushSession,
  rows: ReadonlyMap<string, ServiceRow>,
  withValues: ReadonlySet<string>,
): void {
  session.plan.updates = session.plan.updates.filter((update) => {
    const row = rows.get(update.rowId);
    if (!row || withValues.has(update.rowId) || String(row.lMod) === update.base.lMod) return true;
    setStatus(session, update.line, WAITS_FOR_PULL_STATUS);
    return false;
  });
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
    // An edit the service already holds is no write, even where the base says the row has not moved:
    // a base off the service (cells agreed empty on a line a pull could not write, the line then given
    // back its id: team chaos seed 20240157) would send the service its own value.
    const reconciled = reconcileEdits(update.edits, update.base, serviceRow, session.live);
    if (!stale && reconciled.alreadyEqual.length === 0) {
      requests.push({ update, patch: update.edits.values, stale });
      continue;
    }
    const send = reconcileStale(session, update, serviceRow, reconciled);
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
  update.notSent = [...(update.notSent ?? []), ...cut.map(cutNotSentReason)];
  if (Object.keys(update.edits.values).length > 0) return true;
  setStatus(session, update.line, notPushedStatus(update.notSent));
  session.counts.errors += 1;
  return false;
}

/**
 * What a line whose edits went (or were agreed) says: pushed, or, when some of its edits could not go
 * (a column deleted on the service, a cut value), which went and which did not and why: an error, so
 * "Lines to check" and the summary count it, and the edits left stay in the sheet.
 */
function sentStatus(session: PushSession, update: UpdatePlan, sent: readonly string[], done: string): string {
  if (!update.notSent) return done;
  session.counts.errors += 1;
  return sent.length > 0 ? partlyPushedStatus(sent, update.notSent) : notPushedStatus(update.notSent);
}

/**
 * The three-way meeting of a stale row's edits (or of edits the service already holds), as
 * `reconciled` found it; returns what is left to send, or null.
 */
function reconcileStale(
  session: PushSession,
  update: UpdatePlan,
  serviceRow: ServiceRow,
  reconciled: Reconciled,
): Record<string, JsonValue> | null {
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
    update.base = baseAfterWrite(update.base, {
      rowId: update.rowId,
      answeredLMod: update.base.lMod,
      settledDigests: settled,
      stale: true,
      conflict,
    });
    session.base.set(update.base);
    setStatus(session, update.line, conflictStatus(reconciled.conflicts));
  } else if (Object.keys(settled).length > 0) {
    update.base = baseAfterWrite(update.base, {
      rowId: update.rowId,
      answeredLMod: update.base.lMod,
      settledDigests: settled,
      stale: true,
    });
    session.base.set(update.base);
  }
  if (Object.keys(reconciled.send).length > 0) return reconciled.send;
  if (reconciled.conflicts.length === 0)
    setStatus(session, update.line, sentStatus(session, update, [], STATUS.inSync));
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
      const record = baseAfterWrite(update.base, {
        rowId: update.rowId,
        answeredLMod: String(answer.row.lMod),
        settledDigests: settled,
        stale,
        conflict: update.base.conflict,
      });
      record.shown = showFixedFields(session, update.line, answer.row);
      session.base.set(record);
      if (!update.base.conflict)
        setStatus(session, update.line, sentStatus(session, update, Object.keys(patch), STATUS.pushed));
      session.counts.updated += 1;
    } else if (answer.error.code === 'NOT_FOUND') {
      setStatus(session, update.line, STATUS.removed);
      session.counts.errors += 1;
    } else if (!heldBackByRateLimit(answer)) {
      // (One the service did not process because it limits requests stays an edit, with no error on
      // its line: a later run sends it.)
      setStatus(session, update.line, notPushedStatus([answer.error.message]));
      session.counts.errors += 1;
    }
  });
}

/**
 * After a write of the lines: a row's record says what its line shows. A line whose PATCH was answered
 * and whose write this run lost (its columns moved meanwhile, the line not found again) still shows the
 * fixed fields it showed before: the record keeps them as what the line shows (`lineShows`), beside
 * the answer's it should show. An old lMod one other row of its batch still shows then names this row
 * too, so the next run does not take the line for that row's, and writes the new fields onto it. A line
 * written shows the answer's.
 */
export function settleLinesShown(session: PushSession): void {
  for (const update of session.plan.updates) {
    const record = session.base.get(update.rowId);
    // Not answered (the record is the plan's): its line shows what it showed.
    if (!record || record === update.base) continue;
    if (session.grid.physicalRow(update.line) >= 0) {
      if (record.lineShows) session.base.set(withoutLineShows(record));
      continue;
    }
    const before = update.base.lineShows ?? update.base.shown ?? { lMod: update.base.lMod };
    if (!sameFields(record.lineShows, before) && !sameFields(record.shown, before))
      session.base.set({ ...record, lineShows: before });
  }
}

function withoutLineShows(record: BaseRecord): BaseRecord {
  const { lineShows: _written, ...rest } = record;
  return rest;
}

function sameFields(a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean {
  if (!a) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
