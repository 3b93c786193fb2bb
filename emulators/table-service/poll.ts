// The poll for row updates (table-api.md, "Operations the seed names without a shape"):
// `GET /tableApps/<a>/tables/<t>/rows/updates?since=&offset=&limit=`, and the modes the emulator
// plays it in (served, missing, or ignoring `since`) so a client's fallbacks can be tested.

import type { PollMode, Row, TableData } from './types.js';

export type { PollMode };

/** Every mode, for checking options and admin bodies. */
export const POLL_MODES: readonly PollMode[] = ['on', 'off', 'ignore-since'];

/** `since` as the contract writes it: ISO 8601 UTC with milliseconds. */
const SINCE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The time `since` names (ms), or undefined when it is not ISO 8601 UTC with ms or not a real instant. */
export function parseSince(raw: string): number | undefined {
  if (!SINCE_FORMAT.test(raw)) return undefined;
  const ms = Date.parse(raw);
  // Date.parse rolls 2025-02-30 over to March: a real instant reads back as written.
  if (!Number.isFinite(ms) || new Date(ms).toISOString() !== raw) return undefined;
  return ms;
}

/**
 * A page of the rows whose `lMod` ≥ `sinceMs`, ordered by `lMod` then `id`. Deleted rows are gone
 * from the table, so they are never reported.
 */
export function rowsChangedSince(
  table: TableData,
  sinceMs: number,
  offset: number,
  limit: number,
): { rows: Row[]; hasMore: boolean } {
  const changed = table.rows
    .map((row) => ({ row, at: Date.parse(row.lMod) }))
    .filter((each) => each.at >= sinceMs)
    .sort((a, b) => a.at - b.at || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0))
    .map((each) => each.row);
  return { rows: changed.slice(offset, offset + limit), hasMore: offset + limit < changed.length };
}
