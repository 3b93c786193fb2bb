// Pull: the table's schema and rows into the linked sheet, three-way, in chunks, resumable. Every
// decision is a step of src/core/sync/pull-session.ts; this file reads, fetches and writes.

import type { Table } from '../api/types';
import type { BaseTable } from '../core/base-table';
import { liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import { readLayout } from '../core/layout';
import { emailLookup } from '../core/members';
import { assertIdColumn } from '../core/sync/issues';
import { applyServiceRows } from '../core/sync/pull/apply-rows';
import {
  assertChunkFits,
  chunkMeasured,
  chunkPending,
  chunkWritten,
  fetchProgress,
  needsExactFootprint,
  type PullRun,
  probeFound,
  receivePage,
  type SheetShape,
  schemaArrived,
  shouldStopConfirming,
  shouldStopListing,
  startRun,
  takeChunk,
  workbookFootprint,
} from '../core/sync/pull/chunks';
import { putBackEditedIds } from '../core/sync/pull/edited-ids';
import {
  deletedColumnIdsAfter,
  finishedResult,
  type PullResult,
  unfinishedResult,
} from '../core/sync/pull/finish';
import { findPendingCreates } from '../core/sync/pull/pending-creates';
import type { PullState } from '../core/sync/pull/pull-state';
import {
  MAX_REMOVED_CHECKS,
  rowsToConfirmRemoved,
  settleRemovedRows,
  stillOnService,
} from '../core/sync/pull/removed-rows';
import {
  asksLastRowAtSchema,
  displayWithEmails,
  freshColumnsOf,
  type PreparedPull,
  type PullProgress,
  pullStateOf,
  readingFor,
  renamedSyncedColumns,
  showsMemberEmails,
  startProgress,
} from '../core/sync/pull/start';
import { activeSpreadsheet } from './active';
import { flushBase, flushSeen, readBase } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { knownDeletedColumnIds, prepareHeaders } from './headers';
import { restoreNumberFormats } from './number-formats';
import { asSyncError, type OperationContext, reportProgress } from './operation';
import { flushLines, readLinesForPull, relocateBeforeLoading, type SheetReadOptions } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import { type LinkRecord, saveLink } from './stores';
import { waitsSoFar } from './url-fetch-port';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function newPullId(): string {
  return `p${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Reads the lines, completes the header row and builds the merge state, once the schema is known. */
function preparePull(
  context: OperationContext,
  link: LinkRecord,
  table: Table,
  sheet: Sheet,
  base: BaseTable,
  lastRow: number | undefined,
  reading: SheetReadOptions,
  progress: PullProgress,
): PreparedPull {
  const live = liveColumns(table.columns);
  const deletedIds = knownDeletedColumnIds(link, table.columns, live, base.columnIds);
  const layoutOf = (headerRow: unknown[]) => readLayout(headerRow, live, deletedIds);
  const { headers, grid } = readLinesForPull(sheet, layoutOf, reading, lastRow);
  const before = readLayout(headers, live, deletedIds);
  assertIdColumn(before, grid.length, base.size);
  const renamed = renamedSyncedColumns(before, live, base, grid);
  const keepOut = new Set(renamed.keys());
  const recorded = [...(progress.freshColumns ?? []), ...(link.freshColumns ?? [])];
  const { fresh, recordFirst } = freshColumnsOf(before, live, link.fixedFields, keepOut, recorded);
  if (recordFirst) {
    link.freshColumns = [...fresh];
    saveLink(link);
  }
  const layout = prepareHeaders(sheet, before, grid, live, deletedIds, link.fixedFields, keepOut);
  if (fresh.size > 0) progress.freshColumns = [...fresh];
  // A date a person typed into a number column: the cell gets its number format back (issue 15).
  restoreNumberFormats(sheet, grid, layout, live);
  base.ensureColumns(live.map((column) => column.id));
  const decode = spreadsheetDecodeContext();
  const state = pullStateOf({ grid, layout, live, base, progress, decode, fresh });
  putBackEditedIds(state);
  const pending = findPendingCreates(state, context.connection.info.userId);
  if (pending) state.pending = pending;
  if (showsMemberEmails(link.showEmails, layout)) {
    // One members lookup per run, never a call per row.
    state.displayFixed = displayWithEmails(emailLookup(context.client.allPeople()));
  }
  return { state, deletedIds, renamed };
}

/** The spreadsheet's sheets as the footprint needs them (a few waiting calls a sheet). */
function sheetShapes(sheet: Sheet, link: LinkRecord): SheetShape[] {
  const linkedId = sheet.getSheetId();
  const shapes: SheetShape[] = [];
  for (const each of activeSpreadsheet().getSheets()) {
    const columns = each.getMaxColumns();
    if (each.getSheetId() === linkedId) shapes.push({ role: 'linked', columns, rows: 0 });
    else if (each.getName() === link.baseSheetName) shapes.push({ role: 'base', columns, rows: 0 });
    else shapes.push({ role: 'other', columns, rows: each.getMaxRows() });
  }
  return shapes;
}

/** Merges the rows gathered so far and writes the lines and the base, if the table still fits. */
function writeChunk(
  context: OperationContext,
  link: LinkRecord,
  sheet: Sheet,
  run: PullRun,
  state: PullState,
): void {
  if (!chunkPending(run, state.grid.dirtyCount)) return;
  if (needsExactFootprint(run)) run.exact = workbookFootprint(state.layout.width, sheetShapes(sheet, link));
  assertChunkFits(run, context.progress.linesWritten);
  const started = Date.now();
  const rows = takeChunk(run);
  relocateBeforeLoading(sheet, state.grid, state.layout);
  applyServiceRows(state, rows);
  const cells = state.grid.dirtyCount * state.grid.dirtyColumnCount;
  const written = flushLines(sheet, state.grid, state.layout, state.live);
  flushBase(link, state.base);
  chunkWritten(run, started, rows.length, cells, state.layout.width);
  reportProgress(context, { phase: 'writing lines', linesWritten: context.progress.linesWritten + written });
}

/** Before a stop decision: queued writes are flushed so the last chunk's cost is measured, not guessed. */
function measureChunk(run: PullRun): void {
  if (!run.unmeasured) return;
  SpreadsheetApp.flush();
  chunkMeasured(run, Date.now());
}

/**
 * Reads each row the listing did not show (one request each, in parallel waves, while the writes left
 * fit the time, at most MAX_REMOVED_CHECKS): the rows not found gone, which a shifting listing may
 * have skipped.
 */
function confirmRemoved(
  context: OperationContext,
  link: LinkRecord,
  run: PullRun,
  ids: readonly string[],
): Set<string> {
  if (ids.length === 0) return new Set();
  reportProgress(context, { phase: 'checking rows gone from the listing' });
  const asked = ids.slice(0, MAX_REMOVED_CHECKS);
  const answers = context.client.rowsByIds(link.tableAppId, link.tableId, asked, {
    shouldStop: () => shouldStopConfirming(run, ids.length, context.deadline.left()),
  });
  return stillOnService(ids, answers);
}

/** After a complete listing: marks removed rows, writes the rest, and records the link as synced. */
function finishPull(
  link: LinkRecord,
  sheet: Sheet,
  prepared: PreparedPull,
  progress: PullProgress,
): PullResult {
  const { state, deletedIds } = prepared;
  flushLines(sheet, state.grid, state.layout, state.live);
  flushBase(link, state.base);
  // Every added column is filled now.
  delete link.freshColumns;
  const deleted = deletedColumnIdsAfter(link.deletedColumnIds, deletedIds);
  if (deleted) link.deletedColumnIds = deleted;
  link.lastSyncAt = new Date().toISOString();
  saveLink(link);
  return finishedResult(prepared, progress);
}

/**
 * Pulls the linked table into its sheet. Pages are fetched in parallel waves and merged every
 * PULL_CHUNK_ROWS rows. A fresh pull of a sheet of up to EAGER_READ_MAX_LINES lines reads it and its
 * base whole; otherwise only the id and status columns are read up front, whole lines only when a
 * chunk needs them, so a continuation does not re-read the sheet. The run stops between waves when
 * the measured cost of writing what is pending would not fit the time left, and returns the offset
 * to resume from. A failed or empty listing never clears anything: lines only change by row id.
 */
export function pullLink(context: OperationContext, link: LinkRecord, resume?: PullProgress): PullResult {
  reportProgress(context, { phase: 'reading the table schema' });
  const sheet = requireLinkedSheet(link);
  const reading = readingFor(resume);
  // The base and the sheet's size need no schema: read first, they plan the first page wave.
  const base = readBase(link, reading);
  // Only a continuing pull asks the sheet's size before the schema wait (its size plans the lazy
  // reads): any other size asked now is stale after the wait (lines may be added meanwhile).
  const lastRow = resume ? sheet.getLastRow() : undefined;
  const lastRowAtWait = waitsSoFar();
  const progress = startProgress(resume, newPullId);
  const run = startRun(progress, !!resume, base.size, lastRow, reading);
  // Set up when the schema arrives, with the first page wave.
  let prepared: PreparedPull | undefined;
  const setUp = (table: Table): void => {
    // The size read before a wait is stale (lines inserted meanwhile would not be read, and their rows
    // appended again): the lines are then read with the sheet's size as it is now.
    const sizeNow =
      waitsSoFar() === lastRowAtWait
        ? lastRow
        : asksLastRowAtSchema(base.size, !!resume)
          ? sheet.getLastRow()
          : undefined;
    prepared = preparePull(context, link, table, sheet, base, sizeNow, reading, progress);
    schemaArrived(run, prepared.state.layout.width);
    reportProgress(context, { phase: 'fetching rows' });
  };
  const flushChunk = (): void => {
    if (prepared) writeChunk(context, link, sheet, run, prepared.state);
  };
  let listing: { done: boolean; nextOffset: number; rowCount: number };
  try {
    listing = context.client.listTableAndRows(link.tableAppId, link.tableId, setUp, {
      startOffset: progress.nextOffset,
      // The last pull's row count plans the page waves without overshoot; unknown on a first pull.
      ...(run.known > 0 ? { expectedTotal: run.known } : {}),
      onPage(page, offset) {
        if (receivePage(run, page as Array<Record<string, unknown>>, offset)) flushChunk();
        reportProgress(context, fetchProgress(run));
      },
      shouldStop: () => {
        measureChunk(run);
        return shouldStopListing(run, context.deadline.left());
      },
      probe: { at: () => run.probeAt, found: (offset, count) => probeFound(run, offset, count) },
    });
    run.listingDone = listing.done;
  } catch (error) {
    const failure = asSyncError(error);
    if (failure.code !== 'QUOTA' || !prepared) throw error;
    // Keep what arrived: the next run resumes after the last page written.
    flushChunk();
    flushSeen(link, base);
    progress.nextOffset = run.deliveredTo;
    return unfinishedResult(prepared, progress, failure);
  }
  if (!prepared) throw new SyncError('INTERNAL', 'The table was not read.');
  flushChunk();
  progress.nextOffset = listing.nextOffset;
  if (!listing.done) {
    flushSeen(link, base);
    return unfinishedResult(prepared, progress);
  }
  const stillThere = confirmRemoved(context, link, run, rowsToConfirmRemoved(prepared.state, listing));
  // After the last wait (the listing's or the reads by id): marking loads the lines it marks.
  relocateBeforeLoading(sheet, prepared.state.grid, prepared.state.layout);
  settleRemovedRows(prepared.state, listing, stillThere);
  return finishPull(link, sheet, prepared, progress);
}
