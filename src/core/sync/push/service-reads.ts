// What a push reads of the service before it sends: the listing (a lost create's row, or the edited
// rows' state when that costs fewer requests than reading them one by one) and reads of rows by id.
// Each goes only as far as the execution can still send what it read; the listing goes on from where
// it stopped in the next execution, so a table too slow to list in one execution still gets its edits.

import type { BaseTable } from '../../base-table';
import type { Digest } from '../../digest';
import { SyncError } from '../../errors';
import { ALL_FIXED_FIELDS } from '../../layout';
import type { LinkRecord } from '../../records';
import { type Candidate, compactCandidate, isPendingRecord, mayBeLostCreateOf } from '../lost-creates';
import type { LinkedSheetPort, Listing, RowAnswer, ServiceRow, SyncPorts } from '../ports';
import type { PullHandoff } from '../pull/handoff';
import type { PushSession } from './session';
import { checkedRows } from './updates';

/** Writes per wave (a round of requests); the sheet and base are written after every few waves. */
export const WRITE_WAVE = 10;
/** Kept free after the last wave, to write what was sent. */
export const WRITE_RESERVE_MS = 30 * 1000;
/** Rows a wave of the listing brings at most (the client's waves: 10 pages of 100). */
const LISTING_WAVE_ROWS = 1000;
/** Rows read by id per call: one round of the client's waves, so each round decides whether to go on. */
const CHECK_WAVE = 10;

/**
 * A push's listing of the table that did not fit one execution: where it goes on, and the rows it
 * found so far that a lost create may have made (rows on no line and in no base; few), so the next
 * execution finds every lost create's row without listing the table from the start again.
 */
export interface PushListingProgress {
  nextOffset: number;
  /** Each as compactCandidate keeps it: fixed fields and a digest per column. */
  candidates: Array<{ row: Record<string, unknown>; digests: Record<string, Digest> }>;
  /**
   * The pending creates (their base ids) the candidates were looked for: a create that became pending
   * later (another person's, or sent after these pages were read) may have made a row in the pages
   * before `nextOffset`, so with one the listing starts over.
   */
  pending?: string[];
}

/** One push: its ports, its session and the service's rows once read. */
export interface Push {
  ports: SyncPorts;
  link: LinkRecord;
  sheet: LinkedSheetPort;
  session: PushSession;
  /** The service's rows read so far: the first page wave (read with the schema), then the listing. */
  serviceRows: Map<string, ServiceRow>;
  /** The page wave read with the schema (null when the push knew of no rows and read the schema alone). */
  firstWave: Listing | null;
  /** The listing, once read to the table's end (from `resumedListing`'s offset when set). */
  listing: Map<string, ServiceRow> | null;
  /** Where an earlier execution's listing stopped: this one lists from there. */
  resumedListing: PushListingProgress | undefined;
  /** Set when this execution's listing stopped part way. */
  listingStopped: PushListingProgress | undefined;
  /** The base ids of the creates pending when the push read its base, before reading the service. */
  pendingAtRead: string[];
  /** The longest a round of requests took in this execution (ms): what sending a wave will take. */
  roundMs: number;
  /** Work left for the next execution (a listing or row checks that did not fit). */
  unfinished: boolean;
  /** Set when the service's limit on requests stopped the sending: ms until it takes more. */
  rateLimitedMs?: number;
  /** Writes left unsent when the limit stopped the sending. */
  requestsLeft: number;
  /** A sync's poll for its pull, read with the schema, and the lines and base read after it. */
  ahead?: PullHandoff;
  /**
   * Rows already checked on the service by id (a live push's typed lines, read with the schema); only
   * until the push writes: a write between a check and its PATCH would widen the window in which
   * another person's change on the service goes unseen.
   */
  checked: ReadonlyMap<string, RowAnswer>;
}

/** The base ids of the pending creates a base holds. */
export function pendingIds(base: BaseTable): string[] {
  return base
    .all()
    .filter(isPendingRecord)
    .map((record) => record.id);
}

/**
 * Where this push's listing starts: an earlier execution's stop, unless a create became pending since
 * the pages before it were read (its row may be among them).
 */
export function resumableListing(
  resumed: PushListingProgress | undefined,
  pendingNow: readonly string[],
): PushListingProgress | undefined {
  if (!resumed?.pending) return undefined;
  const known = new Set(resumed.pending);
  return pendingNow.every((id) => known.has(id)) ? resumed : undefined;
}

/** Keeps the rows of a page by id. */
export function keepRows(rows: Map<string, ServiceRow>, page: readonly ServiceRow[]): void {
  for (const row of page) rows.set(String(row.id), row);
}

/** Notes how long the requests sent since `since` took, `rounds` rounds of them (the longest is kept). */
export function noteRounds(push: Push, since: number, rounds = 1): void {
  const took = (push.ports.run.now() - since) / Math.max(1, rounds);
  if (took > push.roundMs) push.roundMs = took;
}

/**
 * Whether one more round of reads leaves time to send the `sendable` edits it and the reads before it
 * make known: the read and each wave of PATCHes take a round, and a wave goes only while more than
 * WRITE_RESERVE_MS is left.
 */
function timeToRead(push: Push, sendable: number): boolean {
  const rounds = Math.max(1, Math.ceil(sendable / WRITE_WAVE));
  return push.ports.run.timeLeft() - WRITE_RESERVE_MS > rounds * push.roundMs;
}

/**
 * The edits sendable after one more listing wave: those whose rows were read, and the unread ones'
 * share of the rows a wave brings of those left (where they stand is not known).
 */
function sendableAfterWave(push: Push, listedTo: number): number {
  const { session, serviceRows } = push;
  let read = 0;
  for (const update of session.plan.updates) if (serviceRows.has(update.rowId)) read++;
  const unread = session.plan.updates.length - read;
  const rowsLeft = Math.max(1, Math.max(session.base.size, session.grid.length) - listedTo);
  return read + Math.ceil(unread * Math.min(1, LISTING_WAVE_ROWS / rowsLeft));
}

/** The progress to save when the listing stops at `nextOffset`. */
function progressAt(push: Push, nextOffset: number): PushListingProgress {
  return { nextOffset, candidates: adoptionCandidateRows(push), pending: push.pendingAtRead };
}

/**
 * The service's rows, read once per push (a listing when a lost create must be found or when it costs
 * less than GETs), or null when the listing stops before the table's end: it lists only while the
 * execution can still send what it read, then stops where it is, keeping the rows a lost create may
 * have made for the next execution (`listingStopped`). A listing resumed from an earlier execution
 * covers only those rows of the pages before it.
 */
export function loadListing(push: Push): Map<string, ServiceRow> | null {
  if (push.listing) return push.listing;
  if (push.listingStopped) return null;
  const { ports, link, session, serviceRows } = push;
  ports.run.report({ phase: 'reading the service rows' });
  const known = Math.max(session.base.size, session.grid.length);
  let listedTo = Math.max(push.firstWave?.nextOffset ?? 0, push.resumedListing?.nextOffset ?? 0);
  const stop = (): boolean => !timeToRead(push, sendableAfterWave(push, listedTo));
  if (stop()) {
    push.listingStopped = progressAt(push, listedTo);
    return null;
  }
  let askedAt = ports.run.now();
  const result = ports.service.listAllRows(link.tableAppId, link.tableId, {
    startOffset: listedTo,
    // Under a limit on requests the listing waits for the windows within this run's time: a stop
    // would have the next execution read the first pages again.
    paceSleepMs: Number.POSITIVE_INFINITY,
    ...(known > 0 ? { expectedTotal: known } : {}),
    onPage: (page, offset) => {
      keepRows(serviceRows, page);
      listedTo = offset + page.length;
    },
    shouldStop: () => {
      noteRounds(push, askedAt);
      askedAt = ports.run.now();
      return stop();
    },
  });
  if (result.rateLimitedMs !== undefined) throw rateLimitedError(result.rateLimitedMs);
  if (!result.done) {
    push.listingStopped = progressAt(push, result.nextOffset);
    return null;
  }
  push.listing = serviceRows;
  return serviceRows;
}

/**
 * What an unfinished push saves of its listing: where it stopped, or where the pages read with the
 * schema ended; nothing once it reached the table's end (the next execution lists from the start).
 */
export function listingToSave(push: Push): PushListingProgress | undefined {
  if (push.listingStopped) return push.listingStopped;
  if (push.listing || !push.firstWave || push.firstWave.done) return undefined;
  return progressAt(push, push.firstWave.nextOffset);
}

/**
 * The rows read so far that a lost create may have made (on no line, unknown to the base, created by
 * the sender of a pending create no earlier than it was sent, less clock skew), with those an earlier
 * execution kept, each compact: what a job keeps for the next execution. Few.
 */
function adoptionCandidateRows(push: Push): PushListingProgress['candidates'] {
  const { session, serviceRows, ports } = push;
  const pending = session.base.all().filter(isPendingRecord);
  const kept = [...(push.resumedListing?.candidates ?? [])];
  for (const [id, row] of serviceRows) {
    if (session.index.lineById.has(id) || session.base.has(id)) continue;
    const candidate = { id, cOn: String(row.cOn ?? ''), createdBy: String(row.createdBy), row };
    if (pending.some((record) => mayBeLostCreateOf(record, candidate, ports.run.userId)))
      kept.push(compactCandidate(row, session.live, ALL_FIXED_FIELDS));
  }
  return kept;
}

/** The candidates an earlier execution kept, as adoption compares them. */
export function resumedCandidates(push: Push): Candidate[] {
  return (push.resumedListing?.candidates ?? []).map(({ row, digests }) => ({
    id: String(row.id),
    cOn: String(row.cOn ?? ''),
    createdBy: String(row.createdBy),
    row,
    digests,
  }));
}

/** Whether the listing read covers every row (not only the candidates of a resumed one). */
export function listingCoversEveryRow(push: Push): boolean {
  return push.listing !== null && push.resumedListing === undefined;
}

/**
 * GETs the rows of `rowIds` a round at a time while the execution can still send what it read; the
 * edits of rows not checked in time wait for the next execution (taken out of the plan; the push is
 * unfinished).
 */
export function checkRowsInTime(
  push: Push,
  rowIds: readonly string[],
): { rows: Map<string, ServiceRow>; changed: boolean } {
  const { ports, link, session } = push;
  let rows = new Map(push.serviceRows);
  let changed = false;
  // Rows read with the schema (a live push's typed lines) are not read again.
  const known = rowIds.filter((rowId) => push.checked.has(rowId));
  if (known.length > 0) {
    const checked = checkedRows(
      session,
      known,
      known.map((rowId) => push.checked.get(rowId) as RowAnswer),
      rows,
    );
    rows = checked.rows;
    changed = checked.changed;
  }
  const unread = rowIds.filter((rowId) => !push.checked.has(rowId));
  let sendable = session.plan.updates.filter((update) => rows.has(update.rowId)).length;
  let start = 0;
  for (; start < unread.length; start += CHECK_WAVE) {
    const wave = unread.slice(start, start + CHECK_WAVE);
    if (!timeToRead(push, sendable + wave.length)) break;
    const askedAt = ports.run.now();
    const answers = ports.service.rowsByIds(link.tableAppId, link.tableId, wave);
    noteRounds(push, askedAt);
    const checked = checkedRows(session, wave, answers, rows);
    rows = checked.rows;
    changed ||= checked.changed;
    sendable += wave.length;
  }
  if (start < unread.length) {
    const later = new Set(unread.slice(start));
    session.plan.updates = session.plan.updates.filter((update) => !later.has(update.rowId));
    push.unfinished = true;
  }
  return { rows, changed };
}

/**
 * The push stopped before sending anything because the service limits requests: thrown, so the
 * operation goes on after `waitMs` (nothing was settled yet, so nothing is lost).
 */
function rateLimitedError(waitMs: number): SyncError {
  return new SyncError(
    'RATE_LIMITED',
    'The service limits how many requests the add-on may send: the push waits and goes on.',
    { retryAfterMs: waitMs },
  );
}
