import type { SyncError } from '../../errors';
import { isRemovedStatus, pendingTokenOf, STATUS } from '../../status';
import { type PullState, setStatus, statusOf } from './pull-state';

/**
 * After a complete listing: the row ids of lines this pull did not see (duplicates and pending creates
 * aside). Removed on the service, or skipped: a listing by offset skips a row when rows before it are
 * deleted or moved while it goes on (between page waves or executions).
 */
export function unseenRowIds(state: PullState): string[] {
  const ids: string[] = [];
  for (const [id, line] of state.index.lineById) {
    if (state.index.duplicates.has(id)) continue;
    if (state.base.seenOf(id) === state.pullId) continue;
    if (pendingTokenOf(statusOf(state, line)) !== null) continue;
    ids.push(id);
  }
  return ids;
}

/** Whether the row's line already says it was removed on the service (an earlier pull confirmed it). */
export function markedRemoved(state: PullState, id: string): boolean {
  const line = state.index.lineById.get(id);
  return line !== undefined && isRemovedStatus(statusOf(state, line));
}

/**
 * After a complete listing: lines whose row the service no longer has are marked, never deleted.
 * `stillThere`: unseen rows the service was found to still hold (skipped by the listing), not marked.
 */
export function markRemovedRows(state: PullState, stillThere: ReadonlySet<string> = new Set()): number[] {
  const removedLines: number[] = [];
  for (const id of unseenRowIds(state)) {
    if (!stillThere.has(id)) removedLines.push(state.index.lineById.get(id) as number);
  }
  state.grid.ensureLoaded(removedLines);
  for (const line of removedLines) setStatus(state, line, STATUS.removed);
  state.counts.removedOnService = removedLines.length;
  return removedLines;
}

/**
 * After a complete listing, lines whose row the service no longer has are marked removed. A listing
 * that comes back empty from the start while the sheet holds rows of this table is more likely a
 * service or proxy fault than a table emptied: nothing is marked on its word. Returns whether it marked.
 */
export function settleRemovedRows(
  state: PullState,
  listing: { rowCount: number; nextOffset: number },
  stillThere: ReadonlySet<string> = new Set(),
): boolean {
  if (suspiciousEmpty(state, listing)) return false;
  markRemovedRows(state, stillThere);
  return true;
}

function suspiciousEmpty(state: PullState, listing: { rowCount: number; nextOffset: number }): boolean {
  return listing.rowCount === 0 && listing.nextOffset === 0 && state.index.lineById.size > 0;
}

/**
 * After a complete listing: the rows to ask the service for one by one before their lines are marked
 * removed. A listing by offset skips rows when rows before them are deleted or moved while it goes on
 * (between page waves, or between the executions of a continuing pull): a row it did not list may
 * still be on the service. None when nothing will be marked, nor for lines already marked removed.
 */
export function rowsToConfirmRemoved(
  state: PullState,
  listing: { rowCount: number; nextOffset: number },
): string[] {
  if (suspiciousEmpty(state, listing)) return [];
  // A line kept after its row was confirmed gone is not asked about again at every pull.
  return unseenRowIds(state).filter((id) => !markedRemoved(state, id));
}

/**
 * The rows among `ids` the service still holds, from its answers to reading each (in order): only a
 * row it answered "not found" for is taken for removed; any other answer, or none (out of time), keeps
 * the line unmarked until a later pull sees the row or confirms it gone. `answers` may be shorter than
 * `ids` (at most MAX_REMOVED_CHECKS are asked).
 */
export function stillOnService(
  ids: readonly string[],
  answers: ReadonlyArray<{ ok: true } | { ok: false; error: SyncError }>,
): Set<string> {
  const still = new Set<string>();
  ids.forEach((id, i) => {
    const answer = answers[i];
    if (!answer || answer.ok || answer.error.code !== 'NOT_FOUND') still.add(id);
  });
  return still;
}

/**
 * Rows read by id per pull to confirm their removal: a sheet relinked from another table holds
 * thousands of lines no listing shows, and each costs a request of the daily quota; the rest are
 * confirmed by the next pulls (a line once marked is not asked about again).
 */
export const MAX_REMOVED_CHECKS = 500;
