// What a person may do with rows whose lines were deleted from the sheet, over the sync ports: review
// them (with the service's rows now), delete exactly the approved ones on the service, or bring them
// back. Only an approval a person gave for exactly those rows, as reviewed, deletes anything.
import type { DeleteRowsInput, DeleteRowsResult, MissingRowsReview } from '../../../shared/types';
import type { BaseTable } from '../../base-table';
import type { ColumnSpec } from '../../columns';
import { liveColumns } from '../../columns';
import { SyncError } from '../../errors';
import { readLayout } from '../../layout';
import type { LinkRecord } from '../../records';
import type { LinkedSheetPort, RowAnswer, ServiceRow, SheetReadOptions, SyncPorts } from '../ports';
import { deleteOffered, missingRowIds, missingRowsReview } from './missing-rows';

/** Rows a listing page holds (the client's page size). */
const LISTING_PAGE = 100;

/** Time kept back from the execution's budget when deleting: what was settled is written before it ends. */
export const DELETE_RESERVE_MS = 30 * 1000;

/**
 * How missing lines are found: the sheet's id and status columns and the base's ids only, whole lines
 * and records loaded just for the lines and rows that need them (a sheet of 20,000 lines is two
 * column reads, not every cell).
 */
const BY_ID: SheetReadOptions = { eagerUpTo: 0, withSeen: false };

/**
 * Rows whose lines are missing, as the sheet stands now (read again: people keep working meanwhile).
 * `everyLine`: right before deleting or letting rows go, every line is read (missingRowIds).
 */
function missingNow(
  sheet: LinkedSheetPort,
  base: BaseTable,
  live: readonly ColumnSpec[],
  link: LinkRecord,
  everyLine = false,
): Set<string> {
  const layoutOf = (headers: unknown[]) => readLayout(headers, live, link.deletedColumnIds);
  const lines = sheet.readLinesForPull(layoutOf, BY_ID);
  return new Set(missingRowIds(lines, base, live, link.deletedColumnIds, everyLine));
}

/** How many rows wait for review, from the sheet and its base alone (no request). */
export function countMissingRows(ports: SyncPorts, link: LinkRecord): number {
  return missingNow(ports.openSheet(), ports.base.read(BY_ID), [], link).size;
}

/**
 * Lists the rows whose lines are gone from the sheet, with what the service holds for each now (one
 * listing of the table, and only when a line is missing: a sheet with none costs no request).
 */
export function reviewMissingRows(ports: SyncPorts, link: LinkRecord): MissingRowsReview {
  const sheet = ports.openSheet();
  const base = ports.base.read(BY_ID);
  const deleteSupported = deleteOffered(link.deleteUnsupportedAt, ports.run.now());
  if (missingNow(sheet, base, [], link).size === 0)
    return missingRowsReview([], base, new Map(), [], deleteSupported);
  let live: ColumnSpec[] = [];
  const found = new Map<string, ServiceRow>();
  const listing = ports.service.listTableAndRows(
    link.tableAppId,
    link.tableId,
    (table) => {
      live = liveColumns(table.columns);
    },
    {
      // The rows the base knows plan the page waves without overshoot.
      expectedTotal: base.ids().length,
      // Under a limit on requests the review waits for the service within its run's time.
      paceSleepMs: Number.POSITIVE_INFINITY,
      onPage(rows) {
        for (const row of rows) if (typeof row.id === 'string' && base.has(row.id)) found.set(row.id, row);
      },
    },
  );
  // A row the listing did not reach is not "gone": a review of part of the table is no review.
  if (!listing.done) throw unfinishedReview(listing.rateLimitedMs);
  // Read again after the listing: a line pasted back meanwhile is not missing any more.
  const ids = [...missingNow(sheet, base, live, link)];
  base.ensureLoaded(ids);
  return missingRowsReview(ids, base, found, live, deleteSupported);
}

function unfinishedReview(rateLimitedMs: number | undefined): SyncError {
  const why =
    rateLimitedMs === undefined
      ? 'the table could not be read in the time one run has'
      : 'the service limits how many requests the add-on may send';
  return new SyncError(
    rateLimitedMs === undefined ? 'TIME' : 'RATE_LIMITED',
    `The rows whose lines were deleted could not be reviewed yet: ${why}. Nothing was deleted or brought back; open the review again in a minute.`,
    rateLimitedMs === undefined ? undefined : { retryAfterMs: rateLimitedMs },
  );
}

function emptyResult(): DeleteRowsResult {
  return {
    ok: true,
    message: '',
    deleted: 0,
    alreadyGone: 0,
    changed: [],
    back: [],
    failed: [],
    remaining: [],
    unsupported: false,
  };
}

/**
 * Deletes on the service exactly the rows a person approved, each only while its line is still
 * missing from the sheet and the service's row is still as reviewed (its lMod then): a row changed
 * since, or whose line came back, is not deleted and is named. Sent in waves while the execution's
 * time allows; what was not sent is returned to send again. A deleted row's base record goes.
 */
export function deleteApprovedRows(
  ports: SyncPorts,
  link: LinkRecord,
  approval: DeleteRowsInput,
): DeleteRowsResult {
  const result = emptyResult();
  const sheet = ports.openSheet();
  const base = ports.base.read(BY_ID);
  const shouldStop = () => ports.run.timeLeft() < DELETE_RESERVE_MS;
  let missing = missingNow(sheet, base, [], link);
  const candidates: DeleteRowsInput['rows'] = [];
  for (const approved of approval.rows) {
    // Settled by an earlier run (deleted, or brought back and pulled).
    if (!base.has(approved.rowId)) result.alreadyGone += 1;
    else if (!missing.has(approved.rowId)) result.back.push(approved.rowId);
    else candidates.push(approved);
  }
  let firstError = '';
  const fail = (rowId: string, message: string): void => {
    result.failed.push(rowId);
    if (!firstError) firstError = message;
  };
  // Each row as the service holds it now: only what the person saw is deleted.
  const reads = rowsNow(
    ports,
    link,
    candidates.map((each) => each.rowId),
    base.ids().length,
    shouldStop,
  );
  const asReviewed: DeleteRowsInput['rows'] = [];
  candidates.forEach((approved, i) => {
    const answer = reads[i];
    if (!answer || (!answer.ok && answer.notSent)) result.remaining.push(approved);
    else if (answer.ok) {
      if (String(answer.row.lMod ?? '') === approved.lMod) asReviewed.push(approved);
      else result.changed.push(approved.rowId);
    } else if (answer.error.code === 'NOT_FOUND') {
      base.delete(approved.rowId);
      result.alreadyGone += 1;
    } else fail(approved.rowId, answer.error.message);
  });
  // The reads waited on the network: a line pasted back meanwhile keeps its row.
  missing = missingNow(sheet, base, [], link, true);
  const toDelete = asReviewed.filter((approved) => {
    if (missing.has(approved.rowId)) return true;
    result.back.push(approved.rowId);
    return false;
  });
  sendDeletes(ports, link, toDelete, base, result, fail, shouldStop);
  ports.base.write(base);
  if (result.unsupported) noteDeleteUnsupported(ports);
  result.ok = result.failed.length === 0 && !result.unsupported;
  result.message = deleteMessage(result, firstError);
  return result;
}

/** Remembers when the service answered that it does not serve deleting (not offered for a day). */
function noteDeleteUnsupported(ports: SyncPorts): void {
  const at = new Date(ports.run.now()).toISOString();
  ports.links.update((stored) => {
    stored.deleteUnsupportedAt = at;
  });
}

/**
 * The service's rows of these ids now, in their order: read one by one, or, when that takes more
 * requests than listing the table (`tableRows` about its size), from a listing, with only the ids it
 * did not show read one by one (a listing by offset may skip a row moved meanwhile: not shown is not
 * gone).
 */
function rowsNow(
  ports: SyncPorts,
  link: LinkRecord,
  ids: readonly string[],
  tableRows: number,
  shouldStop: () => boolean,
): RowAnswer[] {
  if (ids.length === 0) return [];
  const { tableAppId, tableId } = link;
  const listingRequests = Math.ceil(tableRows / LISTING_PAGE) + 1;
  if (ids.length <= listingRequests) return ports.service.rowsByIds(tableAppId, tableId, ids, { shouldStop });
  const wanted = new Set(ids);
  const listed = new Map<string, ServiceRow>();
  ports.service.listAllRows(tableAppId, tableId, {
    expectedTotal: tableRows,
    shouldStop,
    onPage(rows) {
      for (const row of rows) if (typeof row.id === 'string' && wanted.has(row.id)) listed.set(row.id, row);
    },
  });
  const unlisted = ids.filter((id) => !listed.has(id));
  const read = ports.service.rowsByIds(tableAppId, tableId, unlisted, { shouldStop });
  const readById = new Map(unlisted.map((id, i) => [id, read[i]]));
  return ids.map((id): RowAnswer => {
    const row = listed.get(id);
    if (row) return { ok: true, row };
    return readById.get(id) ?? { ok: false, error: new SyncError('TIME', 'Not read.'), notSent: true };
  });
}

/**
 * Sends the deletes: the first alone (a service that does not serve deleting is found by one
 * request, not by one per row), then the rest in waves.
 */
function sendDeletes(
  ports: SyncPorts,
  link: LinkRecord,
  rows: DeleteRowsInput['rows'],
  base: BaseTable,
  result: DeleteRowsResult,
  fail: (rowId: string, message: string) => void,
  shouldStop: () => boolean,
): void {
  for (const wave of [rows.slice(0, 1), rows.slice(1)]) {
    if (wave.length === 0) continue;
    if (result.unsupported) {
      result.remaining.push(...wave);
      continue;
    }
    const answers = ports.service.deleteRows(
      link.tableAppId,
      link.tableId,
      wave.map((each) => each.rowId),
      { shouldStop },
    );
    wave.forEach((approved, i) => {
      const answer = answers[i];
      if (answer?.ok) {
        base.delete(approved.rowId);
        if (answer.outcome === 'deleted') result.deleted += 1;
        else result.alreadyGone += 1;
      } else if (answer?.unsupported) {
        result.unsupported = true;
      } else if (!answer || answer.notSent) result.remaining.push(approved);
      else fail(approved.rowId, answer.error.message);
    });
  }
  // Nothing was deleted by a service that does not serve it: the approval stands for nothing sent.
  if (result.unsupported) result.remaining = [];
}

function rows(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

/** What deleting did, in one paragraph a person reads. */
export function deleteMessage(result: DeleteRowsResult, firstError: string): string {
  if (result.unsupported) {
    return 'Nothing was deleted: the service does not allow deleting rows through its API. Bring the lines back, and delete the rows in the service itself if you meant to.';
  }
  const parts: string[] = [];
  const done = result.deleted + result.alreadyGone;
  parts.push(
    done === 0
      ? 'Nothing was deleted.'
      : `Deleted ${rows(result.deleted)} on the service${result.alreadyGone ? ` (${rows(result.alreadyGone)} already gone)` : ''}.`,
  );
  if (result.changed.length > 0)
    parts.push(
      `${rows(result.changed.length)} not deleted: changed on the service after your review; review again.`,
    );
  if (result.back.length > 0)
    parts.push(
      `${rows(result.back.length)} not deleted: ${result.back.length === 1 ? 'its line is' : 'their lines are'} back in the sheet.`,
    );
  if (result.failed.length > 0)
    parts.push(`${rows(result.failed.length)} not deleted: ${firstError} They stay for review.`);
  if (result.remaining.length > 0)
    parts.push(`${rows(result.remaining.length)} not sent yet (this run's time ran out).`);
  return parts.join(' ');
}

/**
 * Lets rows whose lines were deleted from the sheet come back: their base records are forgotten, so
 * the next pull adds them as lines again with the service's values. Only rows still missing right now
 * are let go (a line pasted back meanwhile keeps its record). Returns how many.
 */
export function releaseMissingRows(ports: SyncPorts, link: LinkRecord, rowIds: readonly string[]): number {
  const sheet = ports.openSheet();
  const base = ports.base.read(BY_ID);
  const missing = missingNow(sheet, base, [], link, true);
  let released = 0;
  for (const rowId of rowIds) {
    if (!missing.has(rowId)) continue;
    base.delete(rowId);
    released += 1;
  }
  if (released > 0) ports.base.write(base);
  return released;
}
