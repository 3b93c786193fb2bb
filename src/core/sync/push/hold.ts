// A push's held edits: edits that look like an accident are held (not sent) until a person confirms
// them, and their lines say so.
import type { HeldColumnInfo, HeldPush } from '../../../shared/types';
import type { BaseRecord } from '../../base';
import type { Digest } from '../../digest';
import { sheetRowOf } from '../../lines';
import { heldMessage, heldReasonText, heldStatus } from '../../status';
import {
  countValuedLines,
  GUARD_MIN_LINES,
  type GuardVerdict,
  guardPush,
  heldKey,
  heldValueText,
  withoutHeld,
} from './guard';
import { type PushSession, type ServiceRow, setStatus } from './session';

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
  if (plan.updates.length + plan.creates.length < GUARD_MIN_LINES || confirmHeld === true) return null;
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
    creates: plan.creates,
    columnIds,
    syncedLines: synced.length,
    valuedLines: countValuedLines(synced, columnIds),
  });
  if (verdict.held.length === 0) return null;
  const key = heldKey(verdict, plan.updates, plan.creates);
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

/**
 * A held edit as a later "Put the service's values back" finds it again: by row id and column, with
 * the digest of what the cell held when the push held it (a cell changed since is left alone).
 */
export interface HeldCell {
  rowId: string;
  columnId: string;
  digest: Digest;
}

/** The held edits, cell by cell, before holdEdits takes them out of the plan. */
export function heldCellsOf(session: PushSession, verdict: GuardVerdict): HeldCell[] {
  const cells: HeldCell[] = [];
  for (const update of session.plan.updates) {
    const columnIds = verdict.heldCells.get(update.line);
    if (!columnIds) continue;
    for (const columnId of columnIds) {
      const digest = update.edits.digests[columnId];
      if (digest !== undefined) cells.push({ rowId: update.rowId, columnId, digest });
    }
  }
  return cells;
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
  // A new line carrying values moved from synced lines is not created (not even its other values).
  plan.creates = plan.creates.filter((create) => {
    const cells = verdict.heldCreates.get(create.line);
    if (!cells || create.pendingToken !== null) return true;
    heldLines.set(create.line, [...cells]);
    return false;
  });
  return heldLines.size;
}

/** Held lines say so, even where their other edits were sent. */
export function markHeldLines(session: PushSession): void {
  for (const [line, columnIds] of session.heldLines) setStatus(session, line, heldStatus(columnIds));
}
