// The poll for row updates (table-api.md, "Operations the seed names without a shape"): what a
// connection remembers of it, and how an answer is checked rather than trusted.

import { SyncError } from '../core/errors';

/** A poll found missing (or ignoring `since`) is tried again after a day, as the contract settles. */
export const POLL_RETRY_MS = 24 * 60 * 60 * 1000;

/**
 * What a connection remembers of the poll: whether it worked, and when that was found (the HTTP
 * port's clock, ms). Kept with the connection, like the detected prefix.
 */
export interface PollMemory {
  supported: boolean;
  checkedAt: number;
}

/** What a poll found: the rows changed since (delivered page by page), or that the service has none usable. */
export type PollOutcome<L> = { supported: true; listing: L } | { supported: false };

/** `since` as the contract writes it: ISO 8601 UTC with milliseconds. */
const SINCE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The instant `since` names (ms); refuses (VALIDATION) anything but ISO 8601 UTC with ms. */
export function sinceMs(since: string): number {
  const ms = SINCE_FORMAT.test(since) ? Date.parse(since) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new SyncError(
      'VALIDATION',
      `The poll's "since" must be an ISO 8601 UTC time with ms (got ${since}).`,
    );
  }
  return ms;
}

/** Whether a remembered verdict still stands at `now`: a missing poll is not asked again for a day. */
export function pollKnownMissing(memory: PollMemory | undefined, now: number): boolean {
  return memory !== undefined && !memory.supported && now - memory.checkedAt < POLL_RETRY_MS;
}

/**
 * Whether an answer page shows the service ignoring `since`: a row with an `lMod` before it (or with
 * no `lMod` that reads as a time, which nothing can check).
 */
export function pageIgnoresSince(
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  since: number,
): boolean {
  for (const row of rows) {
    const lMod = row.lMod;
    const at = typeof lMod === 'string' ? Date.parse(lMod) : Number.NaN;
    if (!Number.isFinite(at) || at < since) return true;
  }
  return false;
}

/** HTTP statuses that say the service has no such operation (or does not take its query). */
const MISSING_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 501]);

/**
 * Whether a failed poll says the poll is missing: 404, 405, 400 or 501, or an answer that is not a
 * listing (a page the shape check refused). Anything else (a refused key, a fault that outlived its
 * retries, the network) is the run's failure, as for the listing.
 */
export function pollMissing(error: unknown): boolean {
  if (!(error instanceof SyncError)) return false;
  if (error.status !== undefined && MISSING_STATUSES.has(error.status)) return true;
  return error.code === 'BAD_RESPONSE';
}
