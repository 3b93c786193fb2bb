// Whether a pull reads only what changed (the poll for row updates) or lists the whole table, and
// the `since` it asks from: the service's own lMods, never the script's clock.

import type { LinkRecord } from '../../records';

/**
 * Taken off the largest lMod seen: a row may commit with an lMod a little older than one already
 * seen, and a listing takes time (rows before it changed while later pages were read). Ten minutes
 * covers a whole execution's listing (6 minutes at most) and then some.
 */
export const POLL_OVERLAP_MS = 10 * 60 * 1000;

/** The whole table is listed again at least this often (the poll reports no deletions). */
export const FULL_LISTING_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Changed rows a poll delivers at most; past it the pull lists the whole table instead, in chunks it
 * can continue in a later execution (a poll gathers rows it cannot resume from).
 */
export const POLL_MAX_ROWS = 5000;

/** A poll of a table this small always goes on to its end (a few pages cost less than a listing). */
export const POLL_MIN_ROWS = 500;

/**
 * Rows after which a poll gives way to the whole listing: a tenth of the table (its rows known from the
 * last pull), at least POLL_MIN_ROWS, at most POLL_MAX_ROWS. A poll that brings many rows (a bulk
 * edit, or a table whose rows all share the newest lMod, all inside the overlap) would cost about as
 * much as the listing, which follows anyway; past a tenth, the pages already read are the waste.
 */
export function pollRowsAtMost(knownRows: number): number {
  return Math.min(POLL_MAX_ROWS, Math.max(POLL_MIN_ROWS, Math.ceil(knownRows / 10)));
}

/**
 * What a whole listing writes on every line besides the table's columns: the fixed fields the link
 * shows, and how (members as e-mails). A listing that started with other options did not write these.
 */
export function listingOptionsOf(link: Pick<LinkRecord, 'fixedFields' | 'showEmails'>): string {
  return JSON.stringify([link.fixedFields, link.showEmails === true]);
}

/**
 * The `since` of a pull that reads only what changed, or undefined when it lists the whole table:
 * on "Pull everything", before any pull finished with a cursor, a day after the last full listing
 * (`now` is the script's clock, used only for that), while columns added by a pull are still
 * being filled (every line takes their values), and when the last whole listing wrote other display
 * options than the link's (they changed while it went on).
 */
export function pollSinceFor(link: LinkRecord, now: number, everything: boolean): string | undefined {
  if (everything || (link.freshColumns?.length ?? 0) > 0) return undefined;
  if (!link.pollCursor || !link.fullListingAt) return undefined;
  if (link.listedWith !== undefined && link.listedWith !== listingOptionsOf(link)) return undefined;
  const listed = Date.parse(link.fullListingAt);
  if (!Number.isFinite(listed) || now - listed >= FULL_LISTING_EVERY_MS) return undefined;
  const newest = Date.parse(link.pollCursor);
  if (!Number.isFinite(newest)) return undefined;
  return new Date(newest - POLL_OVERLAP_MS).toISOString();
}

/** The largest lMod (ms) among `newest` and the rows' own; rows without a readable one are skipped. */
export function newestLMod(newest: number, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): number {
  let out = newest;
  for (const row of rows) {
    const lMod = row.lMod;
    const at = typeof lMod === 'string' ? Date.parse(lMod) : Number.NaN;
    if (Number.isFinite(at) && at > out) out = at;
  }
  return out;
}

/**
 * The cursor a finished pull leaves: the largest lMod seen so far. A pull that went on over several
 * executions keeps the one before it (rows listed early may have changed during the later ones,
 * longer ago than the overlap covers): undefined when there was none, so the next pull lists again.
 */
export function cursorAfter(
  previous: string | undefined,
  newest: number,
  resumed: boolean,
): string | undefined {
  if (resumed) return previous;
  const before = previous ? Date.parse(previous) : Number.NEGATIVE_INFINITY;
  const at = Math.max(Number.isFinite(before) ? before : Number.NEGATIVE_INFINITY, newest);
  return Number.isFinite(at) ? new Date(at).toISOString() : previous;
}
