import type { BaseRecord } from '../../base';
import { notCreatedStatus, pendingStatus, STATUS } from '../../status';
import { pendingRecord, sentDigests } from '../lost-creates';
import { baseAfterWrite } from './line-edits';
import type { CreatePlan } from './plan';
import { type PushSession, type RowAnswer, setStatus, showFixedFields } from './session';

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
        ...baseAfterWrite(undefined, {
          rowId,
          answeredLMod: String(answer.row.lMod),
          settledDigests: create.digests,
        }),
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
