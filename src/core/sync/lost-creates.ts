// Finding the row a lost create made: a create whose answer never came (dropped connection, 5xx)
// leaves a pending record of what was sent; push and pull look for that row before anything else.
import type { BaseRecord } from '../base';
import { type JsonValue, valueDigest } from '../codec';
import type { ColumnSpec } from '../columns';
import type { Digest } from '../digest';

/** A create that was sent: the base keeps its per-column digests under the pending token. */
export function pendingRecord(
  token: string,
  sentAt: string,
  sentBy: string,
  plan: { readonly digests: Readonly<Record<string, Digest>> },
): BaseRecord {
  return { id: token, lMod: sentAt, digests: { ...plan.digests }, ...(sentBy ? { sentBy } : {}) };
}

/**
 * Who made the row a pending create's answer was lost for: the key that sent it (recorded since
 * teams share sheets), or, for a record older than that, the key running now (as before).
 */
export function senderOf(pending: BaseRecord, me: string): string {
  return pending.sentBy ?? me;
}

export interface Candidate {
  id: string;
  cOn: string;
  createdBy: string;
  /** The row as listed; for a candidate an earlier execution kept, its fixed fields only. */
  row: Readonly<Record<string, unknown>>;
  /** Per column, the digest of the row's value, when `row` holds fixed fields only. */
  digests?: Readonly<Record<string, Digest>>;
}

const CLOCK_SKEW_MS = 2 * 60 * 1000;

/**
 * Finds the row a lost create made: created by this user, not already on a line or in the base, no
 * earlier than the attempt (less clock skew), with exactly the values sent. Each row is adopted once.
 */
export function findLostCreate(
  pending: BaseRecord,
  candidates: readonly Candidate[],
  live: readonly ColumnSpec[],
  taken: Set<string>,
): Candidate | undefined {
  const since = Date.parse(pending.lMod);
  const kinds = new Map(live.map((column) => [column.id, column.kind]));
  const sent = Object.keys(pending.digests).filter((columnId) => kinds.has(columnId));
  for (const candidate of candidates) {
    if (!mayBeFromAttempt(candidate, since, taken)) continue;
    if (sent.every((columnId) => holdsSent(candidate, pending, columnId, kinds))) {
      taken.add(candidate.id);
      return candidate;
    }
  }
  return undefined;
}

/** Whether a row could be the one a pending create made: by its sender, no earlier than it was sent. */
export function mayBeLostCreateOf(pending: BaseRecord, candidate: Candidate, me: string): boolean {
  return (
    candidate.createdBy === senderOf(pending, me) &&
    mayBeFromAttempt(candidate, Date.parse(pending.lMod), new Set())
  );
}

/** Whether a row is not yet taken and was created no earlier than the attempt (less clock skew). */
function mayBeFromAttempt(candidate: Candidate, since: number, taken: ReadonlySet<string>): boolean {
  if (taken.has(candidate.id)) return false;
  const created = Date.parse(candidate.cOn);
  return Number.isNaN(since) || Number.isNaN(created) || created >= since - CLOCK_SKEW_MS;
}

/** Whether a row holds the value a pending create sent for a live column (an absent value reads null). */
function holdsSent(
  candidate: Candidate,
  pending: BaseRecord,
  columnId: string,
  kinds: ReadonlyMap<string, ColumnSpec['kind']>,
): boolean {
  if (candidate.digests) return candidate.digests[columnId] === pending.digests[columnId];
  const value = Object.prototype.hasOwnProperty.call(candidate.row, columnId)
    ? candidate.row[columnId]
    : null;
  return valueDigest(value, kinds.get(columnId) as ColumnSpec['kind']) === pending.digests[columnId];
}

/**
 * The row a lost create made when someone changed it before the create was recovered (so no row holds
 * exactly what was sent): among the rows created by this user no earlier than the attempt, not on a
 * line or in the base, the single one changed since its creation (lMod after cOn) that holds at least
 * half of the values sent. Two such rows, or none: undefined (nothing is guessed).
 */
export function findChangedLostCreate(
  pending: BaseRecord,
  candidates: readonly Candidate[],
  live: readonly ColumnSpec[],
  taken: Set<string>,
): Candidate | undefined {
  const since = Date.parse(pending.lMod);
  const kinds = new Map(live.map((column) => [column.id, column.kind]));
  const sent = Object.keys(pending.digests).filter((columnId) => kinds.has(columnId));
  if (sent.length === 0) return undefined;
  const found: Candidate[] = [];
  for (const candidate of candidates) {
    if (!mayBeFromAttempt(candidate, since, taken)) continue;
    const lMod = candidate.row.lMod;
    if (typeof lMod !== 'string' || lMod === candidate.cOn) continue;
    let matching = 0;
    for (const columnId of sent) if (holdsSent(candidate, pending, columnId, kinds)) matching++;
    // Half is enough (a title and an amount sent, the amount changed since: interleavings seed 1220);
    // two such rows still adopt neither.
    if (matching > 0 && matching * 2 >= sent.length) found.push(candidate);
  }
  if (found.length !== 1) return undefined;
  const only = found[0] as Candidate;
  taken.add(only.id);
  return only;
}

/**
 * A candidate as a job keeps it between executions: its fixed fields and a digest per live column
 * (small, whatever its values hold), enough to be found again by findLostCreate.
 */
export function compactCandidate(
  row: Readonly<Record<string, unknown>>,
  live: readonly ColumnSpec[],
  fixedFields: readonly string[],
): { row: Record<string, unknown>; digests: Record<string, Digest> } {
  const fixed: Record<string, unknown> = Object.create(null);
  for (const field of fixedFields) if (row[field] !== undefined) fixed[field] = row[field];
  const digests: Record<string, Digest> = Object.create(null);
  for (const column of live) digests[column.id] = valueDigest(row[column.id] ?? null, column.kind);
  return { row: fixed, digests };
}

/** Sent values as cell digests per column (what findLostCreate compares against). */
export function sentDigests(
  values: Readonly<Record<string, JsonValue>>,
  live: readonly ColumnSpec[],
): Record<string, Digest> {
  const digests: Record<string, Digest> = Object.create(null);
  for (const column of live) {
    if (Object.prototype.hasOwnProperty.call(values, column.id)) {
      digests[column.id] = valueDigest(values[column.id], column.kind);
    }
  }
  return digests;
}

/** Whether an id is a pending create's token (the id its base record has until the row is found). */
export function isPendingToken(id: string): boolean {
  return id.startsWith('pending:');
}

/** Whether a base record is a pending create's (its id is the create's token). */
export function isPendingRecord(record: BaseRecord): boolean {
  return isPendingToken(record.id);
}

/**
 * The base of a row adopted from a lost create: what was sent is what was agreed (columns not sent
 * agreed empty), so edits made to the line after the create was sent show as edits and are pushed.
 */
export function adoptedBase(
  pending: BaseRecord,
  rowId: string,
  lMod: string,
  live: readonly ColumnSpec[],
): BaseRecord {
  const digests: Record<string, Digest> = Object.create(null);
  for (const column of live)
    digests[column.id] = pending.digests[column.id] ?? valueDigest(null, column.kind);
  return { id: rowId, lMod, digests };
}

/**
 * New lines whose status no longer names their pending create (a person cleared or pasted over the
 * cell) are matched to the base's pending records by what was sent: a line holding exactly the values
 * of an unclaimed pending create is that create, so it is looked for, never sent again; so is the one
 * line holding half of them or more when no other line and no other record shares that match. Returns
 * the token per line index of `lines`.
 */
export function matchPendingByContent(
  lines: ReadonlyArray<{
    digests: Readonly<Record<string, Digest>>;
    values: Readonly<Record<string, JsonValue>>;
  }>,
  pending: readonly BaseRecord[],
  claimed: ReadonlySet<string>,
  live: readonly ColumnSpec[],
): Map<number, string> {
  const found = new Map<number, string>();
  const taken = new Set(claimed);
  const sentOf = lines.map((line) => sentDigests(line.values, live));
  sentOf.forEach((sent, index) => {
    const keys = Object.keys(sent);
    for (const record of pending) {
      if (taken.has(record.id)) continue;
      const recordKeys = Object.keys(record.digests);
      if (recordKeys.length !== keys.length) continue;
      if (!keys.every((key) => record.digests[key] === sent[key])) continue;
      taken.add(record.id);
      found.set(index, record.id);
      return;
    }
  });
  // A line whose mark was wiped and which the person then changed holds only part of what was sent
  // (platform chaos seed 20240108: its status cleared, its amount retyped, it was created again).
  // Half of the sent values or more, on exactly one line for exactly one record, is that create.
  const halfMatches = new Map<number, string[]>();
  const linesOfRecord = new Map<string, number[]>();
  sentOf.forEach((sent, index) => {
    if (found.has(index)) return;
    for (const record of pending) {
      if (taken.has(record.id)) continue;
      const recordKeys = Object.keys(record.digests);
      const matching = recordKeys.filter((key) => sent[key] === record.digests[key]).length;
      if (matching === 0 || matching * 2 < recordKeys.length) continue;
      halfMatches.set(index, [...(halfMatches.get(index) ?? []), record.id]);
      linesOfRecord.set(record.id, [...(linesOfRecord.get(record.id) ?? []), index]);
    }
  });
  for (const [index, records] of halfMatches) {
    const record = records[0] as string;
    if (records.length === 1 && linesOfRecord.get(record)?.length === 1) found.set(index, record);
  }
  return found;
}
