// The live check (issue 25, "Changes in while the sidebar is open"): the sidebar asks every 30 s
// whether the linked table changed. An unchanged table costs one request and no Spreadsheet write;
// a change is handed to the ordinary pull, so every rule of a pull holds for what comes in.
import type { TableClient } from '../api/client';
import { asSyncError } from '../core/errors';
import {
  checkHeadline,
  checkPlanFor,
  type PolledRow,
  polledRowOf,
  schemaDigestOf,
  unchangedSince,
} from '../core/sync/pull/live-check';
import { pollSinceFor } from '../core/sync/pull/poll';
import type { LinkRecord } from '../core/records';
import type { LiveCheckResult } from '../shared/types';
import { runOperation } from './actions';
import { activeSheetId } from './active';
import { newContext, rememberPoll } from './operation';
import { loadJob, loadLink, updateLink } from './stores';

/** A check never waits long for another run: it says so, and the next check tries again. */
const CHECK_LOCK_WAIT_MS = 500;

const BUSY_MESSAGE = 'A sync of this spreadsheet is running: the next check looks again.';
const NO_POLL_MESSAGE =
  'This service cannot say what changed since a time, so the sidebar does not check on its own: Pull brings its changes in.';

/** What one poll of the check found. */
type Probe = { supported: false } | { supported: true; unchanged: boolean; schemaDigest?: string };

/**
 * Looks for changes of the active linked sheet's table and applies them like a pull. Nothing changed:
 * one request (the poll; the schema rides along every SCHEMA_RECHECK_MS), no Spreadsheet write, no
 * summary or log line. Changed: the pull runs (three-way merge, re-identified lines, as any pull).
 */
export function checkForChanges(): LiveCheckResult {
  const checkedAt = (): string => new Date().toISOString();
  let link: LinkRecord | null;
  try {
    link = loadLink(activeSheetId());
  } catch (error) {
    return { state: 'failed', checkedAt: checkedAt(), message: asSyncError(error).message };
  }
  if (!link) {
    return { state: 'not-linked', checkedAt: checkedAt(), message: 'This sheet is not linked to a table.' };
  }
  // A run going on in later executions owns the sheet until it ends: its own trigger goes on.
  if (loadJob(link.sheetId)) return { state: 'busy', checkedAt: checkedAt(), message: BUSY_MESSAGE };
  const lock = LockService.getDocumentLock();
  if (lock && !lock.tryLock(CHECK_LOCK_WAIT_MS)) {
    return { state: 'busy', checkedAt: checkedAt(), message: BUSY_MESSAGE };
  }
  try {
    return checkUnderLock(link, checkedAt);
  } catch (error) {
    return { state: 'failed', checkedAt: checkedAt(), message: asSyncError(error).message };
  } finally {
    // Held by this execution since tryLock: the pull's own tryLock had no effect, and released it.
    lock?.releaseLock();
  }
}

function checkUnderLock(link: LinkRecord, checkedAt: () => string): LiveCheckResult {
  const now = Date.now();
  const plan = checkPlanFor(link, pollSinceFor(link, now, false), now);
  if (plan.kind === 'poll') {
    const context = newContext('pull', link.sheetId);
    let probe: Probe;
    try {
      probe = pollOnce(context.client, link, plan.since, plan.withSchema);
    } finally {
      rememberPoll(context);
    }
    if (!probe.supported) return { state: 'unavailable', checkedAt: checkedAt(), message: NO_POLL_MESSAGE };
    if (probe.unchanged) {
      const schemaDigest = probe.schemaDigest;
      if (schemaDigest !== undefined) {
        const readAt = new Date(now).toISOString();
        updateLink(link.sheetId, (stored) => {
          stored.schemaReadAt = readAt;
        });
      }
      return { state: 'up-to-date', checkedAt: checkedAt(), message: 'Up to date' };
    }
  }
  // Changed (or a whole listing owed): the pull applies it, under the lock this check holds.
  const summary = runOperation('pull', link, { scheduled: false, liveCheck: true });
  return {
    state: summary.ok ? 'pulled' : 'failed',
    checkedAt: checkedAt(),
    message: summary.ok ? checkHeadline(summary) : summary.message,
    summary,
  };
}

/**
 * The poll from `since` (with the schema when asked): one page, which is the whole answer while
 * nothing changed (the rows of the overlap); more rows than the last pull left mean a change, and the
 * pull reads them again, so no second page is asked.
 */
function pollOnce(client: TableClient, link: LinkRecord, since: string, withSchema: boolean): Probe {
  const rows: PolledRow[] = [];
  let readable = true;
  const options = {
    firstWave: 1,
    onPage: (page: ReadonlyArray<Readonly<Record<string, unknown>>>): 'stop' => {
      for (const row of page) {
        const polled = polledRowOf(row);
        if (polled) rows.push(polled);
        else readable = false;
      }
      return 'stop';
    },
  };
  let schemaDigest: string | undefined;
  const outcome = withSchema
    ? client.tableAndRowsChangedSince(
        link.tableAppId,
        link.tableId,
        since,
        (table) => {
          schemaDigest = schemaDigestOf(table);
        },
        options,
      )
    : client.rowsChangedSince(link.tableAppId, link.tableId, since, options);
  if (!outcome.supported) return { supported: false };
  const unchanged = readable && outcome.listing.done && unchangedSince(link, since, rows, schemaDigest);
  return schemaDigest === undefined
    ? { supported: true, unchanged }
    : { supported: true, unchanged, schemaDigest };
}
