// Pull: the table's schema and rows into the linked sheet, three-way, in chunks, resumable.

import type { Table } from '../api/types';
import type { BaseRecord } from '../core/base';
import {
  assertTableFits,
  cellsForRows,
  largestTableRows,
  NEW_SHEET_COLUMNS,
  SMALLEST_FOOTPRINT,
  SPREADSHEET_CELL_LIMIT,
  type TableFootprint,
} from '../core/capacity';
import type { ColumnSpec } from '../core/columns';
import { liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import {
  headerProblems,
  ID_HEADER,
  type Layout,
  missingHeaders,
  readLayout,
  renamedColumns,
} from '../core/layout';
import { cellsByGet, cellText, indexLines } from '../core/lines';
import { emailLookup } from '../core/members';
import { type LineEdits, newCellValues } from '../core/merge';
import {
  agreedCounter,
  applyServiceRows,
  emptyPullCounts,
  fixedFieldText,
  markRemovedRows,
  type PendingCreates,
  type PullCounts,
  type PullState,
  restoreEditedIds,
} from '../core/pull-engine';
import { matchPendingByContent } from '../core/recovery';
import type { BaseTable, LineGrid } from '../core/sheet-model';
import { headerProblemText, pendingTokenOf, STATUS } from '../core/status';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from '../core/sync/issues';
import type { LineIssue, SyncSummary } from '../shared/types';
import { activeSpreadsheet } from './active';
import { flushBase, flushSeen, readBase } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { knownDeletedColumnIds, prepareHeaders } from './headers';
import { restoreNumberFormats } from './number-formats';
import { asSyncError, type OperationContext, reportProgress } from './operation';
import { flushLines, readLinesForPull, type SheetReadOptions } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import { type LinkRecord, saveLink } from './stores';

/** Rows merged and written per chunk: the sheet is written a constant number of times per chunk. */
export const PULL_CHUNK_ROWS = 5000;

/**
 * A fresh pull of a sheet up to this many lines reads the lines and the base whole, one call each:
 * it needs all of them anyway. Larger sheets, and continuations, read in spans as chunks need them.
 */
export const EAGER_READ_MAX_LINES = 20_000;

/** A fresh pull of a sheet up to this many lines merges and writes them in one chunk. */
const ONE_CHUNK_MAX_LINES = 2 * PULL_CHUNK_ROWS;

export interface PullProgress {
  pullId: string;
  nextOffset: number;
  counts: PullCounts;
  /** Column ids this pull added (back) to the sheet: they take the service's values on every line. */
  freshColumns?: string[];
}

export interface PullResult {
  finished: boolean;
  /** Set when the daily quota stopped the listing: progress was kept, no retry helps today. */
  haltedBy?: SyncError;
  progress: PullProgress;
  issues: LineIssue[];
  /** Every problem line of the sheet by kind, once the pull finished. */
  tally?: IssueTally;
  layout: Layout;
  /** Synced columns whose header is repeated: nothing was written into them (what to restore). */
  headerWarnings: string[];
}

/** What the run says about synced columns it could not fill (a header renamed or present twice). */
function headerWarningsOf(prepared: PreparedPull): string[] {
  const { state, renamed } = prepared;
  return headerProblems(state.layout, state.live, [], renamed).map(headerProblemText);
}

function newPullId(): string {
  return `p${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Rows of one page wave the listing may still deliver after a stop check. */
const WAVE_ROWS = 800;
/** Kept free after the last write, for the job record and the summary. */
const SAFETY_MS = 20 * 1000;
/** Before anything was measured: a cautious cost of merging and writing one row. */
const FIRST_GUESS_MS_PER_ROW = 10;

/** Pending creates (a lost answer) on this sheet: their lines and what was sent. */
function pendingCreates(
  grid: LineGrid,
  layout: Layout,
  base: BaseTable,
  me: string,
): PendingCreates | undefined {
  const statusColumn = layout.status;
  if (statusColumn === undefined) return undefined;
  const lines: Array<{ line: number; token: string }> = [];
  for (let line = 0; line < grid.length; line++) {
    const token = pendingTokenOf(grid.get(line, statusColumn));
    if (token) lines.push({ line, token });
  }
  if (lines.length === 0) return undefined;
  grid.ensureLoaded(lines.map((each) => each.line));
  base.ensureLoaded(lines.map((each) => each.token));
  const found: PendingCreates['lines'] = [];
  for (const { line, token } of lines) {
    const record = base.get(token);
    if (record) found.push({ line, record });
  }
  return { me, lines: found };
}

/**
 * Pending creates whose line carries no mark: a person inserted or sorted lines while the push waited
 * for its POST, so the mark and the id were never written (the line was lost to that push), or the
 * person cleared the status cell. Without this the pull added the created row as a second line and
 * the next push, finding that row on a line, created the person's line again (chaos seed 20240233).
 * Such a line is matched by exactly the values sent (as push does) and gets the row like a marked one.
 * Only asked when the base holds a pending record no mark claims (rare): then every line without an
 * id is read.
 */
function unmarkedPendingCreates(
  grid: LineGrid,
  layout: Layout,
  base: BaseTable,
  live: readonly ColumnSpec[],
  marked: ReadonlySet<string>,
): Array<{ line: number; record: BaseRecord }> {
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  if (idColumn === undefined || statusColumn === undefined) return [];
  const tokens = base.ids().filter((id) => id.startsWith('pending:') && !marked.has(id));
  if (tokens.length === 0) return [];
  base.ensureLoaded(tokens);
  const records = tokens.map((token) => base.get(token)).filter((record) => record !== undefined);
  const all: number[] = [];
  for (let line = 0; line < grid.length; line++) all.push(line);
  grid.ensureLoaded(all);
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const decode = spreadsheetDecodeContext();
  const candidates: Array<{ line: number; values: LineEdits['values']; digests: LineEdits['digests'] }> = [];
  for (let line = 0; line < grid.length; line++) {
    if (cellText(grid.get(line, idColumn)) !== '' || pendingTokenOf(grid.get(line, statusColumn))) continue;
    const edits = newCellValues(cellsByGet(grid, line, at), at, live, decode);
    if (edits.errors.length === 0 && Object.keys(edits.values).length > 0)
      candidates.push({ line, values: edits.values, digests: edits.digests });
  }
  const out: Array<{ line: number; record: BaseRecord }> = [];
  for (const [index, token] of matchPendingByContent(candidates, records, new Set(), live)) {
    const record = records.find((each) => each.id === token);
    if (record) out.push({ line: (candidates[index] as { line: number }).line, record });
  }
  return out;
}

interface PreparedPull {
  state: PullState;
  deletedIds: string[];
  /** Synced columns a person renamed (column id → sheet column): not added again, named to restore. */
  renamed: Map<string, number>;
}

/** Reads the lines, completes the header row and builds the merge state, once the schema is known. */
function preparePull(
  context: OperationContext,
  link: LinkRecord,
  table: Table,
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  base: BaseTable,
  lastRow: number | undefined,
  reading: SheetReadOptions,
  progress: PullProgress,
): PreparedPull {
  const live = liveColumns(table.columns);
  const deletedIds = knownDeletedColumnIds(link, table.columns, live, base.columnIds);
  const { headers, grid } = readLinesForPull(
    sheet,
    (headerRow) => readLayout(headerRow, live, deletedIds),
    reading,
    lastRow,
  );
  const before = readLayout(headers, live, deletedIds);
  assertIdColumn(before, grid.length, base.size);
  // A synced column renamed by a person is not added again: renaming it back restores it, edits kept.
  const syncedBefore = [...base.columnIds];
  const renamed = live.some((column) => !before.columns.has(column.id) && syncedBefore.includes(column.id))
    ? renamedColumns(before, live, syncedBefore, agreedCounter(grid, before, base))
    : new Map<string, number>();
  const keepOut = new Set(renamed.keys());
  // Columns about to be added are recorded first: a run killed before filling them leaves them
  // marked, so their empty cells are never read as edits and the next pull fills them.
  const fresh = new Set([...(progress.freshColumns ?? []), ...(link.freshColumns ?? [])]);
  const liveIds = new Set(live.map((column) => column.id));
  const adding = missingHeaders(before, live, link.fixedFields, keepOut).filter((id) => liveIds.has(id));
  if (adding.some((id) => !fresh.has(id))) {
    for (const id of adding) fresh.add(id);
    link.freshColumns = [...fresh];
    saveLink(link);
  }
  const layout = prepareHeaders(sheet, before, grid, live, deletedIds, link.fixedFields, keepOut);
  if (fresh.size > 0) progress.freshColumns = [...fresh];
  // A date a person typed into a number column: the cell gets its number format back (issue 15).
  restoreNumberFormats(sheet, grid, layout, live);
  base.ensureColumns(live.map((column) => column.id));
  const state: PullState = {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: progress.pullId,
    counts: progress.counts,
    decode: spreadsheetDecodeContext(),
  };
  if (fresh.size > 0) state.freshColumns = fresh;
  // Edited id cells are put back before anything is matched by id.
  if (layout.status !== undefined) {
    for (const line of restoreEditedIds(state)) grid.set(line, layout.status, STATUS.idRestored);
  } else {
    restoreEditedIds(state);
  }
  const pending = pendingCreates(grid, layout, base, context.connection.info.userId);
  const unmarked = unmarkedPendingCreates(
    grid,
    layout,
    base,
    live,
    new Set(pending?.lines.map((each) => each.record.id) ?? []),
  );
  if (pending) {
    pending.lines.push(...unmarked);
    state.pending = pending;
  } else if (unmarked.length > 0) {
    state.pending = { me: context.connection.info.userId, lines: unmarked };
  }
  if (link.showEmails && (layout.fixed.has('createdBy') || layout.fixed.has('lModBy'))) {
    // One members lookup per run, never a call per row.
    const emailOf = emailLookup(context.client.allPeople());
    state.displayFixed = (field, value) =>
      field === 'createdBy' || field === 'lModBy' ? emailOf(value) : fixedFieldText(value);
  }
  return { state, deletedIds, renamed };
}

/**
 * The table's footprint as the spreadsheet really has it (grid widths, other sheets' cells): asked
 * once an execution, only near the cell limit where it decides (a few waiting calls a sheet).
 */
function workbookFootprint(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  link: LinkRecord,
  width: number,
): TableFootprint {
  const footprint: TableFootprint = { sheetColumns: width, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 };
  const linkedId = sheet.getSheetId();
  for (const each of activeSpreadsheet().getSheets()) {
    const columns = each.getMaxColumns();
    if (each.getSheetId() === linkedId) footprint.sheetColumns = Math.max(width, columns);
    else if (each.getName() === link.baseSheetName) footprint.baseColumns = columns;
    else footprint.otherCells += each.getMaxRows() * columns;
  }
  return footprint;
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
  const { client, deadline } = context;
  reportProgress(context, { phase: 'reading the table schema' });
  const sheet = requireLinkedSheet(link);
  const reading: SheetReadOptions = { eagerUpTo: resume ? 0 : EAGER_READ_MAX_LINES, withSeen: !!resume };
  // The base and the sheet's size need no schema: read first, they plan the first page wave.
  const base = readBase(link, reading);
  // With a base, its size plans the waves and the sheet's size comes with reading it (its data
  // range: one waiting call fewer); a first or continuing pull asks the sheet's last row now.
  const lastRow = base.size > 0 && !resume ? undefined : sheet.getLastRow();
  const progress: PullProgress = resume
    ? { ...resume, counts: { ...resume.counts } }
    : { pullId: newPullId(), nextOffset: 0, counts: emptyPullCounts() };

  // Set up when the schema arrives, with the first page wave.
  let prepared: PreparedPull | undefined;
  // A table too large for the spreadsheet is refused before anything is written: by probe reads
  // riding in the page waves at the first row that cannot fit (in the first wave whatever the
  // columns, from the second on for this table's columns), at the schema with the size known from
  // the last pull, and before each chunk is written.
  let footprint: TableFootprint | undefined;
  let probeAt = resume ? undefined : largestTableRows(SMALLEST_FOOTPRINT);
  const setUp = (table: Table): void => {
    prepared = preparePull(context, link, table, sheet, base, lastRow, reading, progress);
    footprint = { sheetColumns: prepared.state.layout.width, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 };
    assertTableFits(known, true, footprint);
    if (!resume) probeAt = largestTableRows(footprint);
    reportProgress(context, { phase: 'fetching rows' });
  };
  let listingDone = false;
  let exact: TableFootprint | undefined;
  const assertChunkFits = (): void => {
    if (!footprint || !prepared) return;
    const rows = Math.max(deliveredTo, known);
    if (!exact && cellsForRows(rows, footprint) > SPREADSHEET_CELL_LIMIT / 2)
      exact = workbookFootprint(sheet, link, prepared.state.layout.width);
    assertTableFits(rows, !listingDone, exact ?? footprint, context.progress.linesWritten);
  };

  let rows: Array<Record<string, unknown>> = [];
  let msPerRow = FIRST_GUESS_MS_PER_ROW;
  // A chunk written and not yet measured: Apps Script queues writes until something waits for the
  // spreadsheet, so the next stop decision flushes them first (without that their cost would land
  // at the end of the run, past the budget the stop check keeps). After the last chunk nothing is
  // decided on its cost and the run's own flush charges it.
  let unmeasured: { started: number; count: number } | null = null;
  const measureChunk = (): void => {
    if (!unmeasured) return;
    SpreadsheetApp.flush();
    if (unmeasured.count >= 100)
      msPerRow = Math.max(0.05, (Date.now() - unmeasured.started) / unmeasured.count);
    unmeasured = null;
  };
  const flushChunk = (): void => {
    if (!prepared) return;
    const { state } = prepared;
    if (rows.length === 0 && state.grid.dirtyCount === 0) return;
    assertChunkFits();
    const started = Date.now();
    const count = rows.length;
    applyServiceRows(state, rows);
    rows = [];
    const written = flushLines(sheet, state.grid, state.layout, state.live);
    flushBase(link, base);
    unmeasured = { started, count };
    reportProgress(context, {
      phase: 'writing lines',
      linesWritten: context.progress.linesWritten + written,
    });
  };
  const timeToWrite = (count: number): number => count * msPerRow * 1.3 + SAFETY_MS;

  let pagesFetched = 0;
  let deliveredTo = progress.nextOffset;
  const known = Math.max(base.size, (lastRow ?? 0) - 1);
  // A small sheet read whole is merged and written in one chunk: its lines are in memory already.
  // Larger ones go in PULL_CHUNK_ROWS chunks, so the first one measures the cost of writing before
  // the cautious first guess could stop the listing early.
  const chunkRows =
    known <= Math.min(reading.eagerUpTo, ONE_CHUNK_MAX_LINES)
      ? Math.max(PULL_CHUNK_ROWS, known + WAVE_ROWS)
      : PULL_CHUNK_ROWS;
  let listing: { done: boolean; nextOffset: number; rowCount: number };
  try {
    listing = client.listTableAndRows(link.tableAppId, link.tableId, setUp, {
      startOffset: progress.nextOffset,
      // The last pull's row count plans the page waves without overshoot; unknown on a first pull.
      ...(known > 0 ? { expectedTotal: known } : {}),
      onPage(page, offset) {
        pagesFetched += 1;
        deliveredTo = offset + page.length;
        for (const row of page) rows.push(row as Record<string, unknown>);
        if (rows.length >= chunkRows) flushChunk();
        reportProgress(context, {
          pagesFetched,
          rowsFetched: deliveredTo,
          rowsExpected: known > 0 ? Math.max(known, deliveredTo) : null,
        });
      },
      shouldStop: () => {
        measureChunk();
        return deadline.left() < timeToWrite(rows.length + WAVE_ROWS);
      },
      probe: {
        at: () => probeAt,
        found(offset, count) {
          if (count > 0) assertTableFits(offset + count, true, footprint ?? SMALLEST_FOOTPRINT);
        },
      },
    });
    listingDone = listing.done;
  } catch (error) {
    const failure = asSyncError(error);
    if (failure.code !== 'QUOTA' || !prepared) throw error;
    // Keep what arrived: the next run resumes after the last page written.
    flushChunk();
    flushSeen(link, base);
    progress.nextOffset = deliveredTo;
    return {
      finished: false,
      haltedBy: failure,
      progress,
      issues: [],
      layout: prepared.state.layout,
      headerWarnings: headerWarningsOf(prepared),
    };
  }
  if (!prepared) throw new SyncError('INTERNAL', 'The table was not read.');
  const { state, deletedIds } = prepared;
  const { grid, layout, live } = state;
  flushChunk();
  progress.nextOffset = listing.nextOffset;

  if (!listing.done) {
    flushSeen(link, base);
    return { finished: false, progress, issues: [], layout, headerWarnings: headerWarningsOf(prepared) };
  }
  // A listing that comes back empty while the sheet holds rows of this table is more likely a
  // service or proxy fault than a table emptied: nothing is marked removed on its word.
  const suspiciousEmpty =
    listing.rowCount === 0 && progress.nextOffset === 0 && state.index.lineById.size > 0;
  if (!suspiciousEmpty) markRemovedRows(state);
  flushLines(sheet, grid, layout, live);
  flushBase(link, base);
  // Every added column is filled now.
  delete link.freshColumns;
  const deleted = [...new Set([...link.deletedColumnIds, ...deletedIds])];
  if (deleted.length !== link.deletedColumnIds.length) link.deletedColumnIds = deleted;
  link.lastSyncAt = new Date().toISOString();
  saveLink(link);
  const tally = emptyTally();
  return {
    finished: true,
    progress,
    issues: collectIssues(state, 200, tally),
    tally,
    layout,
    headerWarnings: headerWarningsOf(prepared),
  };
}

export function pullSummaryFields(
  counts: PullCounts,
): Pick<
  SyncSummary,
  'added' | 'updated' | 'unchanged' | 'keptLocal' | 'conflicts' | 'removedOnService' | 'errors'
> {
  return {
    added: counts.added,
    updated: counts.updated,
    unchanged: counts.unchanged,
    keptLocal: counts.keptLocal,
    conflicts: counts.conflicts,
    removedOnService: counts.removedOnService,
    errors: counts.errors,
  };
}
