// What a sync's push hands to the pull that follows it in the same execution: the rows changed on the
// service (polled with the push's schema read, in its first wave), and the sheet's lines and base as
// the push read and then wrote them. The pull takes them instead of reading the same again (about two
// seconds of a 10,000-line sheet) only when that is provably what it would read: no wait since the push
// read the lines (nobody can have changed the sheet: RunPort.waitsSoFar), the push sent nothing to the
// service (the poll is still the service as it stands), and the pull polls from the same `since`.
import type { BaseTable } from '../../base-table';
import type { LineGrid } from '../../line-grid';
import type { Listing, ServiceRow, ServiceTable } from '../ports';

export interface PullHandoff {
  /** The `since` the push polled from. */
  since: string;
  table: ServiceTable;
  /** The poll's pages, in the order delivered. */
  pages: ReadonlyArray<{ rows: readonly ServiceRow[]; offset: number }>;
  listing: Listing;
  /** The header row and lines as the push read them, with everything the push wrote applied. */
  headers: unknown[];
  grid: LineGrid;
  /** The base as the push left it (its changes written). */
  base: BaseTable;
  /** The run's count of waits when the push read the lines. */
  readAtWait: number;
}

/** The handoff's poll, lines and base, when the pull may take them as its own reads; else undefined. */
export function usableHandoff(
  handoff: PullHandoff | undefined,
  since: string | undefined,
  waitsNow: number,
): PullHandoff | undefined {
  if (!handoff || since === undefined || handoff.since !== since) return undefined;
  // A wait since the read: a person may have typed, sorted or deleted lines meanwhile.
  if (waitsNow !== handoff.readAtWait || handoff.grid.checkedAtWait !== waitsNow) return undefined;
  return handoff.listing.done ? handoff : undefined;
}
