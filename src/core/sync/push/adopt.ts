import type { BaseRecord } from '../../base';
import { cellsByGet } from '../../lines';
import { headerlessColumnsReason, notCreatedStatus, STATUS } from '../../status';
import {
  adoptedBase,
  type Candidate,
  findChangedLostCreate,
  findLostCreate,
  isPendingRecord,
  matchPendingByContent,
  senderOf,
} from '../lost-creates';
import { cellEdits } from './line-edits';
import type { CreatePlan } from './plan';
import { type PushSession, type ServiceRow, setStatus, showFixedFields } from './session';

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

/**
 * Pending creates whose rows could not be looked for (the listing did not fit this run): they stay
 * pending, never sent, until a later execution has listed the table.
 */
export function deferPendingCreates(session: PushSession, pendingCreates: readonly CreatePlan[]): void {
  const { plan } = session;
  const deferred = new Set(pendingCreates);
  plan.creates = plan.creates.filter((create) => !deferred.has(create));
}

/** Pages a listing of the table from `startOffset` costs (more GETs than this: list instead). */
export function listingPagesLeft(
  session: PushSession,
  firstWave: { readonly done: boolean; readonly pageRequests: number } | null,
  startOffset = 0,
): number {
  if (firstWave?.done) return 0;
  const pages =
    Math.ceil(Math.max(0, Math.max(session.base.size, session.grid.length) - startOffset) / 100) + 1;
  return Math.max(0, pages - (firstWave ? firstWave.pageRequests + 1 : 0));
}

/** A lost create adopted onto its line: the row it made, and the pending record it replaced. */
export interface Adoption {
  line: number;
  rowId: string;
  pending: BaseRecord;
}

/**
 * The rows not on a line nor in the base, oldest first: the rows a lost create may have made (each
 * create looks only at the rows its sender created).
 */
function adoptionCandidates(
  session: PushSession,
  listing: ReadonlyMap<string, ServiceRow>,
  kept: readonly Candidate[],
) {
  const taken = new Set<string>();
  for (const id of session.index.lineById.keys()) taken.add(id);
  for (const record of session.base.all()) taken.add(record.id);
  const candidates: Candidate[] = kept.filter(
    (candidate) => !taken.has(candidate.id) && !listing.has(candidate.id),
  );
  for (const row of listing.values()) {
    if (taken.has(String(row.id))) continue;
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
  /** Candidates an earlier execution's listing found (compact: fixed fields and digests). */
  kept: readonly Candidate[] = [],
): Adoption[] {
  const { grid, base, live, plan } = session;
  const { candidates, taken } = adoptionCandidates(session, listing, kept);
  const sentBy = (pending: BaseRecord): Candidate[] =>
    candidates.filter((candidate) => candidate.createdBy === senderOf(pending, me));
  const exact = new Map<CreatePlan, Candidate | undefined>();
  for (const create of pendingCreates) {
    const pending = base.get(create.pendingToken as string);
    exact.set(create, pending ? findLostCreate(pending, sentBy(pending), live, taken) : undefined);
  }
  const adopted: Adoption[] = [];
  for (const create of pendingCreates) {
    const token = create.pendingToken as string;
    const pending = base.get(token);
    // Someone changed the created row before its answer was recovered (chaos seed 20240141): found
    // only as the one row changed since its creation that still holds most of what was sent.
    const changed = exact.get(create) === undefined && pending !== undefined;
    const found = changed ? findChangedLostCreate(pending, sentBy(pending), live, taken) : exact.get(create);
    if (pending) base.delete(token);
    create.pendingToken = null;
    if (!found) {
      if (session.headerless.length > 0) waitForHeaders(session, create);
      continue;
    }
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

/** A lost create not found on the service is sent again only once every synced header is back. */
function waitForHeaders(session: PushSession, create: CreatePlan): void {
  const { plan } = session;
  plan.creates.splice(plan.creates.indexOf(create), 1);
  const status = notCreatedStatus([headerlessColumnsReason(session.headerless)]);
  plan.errors.push({ line: create.line, status });
  setStatus(session, create.line, status);
  session.counts.errors += 1;
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
