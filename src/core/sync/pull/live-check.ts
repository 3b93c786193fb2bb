// The live check (the sidebar's look for changes every 30 s, issue 25): what one poll answer must hold
// for the table to count as unchanged, so an unchanged table costs one request and no Spreadsheet
// call. Anything else is handed to the pull, which applies it under every rule of sync-rules.md.

import type { BaseTable } from '../../base-table';
import { digest, digestText } from '../../digest';
import type { LinkRecord } from '../../records';
import { owedColumnIds } from './owed';
import { POLL_OVERLAP_MS } from './poll';

/**
 * The schema rides along with the poll (same fetchAll round, one more request) when the link's was
 * last read longer ago than this. A column added, renamed or deleted on the service touches no row's
 * lMod, so the poll alone never shows it; reading it every 30 s would double the cost of every check.
 */
export const SCHEMA_RECHECK_MS = 10 * 60 * 1000;

/** A row of a poll answer as the check remembers it: its id and lMod, nothing else. */
export interface PolledRow {
  id: string;
  lMod: string;
}

/** The id and lMod of a service row, when both are readable (the poll's window is kept by them). */
export function polledRowOf(row: Readonly<Record<string, unknown>>): PolledRow | undefined {
  const { id, lMod } = row;
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof lMod !== 'string') return undefined;
  return Number.isFinite(Date.parse(lMod)) ? { id: String(id), lMod } : undefined;
}

/**
 * The fingerprint of a poll's answer: `since`, how many rows, and a digest of their ids and lMods in
 * a fixed order (the service's order is not relied on). Two answers with the same fingerprint name the
 * same rows at the same versions: lMods strictly increase per row, so any change shows.
 */
export function pollEchoOf(since: string, rows: readonly PolledRow[]): string {
  const keys = rows.map((row) => `${row.id}\u0000${row.lMod}`).sort();
  return `${since}|${keys.length}|${digestText(digest(keys.join('\u0001')))}`;
}

/** A digest of the table's columns as the service describes them (ids, names, types, deleted). */
export function schemaDigestOf(table: { readonly columns: readonly unknown[] }): string {
  return digestText(digest(JSON.stringify(table.columns)));
}

/**
 * Keeps the rows a pull received that the next poll will name again (the overlap below the cursor),
 * as the pull goes: a whole listing of 100,000 rows keeps only those within the overlap of the newest
 * lMod seen so far.
 */
const PRUNE_AT_LEAST = 4096;

export class PollWindow {
  private rows: Array<PolledRow & { at: number }> = [];
  private newest = Number.NEGATIVE_INFINITY;
  /** Rows held before the next prune: twice what the last one kept, so pruning stays linear. */
  private pruneAt = PRUNE_AT_LEAST;

  add(page: ReadonlyArray<Readonly<Record<string, unknown>>>): void {
    for (const row of page) {
      const polled = polledRowOf(row);
      if (!polled) continue;
      const at = Date.parse(polled.lMod);
      if (at > this.newest) this.newest = at;
      if (at >= this.newest - POLL_OVERLAP_MS) this.rows.push({ ...polled, at });
    }
    // Pruned once it has grown: rows a later page pushed out of the window are dropped in bulk. A
    // listing whose rows all sit within the overlap keeps them all, and a fixed threshold would then
    // filter the whole window at every page (quadratic: 5 s of a 100,000-row pull's JavaScript).
    if (this.rows.length > this.pruneAt) {
      this.prune(this.newest - POLL_OVERLAP_MS);
      this.pruneAt = Math.max(PRUNE_AT_LEAST, this.rows.length * 2);
    }
  }

  /** The rows at or after `since` (ms). */
  since(since: number): PolledRow[] {
    this.prune(since);
    return this.rows.map(({ id, lMod }) => ({ id, lMod }));
  }

  private prune(from: number): void {
    this.rows = this.rows.filter((row) => row.at >= from);
  }
}

/**
 * The echo a finished pull leaves for the next check: the fingerprint of what the poll from the new
 * cursor would answer if nothing changed. Only rows the base agrees on at that lMod (or holds as a
 * conflict seen at it) count as received: a row left for the next run (its line not found, a write
 * that did not land) is not in the echo, so the check hands it to a pull again.
 */
export function echoAfterPull(
  window: PollWindow,
  nextSince: string | undefined,
  base: BaseTable,
): string | undefined {
  if (nextSince === undefined) return undefined;
  const from = Date.parse(nextSince);
  const rows = window.since(from).filter((row) => {
    const record = base.get(row.id);
    return record !== undefined && (record.lMod === row.lMod || record.conflict?.lMod === row.lMod);
  });
  return pollEchoOf(nextSince, rows);
}

/** What the check asks the service, from the link alone (no Spreadsheet call). */
export type CheckPlan =
  /**
   * A pull is owed whatever changed (never pulled, a whole listing due, columns being filled, changes
   * to a column whose header was missing: whether it is back only the sheet says).
   */
  | { kind: 'pull' }
  /** Poll from `since`; with the schema too when `withSchema`. */
  | { kind: 'poll'; since: string; withSchema: boolean };

/**
 * The check's plan: the poll from the next pull's `since` (`pullSince`: pollSinceFor's answer, which
 * is undefined when the next pull lists the whole table, then the check hands over to it at once), the
 * schema too when it was last read SCHEMA_RECHECK_MS ago or more (or never recorded).
 */
export function checkPlanFor(link: LinkRecord, pullSince: string | undefined, now: number): CheckPlan {
  if (pullSince === undefined || owedColumnIds(link).length > 0) return { kind: 'pull' };
  const readAt = link.schemaReadAt ? Date.parse(link.schemaReadAt) : Number.NaN;
  const stale = !link.schemaDigest || !Number.isFinite(readAt) || now - readAt >= SCHEMA_RECHECK_MS;
  // A time ahead of the clock (a clock that was wrong) is no reason to skip the schema: it is read.
  return { kind: 'poll', since: pullSince, withSchema: stale || readAt > now };
}

/** What the poll (and the schema, when read) said against what the last pull left. */
export function unchangedSince(
  link: LinkRecord,
  since: string,
  rows: readonly PolledRow[],
  schemaDigest: string | undefined,
): boolean {
  if (schemaDigest !== undefined && schemaDigest !== link.schemaDigest) return false;
  return link.pollEcho !== undefined && link.pollEcho === pollEchoOf(since, rows);
}

/**
 * The words of a check that found nothing new, or of what a check's pull brought; what the pull could
 * not do with the sheet's headers (`warnings`: changes that wait for a header) when it brought nothing.
 */
export function checkHeadline(counts: {
  added: number;
  updated: number;
  conflicts: number;
  errors: number;
  warnings?: readonly string[];
}): string {
  const parts: string[] = [];
  const rows = (n: number, what: string): string => `${n} ${n === 1 ? 'row' : 'rows'} ${what}`;
  if (counts.added > 0) parts.push(rows(counts.added, 'added'));
  if (counts.updated > 0) parts.push(rows(counts.updated, 'updated'));
  if (counts.conflicts > 0)
    parts.push(`${counts.conflicts} ${counts.conflicts === 1 ? 'conflict' : 'conflicts'}`);
  if (counts.errors > 0) parts.push(`${counts.errors} ${counts.errors === 1 ? 'error' : 'errors'}`);
  if (parts.length > 0) return parts.join(', ');
  return counts.warnings && counts.warnings.length > 0 ? counts.warnings.join(' ') : 'Up to date';
}

/**
 * Whether a pull the check handed over to brought nothing in (rows it polled again after a push of
 * this sheet, say): then it leaves no summary and no log line behind, as an unchanged check.
 */
export function broughtNothing(summary: {
  ok: boolean;
  continuing: boolean;
  added: number;
  created: number;
  updated: number;
  conflicts: number;
  errors: number;
  removedOnService: number;
}): boolean {
  const { added, created, updated, conflicts, errors, removedOnService } = summary;
  return (
    summary.ok &&
    !summary.continuing &&
    added + created + updated + conflicts + errors + removedOnService === 0
  );
}
