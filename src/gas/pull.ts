// Pull: the table's schema and rows into the linked sheet, three-way, in chunks, resumable.
import { liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import { type Layout, readLayout } from '../core/layout';
import { emailLookup } from '../core/members';
import {
  applyServiceRows,
  emptyPullCounts,
  fixedFieldText,
  indexLines,
  markRemovedRows,
  type PendingCreates,
  type PullCounts,
  type PullState,
} from '../core/pull-engine';
import type { BaseTable, LineGrid } from '../core/sheet-model';
import { isConflictStatus, isProblemStatus, pendingSince } from '../core/status';
import type { LineIssue, SyncSummary } from '../shared/types';
import { goneColumnIds, prepareHeaders } from './headers';
import {
  flushBase,
  flushLines,
  flushSeen,
  readBaseLazily,
  readLinesLazily,
  requireLinkedSheet,
} from './linked-sheet';
import { asSyncError, type OperationContext, reportProgress } from './operation';
import { type LinkRecord, saveLink } from './stores';

/** Rows merged and written per chunk: the sheet is written a constant number of times per chunk. */
export const PULL_CHUNK_ROWS = 5000;

export interface PullProgress {
  pullId: string;
  nextOffset: number;
  counts: PullCounts;
}

export interface PullResult {
  finished: boolean;
  /** Set when the daily quota stopped the listing: progress was kept, no retry helps today. */
  haltedBy?: SyncError;
  progress: PullProgress;
  issues: LineIssue[];
  layout: Layout;
}

function newPullId(): string {
  return `p${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * A sheet whose id column is gone (deleted or overwritten) cannot be matched to its rows: pulling
 * would add every row again and a push would create them all anew. Refuse and say how to repair.
 */
export function assertIdColumn(layout: Layout, lines: number, baseRows: number): void {
  if (layout.fixed.has('id') || baseRows === 0 || lines === 0) return;
  throw new SyncError(
    'SHEET',
    'The id column of this sheet is missing, so lines cannot be matched to rows. Undo the change (Ctrl+Z) or restore the "id" header, then try again; nothing was changed.',
  );
}

/** Lines whose status shows a conflict, an error or a removed row: the sidebar lists them. */
export function collectIssues(state: Pick<PullState, 'grid' | 'layout'>, limit = 200): LineIssue[] {
  const issues: LineIssue[] = [];
  const statusColumn = state.layout.status;
  const idColumn = state.layout.fixed.get('id');
  if (statusColumn === undefined) return issues;
  for (let line = 0; line < state.grid.length && issues.length < limit; line++) {
    const status = state.grid.get(line, statusColumn);
    if (!isProblemStatus(status)) continue;
    const text = String(status);
    issues.push({
      row: line + 2,
      rowId: idColumn === undefined ? '' : String(state.grid.get(line, idColumn)),
      kind: isConflictStatus(text)
        ? 'conflict'
        : text.includes('removed on the service')
          ? 'removed'
          : 'error',
      message: text.replace(/^[⚠✖]\s*/, ''),
    });
  }
  return issues;
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
    const token = pendingSince(grid.get(line, statusColumn));
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
 * Pulls the linked table into its sheet. Pages are fetched in parallel waves and merged every
 * PULL_CHUNK_ROWS rows; only the id and status columns are read up front, whole lines only when a
 * chunk needs them, so a continuation does not re-read the sheet. The run stops between waves when
 * the measured cost of writing what is pending would not fit the time left, and returns the offset
 * to resume from. A failed or empty listing never clears anything: lines only change by row id.
 */
export function pullLink(context: OperationContext, link: LinkRecord, resume?: PullProgress): PullResult {
  const { client, deadline } = context;
  reportProgress(context, { phase: 'reading the table schema' });
  const table = client.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const sheet = requireLinkedSheet(link);
  const base = readBaseLazily(link);
  const goneIds = goneColumnIds(link, table.columns, live, base.columnIds);
  const { headers, grid } = readLinesLazily(sheet, (headerRow) => readLayout(headerRow, live, goneIds));
  let layout = readLayout(headers, live, goneIds);
  assertIdColumn(layout, grid.length, base.size);
  layout = prepareHeaders(sheet, layout, grid, live, goneIds, link.fixedFields);
  base.ensureColumns(live.map((column) => column.id));

  const progress: PullProgress = resume
    ? { ...resume, counts: { ...resume.counts } }
    : { pullId: newPullId(), nextOffset: 0, counts: emptyPullCounts() };
  const state: PullState = {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: progress.pullId,
    counts: progress.counts,
  };
  const pending = pendingCreates(grid, layout, base, context.connection.info.userId);
  if (pending) state.pending = pending;
  if (link.showEmails && (layout.fixed.has('createdBy') || layout.fixed.has('lModBy'))) {
    // One members lookup per run, never a call per row.
    const emailOf = emailLookup(client.allPeople());
    state.displayFixed = (field, value) =>
      field === 'createdBy' || field === 'lModBy' ? emailOf(value) : fixedFieldText(value);
  }

  let rows: Array<Record<string, unknown>> = [];
  let linesWritten = 0;
  let msPerRow = FIRST_GUESS_MS_PER_ROW;
  const flushChunk = (): void => {
    if (rows.length === 0 && grid.dirtyCount === 0) return;
    const started = Date.now();
    const count = rows.length;
    applyServiceRows(state, rows);
    rows = [];
    linesWritten += flushLines(sheet, grid, layout, live);
    flushBase(link, base);
    if (count >= 100) msPerRow = Math.max(0.05, (Date.now() - started) / count);
    reportProgress(context, { phase: 'writing lines', linesWritten });
  };
  const timeToWrite = (count: number): number => count * msPerRow * 1.3 + SAFETY_MS;

  reportProgress(context, { phase: 'fetching rows' });
  let pagesFetched = 0;
  let deliveredTo = progress.nextOffset;
  const known = Math.max(base.size, grid.length);
  let listing: { done: boolean; nextOffset: number; rowCount: number };
  try {
    listing = client.listAllRows(link.tableAppId, link.tableId, {
      startOffset: progress.nextOffset,
      // The last pull's row count plans the page waves without overshoot; unknown on a first pull.
      ...(known > 0 ? { expectedTotal: known } : {}),
      onPage(page, offset) {
        pagesFetched += 1;
        deliveredTo = offset + page.length;
        for (const row of page) rows.push(row as Record<string, unknown>);
        if (rows.length >= PULL_CHUNK_ROWS) flushChunk();
        reportProgress(context, { pagesFetched });
      },
      shouldStop: () => deadline.left() < timeToWrite(rows.length + WAVE_ROWS),
    });
  } catch (error) {
    const failure = asSyncError(error);
    if (failure.code !== 'QUOTA') throw error;
    // Keep what arrived: the next run resumes after the last page written.
    flushChunk();
    flushSeen(link, base);
    progress.nextOffset = deliveredTo;
    return { finished: false, haltedBy: failure, progress, issues: [], layout };
  }
  flushChunk();
  progress.nextOffset = listing.nextOffset;

  if (!listing.done) {
    flushSeen(link, base);
    return { finished: false, progress, issues: [], layout };
  }
  // A listing that comes back empty while the sheet holds rows of this table is more likely a
  // service or proxy fault than a table emptied: nothing is marked removed on its word.
  const suspiciousEmpty =
    listing.rowCount === 0 && progress.nextOffset === 0 && state.index.lineById.size > 0;
  if (!suspiciousEmpty) markRemovedRows(state);
  flushLines(sheet, grid, layout, live);
  flushBase(link, base);
  const gone = [...new Set([...link.goneColumnIds, ...goneIds])];
  if (gone.length !== link.goneColumnIds.length) link.goneColumnIds = gone;
  link.lastSyncAt = new Date().toISOString();
  saveLink(link);
  return { finished: true, progress, issues: collectIssues(state), layout };
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
