// The poll for row updates (table-api.md, "Operations the seed names without a shape"): what a
// connection remembers of it, and how an answer is checked rather than trusted.

import { SyncError } from '../core/errors';
import type { ErrorContext } from './errors';
import { type ListPage, readRowPage } from './shapes';
import type { Row } from './types';

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

/**
 * A poll page as a listing page reads, without a `total`: the poll's pages overlap (PollPages), so
 * the listing's paging must not end them by a count of rows.
 */
export function readPollPage(json: unknown, ctx: ErrorContext): ListPage<Row> {
  const page = readRowPage(json, ctx);
  return page.hasMore === undefined ? { items: page.items } : { items: page.items, hasMore: page.hasMore };
}

/** Times a poll goes on from the last row it is sure of, at most, before it ends unfinished. */
export const MAX_POLL_RESTARTS = 3;

type PolledRow = Readonly<Record<string, unknown>>;

/** A row as a poll names it: its id and lMod (a row changed since comes again as another version). */
function versionOf(row: PolledRow): string {
  return `${String(row.id)}\u0000${String(row.lMod)}`;
}

/**
 * A poll's pages, followed: each page after the first starts on the row the one before ended on (the
 * pages overlap by a row), so a row that left the order meanwhile (changed: it moved to the end; or
 * deleted), which moves the rows after it back, shows as a page that does not start there. The poll
 * then goes on from that last row's lMod. Rows already delivered are not delivered again.
 */
export class PollPages {
  private readonly delivered = new Set<string>();
  /** The last row of the page before, in this run of pages. */
  private last: PolledRow | undefined;
  /** Set when a page did not start on `last`: the row to go on from. */
  private brokenAt: PolledRow | undefined;
  /** The rows a full page holds (the first page's; a service may answer fewer than the limit). */
  private size = 0;

  /**
   * The offset to ask for the page the listing's paging places at `virtual` (its pages of `size` rows
   * side by side): each page a row earlier than the one before ended.
   */
  offsetOf(virtual: number, limit: number): number {
    return virtual - Math.floor(virtual / (this.size || limit));
  }

  /** A new run of pages, from a new `since`: its first page is taken as it comes. */
  restart(): void {
    this.last = undefined;
    this.brokenAt = undefined;
  }

  /** The rows of a page to deliver (those not delivered before), or null when it broke the chain. */
  take(rows: readonly PolledRow[]): PolledRow[] | null {
    const first = rows[0];
    if (this.last && (!first || versionOf(first) !== versionOf(this.last))) {
      this.brokenAt = this.last;
      return null;
    }
    if (this.size === 0 && rows.length > 0) this.size = rows.length;
    if (rows.length > 0) this.last = rows[rows.length - 1];
    const fresh = rows.filter((row) => !this.delivered.has(versionOf(row)));
    for (const row of fresh) this.delivered.add(versionOf(row));
    return fresh;
  }

  /** The `since` to go on from after a page broke the chain (the last sure row's lMod), else undefined. */
  resumeSince(): string | undefined {
    return this.brokenAt ? new Date(Date.parse(String(this.brokenAt.lMod))).toISOString() : undefined;
  }
}

/** What a poll's paging reports (the client's ListAllResult). */
export interface PolledListing {
  rowCount: number;
  pageRequests: number;
  nextOffset: number;
  done: boolean;
  rateLimitedMs?: number;
}

/**
 * The listing's paging over the poll from `since`, each page asked at `offsetOf` its place, its rows
 * handed to `take` (which may answer 'stop'); `first`: the poll's first run of pages (a schema read may
 * ride with it).
 */
export type PollSegment<R> = (
  since: string,
  offsetOf: (virtual: number) => number,
  take: (rows: R[]) => unknown,
  first: boolean,
) => PolledListing;

/**
 * A poll from `since`, paged by `segment` (the listing's paging over the poll from a given `since`,
 * asking each page at the offset it is given): pages follow on from one another (PollPages), and when
 * rows changed between two of them, the poll goes on from the last row it is sure of, at most
 * MAX_POLL_RESTARTS times and while `shouldStop` and `deadline` allow (else it ends unfinished). Rows reach `onPage` in
 * order, each version once, with the count delivered before them as their offset.
 */
export function followPoll<R extends PolledRow>(
  since: string,
  options: {
    onPage?: (rows: R[], offset: number) => unknown;
    shouldStop?: () => boolean;
    deadline?: (() => number) | undefined;
  },
  segment: PollSegment<R>,
  limit: number,
): PolledListing {
  const { onPage, shouldStop, deadline } = options;
  const outOfTime = (): boolean => shouldStop?.() === true || (deadline !== undefined && deadline() <= 0);
  const pages = new PollPages();
  let from = since;
  let delivered = 0;
  let pageRequests = 0;
  const take = (rows: R[]): unknown => {
    const fresh = pages.take(rows) as R[] | null;
    if (fresh === null) return 'stop';
    const verdict = onPage?.(fresh, delivered);
    delivered += fresh.length;
    return verdict;
  };
  for (let restarts = 0; ; restarts++) {
    pages.restart();
    const result = segment(from, (virtual) => pages.offsetOf(virtual, limit), take, restarts === 0);
    pageRequests += result.pageRequests;
    const sum = { ...result, rowCount: delivered, pageRequests, nextOffset: delivered };
    const resume = pages.resumeSince();
    if (resume === undefined || result.rateLimitedMs !== undefined) return sum;
    if (restarts === MAX_POLL_RESTARTS || outOfTime()) return { ...sum, done: false };
    from = resume;
  }
}
