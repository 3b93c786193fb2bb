// Deleting rows, as people choose it: the rows whose lines were deleted from the active sheet (delete
// them on the service, or bring them back), and the lines of rows removed on the service (remove them).
// Nothing here runs on a schedule: only a person's choice, for exactly the rows they saw, acts.
import { SyncError } from '../core/errors';
import { awaitingReviewText } from '../core/summary';
import { removeRemovedLines, reviewRemovedLines } from '../core/sync/delete/removed-lines';
import {
  countMissingRows,
  deleteApprovedRows,
  releaseMissingRows,
  reviewMissingRows,
} from '../core/sync/delete/run-delete';
import { deleteConfirmation } from '../core/sync/delete/wording';
import type {
  DeleteRowsInput,
  DeleteRowsResult,
  MissingRowsReview,
  RemovedLinesReview,
  RemoveLinesResult,
  SyncSummary,
} from '../shared/types';
import { runOperation } from './actions';
import { activeSheetId, activeSpreadsheet } from './active';
import { Deadline, newContext, requireLink, WORK_BUDGET_MS, withDocumentLock } from './operation';
import type { LinkRecord } from './stores';
import { syncPortsOf } from './sync-ports';

/** Row ids a request may name at once (a review lists at most 500; a few calls cover more). */
const MAX_IDS = 5000;

function activeLink(): LinkRecord {
  return requireLink(activeSheetId());
}

/** The ports of one action; `startedAt`: when its execution began, if earlier than now (a menu's dialogs). */
function portsFor(link: LinkRecord, startedAt = Date.now()) {
  return syncPortsOf(newContext('review', link.sheetId, new Deadline(WORK_BUDGET_MS, startedAt)), link);
}

function isRowId(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 200;
}

/** The row ids of a request, or a message saying what was expected. */
function rowIdsOf(input: unknown): string[] {
  const ids = (input as { rowIds?: unknown } | null)?.rowIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS || !ids.every(isRowId)) {
    throw new SyncError(
      'CONFIG',
      'Name the rows as { rowIds: ["…"] }: the row ids of the review (nothing was changed).',
    );
  }
  return ids;
}

/** The approval of a request, or a message saying what was expected. */
function approvalOf(input: unknown): DeleteRowsInput {
  const rows = (input as { rows?: unknown } | null)?.rows;
  const valid =
    Array.isArray(rows) &&
    rows.length > 0 &&
    rows.length <= MAX_IDS &&
    rows.every(
      (row) =>
        row !== null &&
        typeof row === 'object' &&
        isRowId((row as { rowId?: unknown }).rowId) &&
        typeof (row as { lMod?: unknown }).lMod === 'string',
    );
  if (!valid) {
    throw new SyncError(
      'CONFIG',
      'Approve rows as { rows: [{ rowId, lMod }] }, as the review lists them (nothing was deleted).',
    );
  }
  return {
    rows: (rows as Array<{ rowId: string; lMod: string }>).map(({ rowId, lMod }) => ({ rowId, lMod })),
  };
}

/**
 * A scheduled push reads no listing, so it says here, as a pull does, how many rows wait for review:
 * a schedule neither deletes them nor brings them back, and its log line says they wait.
 */
export function noteRowsAwaitingReview(link: LinkRecord, result: SyncSummary): void {
  if (!result.ok || result.skipped || result.continuing || result.awaitingReview) return;
  let count = 0;
  try {
    count = countMissingRows(portsFor(link), link);
  } catch {
    // The push's own result stands; the next run counts again.
    return;
  }
  if (count === 0) return;
  result.awaitingReview = count;
  result.message = `${result.message} ${awaitingReviewText(count)}`;
}

/** The rows whose lines were deleted from the active sheet, with what the service holds for each now. */
export function getMissingRowsReview(): MissingRowsReview {
  const link = activeLink();
  return reviewMissingRows(portsFor(link), link);
}

/**
 * Deletes on the service exactly the rows a person approved, as reviewed (each with the lMod the
 * review showed); rows changed since, or whose line is back, are kept and named. `remaining` lists
 * what the execution had no time to send: sending it again goes on.
 */
export function deleteMissingRows(input: DeleteRowsInput): DeleteRowsResult {
  return deleteApprovedOnActiveSheet(approvalOf(input), Date.now());
}

/** Deletes the approved rows within the time left of an execution that began at `startedAt`. */
function deleteApprovedOnActiveSheet(approval: DeleteRowsInput, startedAt: number): DeleteRowsResult {
  const link = activeLink();
  return withDocumentLock(() => deleteApprovedRows(portsFor(link, startedAt), link, approval));
}

/** Brings back rows whose lines were deleted from the active sheet: a pull adds them again. */
export function bringBackMissingRows(input: { rowIds: string[] }): SyncSummary {
  const rowIds = rowIdsOf(input);
  const link = activeLink();
  const released = withDocumentLock(() => releaseMissingRows(portsFor(link), link, rowIds));
  // A whole listing: rows unchanged since the last pull are not in a poll's answer.
  const pulled = runOperation('pull', link, { scheduled: false, everything: true });
  const what = released === 1 ? '1 row' : `${released} rows`;
  pulled.message = `Bringing back ${what}: ${pulled.message}`;
  return pulled;
}

/** The lines of the active sheet whose rows were removed on the service, and what goes with them. */
export function getRemovedLinesReview(): RemovedLinesReview {
  const link = activeLink();
  return reviewRemovedLines(portsFor(link), link);
}

/** Removes the lines of these rows (removed on the service), each found again by id right before. */
export function removeLinesOfRemovedRows(input: { rowIds: string[] }): RemoveLinesResult {
  const rowIds = rowIdsOf(input);
  const link = activeLink();
  return withDocumentLock(() => removeRemovedLines(portsFor(link), rowIds));
}

/**
 * After a push from the menu: when lines were deleted from the sheet, a dialog lists them and asks.
 * Yes: delete them on the service (a second dialog names how many and which); No: bring them back;
 * Cancel: decide later (they stay held). A service without deleting offers only bringing them back.
 * `startedAt`: when the menu's execution began (its push and the time the person read the dialogs
 * count against the same six minutes).
 */
export function askAboutMissingRows(startedAt: number): void {
  const review = getMissingRowsReview();
  if (review.count === 0) return;
  const ui = SpreadsheetApp.getUi();
  const rowIds = review.rows.map((row) => row.rowId);
  if (!review.deleteSupported) {
    const answer = ui.alert(
      'Lines deleted from this sheet',
      `${review.message}\n\nYes: bring them back. No: decide later (they stay held).`,
      ui.ButtonSet.YES_NO,
    );
    if (answer === ui.Button.YES) toast(bringBackMissingRows({ rowIds }).message);
    return;
  }
  const answer = ui.alert(
    'Lines deleted from this sheet',
    `${review.message}\n\nYes: delete them on the service (you confirm next). No: bring them back. Cancel: decide later (they stay held).`,
    ui.ButtonSet.YES_NO_CANCEL,
  );
  if (answer === ui.Button.NO) {
    toast(bringBackMissingRows({ rowIds }).message);
    return;
  }
  if (answer !== ui.Button.YES) return;
  const confirmed = ui.alert('Delete on the service?', deleteConfirmation(review), ui.ButtonSet.OK_CANCEL);
  if (confirmed !== ui.Button.OK) return;
  const approval = { rows: review.rows.map(({ rowId, lMod }) => ({ rowId, lMod })) };
  const result = deleteApprovedOnActiveSheet(approval, startedAt);
  // One menu execution has one time budget: what it could not send waits for the next review.
  const goesOn =
    result.remaining.length > 0 ? ' Push again from the menu to review and delete the rest.' : '';
  toast(result.message + goesOn, result.ok);
}

function toast(message: string, ok = true): void {
  activeSpreadsheet().toast(message, ok ? 'Table App Sync' : 'Table App Sync: not done', 10);
}
