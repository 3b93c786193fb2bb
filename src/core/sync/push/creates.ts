import type { BaseRecord } from '../../base';
import { notCreatedStatus, pendingStatus, STATUS } from '../../status';
import { pendingRecord, sentDigests } from '../lost-creates';
import { baseAfterWrite } from './line-edits';
import type { CreatePlan } from './plan';
import { type PushSession, type RowAnswer, setStatus, showFixedFields } from './session';

/** A create marked pending, from its mark to its answer. */
export interface MarkedCreate {
  readonly plan: CreatePlan;
  /** Its pending token (its base record holds what is sent). */
  readonly token: string;
  /** The line's status before its pending mark, put back when the create is never sent. */
  readonly statusBefore: unknown;
  /** Once answered: the id of the row it made, or null. */
  createdId?: string | null;
  /** Once sent: its pending record, kept to restore if the created row's line is lost. */
  pending?: BaseRecord;
}

/** The creates of a push, from pending marks to answers. */
export interface CreateBatch {
  /** In sending order. */
  creates: MarkedCreate[];
  /** Creates sent so far (in order). */
  sent: number;
  /** Sent creates whose lines were already checked after a write. */
  checked: number;
}

/**
 * Marks every create pending before the first is sent: its record of what is sent goes into the base
 * under its token and the line's status names the token, so a create is never sent twice (the next
 * push looks for the row first). `newToken` gives one fresh token per create; `sentAt` is the
 * service's time, from which a lost create's row is looked for.
 */
export function markCreatesPending(
  session: PushSession,
  plans: readonly CreatePlan[],
  newToken: () => string,
  sent: { at: string; by: string },
): CreateBatch {
  const creates = plans.map(
    (plan): MarkedCreate => ({
      plan,
      token: newToken(),
      statusBefore: session.grid.get(plan.line, session.statusColumn),
    }),
  );
  for (const { plan, token } of creates) {
    session.base.set(
      pendingRecord(token, sent.at, sent.by, { ...plan, digests: sentDigests(plan.values, session.live) }),
    );
    setStatus(session, plan.line, pendingStatus(token));
  }
  return { creates, sent: 0, checked: 0 };
}

/**
 * After the pending marks were written: a create is sent only once its line carries its mark, so a
 * line the write could not find again (moved, or its columns moved while the run waited) is left for
 * the next run, unsent, its record gone. Returns whether any was left (the base changed).
 */
export function keepMarkedCreates(session: PushSession, batch: CreateBatch): boolean {
  const kept = batch.creates.filter((create) => session.grid.physicalRow(create.plan.line) >= 0);
  if (kept.length === batch.creates.length) return false;
  for (const create of batch.creates) if (!kept.includes(create)) session.base.delete(create.token);
  batch.creates = kept;
  return true;
}

/**
 * An answer of a request the service did not process because it limits requests (held back by the
 * client's pace, or refused with 429): the line is left for a later run, with no error on it.
 */
export function heldBackByRateLimit(answer: RowAnswer): boolean {
  return !answer.ok && answer.notSent === true && answer.error.code === 'RATE_LIMITED';
}

/**
 * Settles a wave of POST answers (the creates from `start`): a created row's id and fixed fields go
 * onto its line and the base agrees on what was sent; an answer that never came leaves the create
 * pending (the next push finds the row or sends it again); a refusal says why on the line.
 */
export function settleCreates(
  session: PushSession,
  batch: CreateBatch,
  start: number,
  answers: readonly RowAnswer[],
): void {
  const { base, grid } = session;
  const wave = batch.creates.slice(start, start + answers.length);
  answers.forEach((answer, i) => {
    const create = wave[i] as MarkedCreate;
    const { plan, token } = create;
    create.pending = base.get(token);
    create.createdId = answer.ok ? String(answer.row.id) : null;
    if (answer.ok) {
      const rowId = String(answer.row.id);
      base.delete(token);
      grid.set(plan.line, session.idColumn, rowId);
      const shown = showFixedFields(session, plan.line, answer.row);
      base.set({
        ...baseAfterWrite(undefined, {
          rowId,
          answeredLMod: String(answer.row.lMod),
          settledDigests: plan.digests,
        }),
        shown,
      });
      setStatus(session, plan.line, STATUS.created);
      session.counts.created += 1;
    } else if (answer.error.outcomeUnknown) {
      session.counts.errors += 1;
    } else if (heldBackByRateLimit(answer)) {
      // Not processed (the service limits requests): not pending, its status what it was; a later run sends it.
      base.delete(token);
      setStatus(session, plan.line, String(create.statusBefore ?? ''));
    } else {
      base.delete(token);
      setStatus(session, plan.line, notCreatedStatus([answer.error.message]));
      session.counts.errors += 1;
    }
  });
  batch.sent = start + answers.length;
}

/**
 * After created ids were written: a created row whose line could not be found (moved, its pending
 * mark wiped) got no id, so its pending record comes back and the next push adopts the row instead
 * of creating it again.
 */
export function keepUnwrittenCreatesPending(session: PushSession, batch: CreateBatch): void {
  for (const { plan, createdId, pending } of batch.creates.slice(batch.checked, batch.sent)) {
    if (!createdId || !pending || session.grid.physicalRow(plan.line) >= 0) continue;
    session.base.delete(createdId);
    session.base.set(pending);
    session.counts.created -= 1;
    session.counts.errors += 1;
  }
  batch.checked = batch.sent;
}

/** Creates never sent (out of time) are not pending: their record goes, their status is what it was. */
export function unmarkUnsentCreates(session: PushSession, batch: CreateBatch): void {
  for (const { plan, token, statusBefore } of batch.creates.slice(batch.sent)) {
    session.base.delete(token);
    setStatus(session, plan.line, String(statusBefore ?? ''));
  }
}
