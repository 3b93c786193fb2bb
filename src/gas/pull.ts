// Pull: the table's schema and rows into the linked sheet, three-way, in chunks, resumable.
import { deletedColumnIds, liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import type { Layout } from '../core/layout';
import { emailLookup } from '../core/members';
import {
  applyServiceRows,
  emptyPullCounts,
  indexLines,
  markRemovedRows,
  type PullCounts,
  type PullState,
} from '../core/pull-engine';
import { isConflictStatus, isProblemStatus } from '../core/status';
import type { LineIssue, SyncSummary } from '../shared/types';
import { layoutOf, prepareHeaders } from './headers';
import { flushBase, flushLines, readBase, readLines, requireLinkedSheet } from './linked-sheet';
import { type OperationContext, reportProgress } from './operation';
import { type LinkRecord, saveLink } from './stores';

/** Rows merged and written per chunk: the sheet is written a constant number of times per chunk. */
export const PULL_CHUNK_ROWS = 5000;
/** Time kept in reserve for the last chunk's writes before stopping for a continuation. */
const WRITE_RESERVE_MS = 60 * 1000;

export interface PullProgress {
  pullId: string;
  nextOffset: number;
  counts: PullCounts;
}

export interface PullResult {
  finished: boolean;
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

/**
 * Pulls the linked table into its sheet. Pages are fetched in parallel waves and merged every
 * PULL_CHUNK_ROWS rows; when the time budget runs low it stops between chunks and returns the
 * offset to resume from. A failed or empty listing never clears anything: lines only change by row id.
 */
export function pullLink(context: OperationContext, link: LinkRecord, resume?: PullProgress): PullResult {
  const { client, deadline } = context;
  reportProgress(context, { phase: 'reading the table schema' });
  const table = client.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const deletedIds = deletedColumnIds(table.columns);
  const sheet = requireLinkedSheet(link);
  const { headers, grid } = readLines(sheet);
  const base = readBase(link);
  const liveIds = new Set(live.map((column) => column.id));
  const goneIds = [...new Set([...link.goneColumnIds, ...deletedIds, ...base.columnIds])].filter(
    (id) => !liveIds.has(id),
  );
  let layout = layoutOf(headers, live, goneIds);
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
  if (link.showEmails && (layout.fixed.has('createdBy') || layout.fixed.has('lModBy'))) {
    // One members lookup per run, never a call per row.
    const emailOf = emailLookup(client.allPeople());
    state.displayFixed = (field, value) =>
      field === 'createdBy' || field === 'lModBy'
        ? emailOf(value)
        : value === null || value === undefined
          ? ''
          : typeof value === 'string'
            ? value
            : JSON.stringify(value);
  }

  let pending: Array<Record<string, unknown>> = [];
  let linesWritten = 0;
  const flushChunk = (): void => {
    applyServiceRows(state, pending);
    pending = [];
    linesWritten += flushLines(sheet, grid, layout, live);
    flushBase(link, base);
    reportProgress(context, { phase: 'writing lines', linesWritten });
  };

  reportProgress(context, { phase: 'fetching rows' });
  let pagesFetched = 0;
  const known = Math.max(base.size, grid.length);
  const listing = client.listAllRows(link.tableAppId, link.tableId, {
    startOffset: progress.nextOffset,
    // The last pull's row count plans the page waves without overshoot; unknown on a first pull.
    ...(known > 0 ? { expectedTotal: known } : {}),
    onPage(rows) {
      pagesFetched += 1;
      for (const row of rows) pending.push(row as Record<string, unknown>);
      if (pending.length >= PULL_CHUNK_ROWS) flushChunk();
      reportProgress(context, { pagesFetched });
    },
    shouldStop: () => deadline.nearlyOver(WRITE_RESERVE_MS),
  });
  flushChunk();
  progress.nextOffset = listing.nextOffset;

  if (!listing.done) {
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
  if (gone.length !== link.goneColumnIds.length) {
    link.goneColumnIds = gone;
  }
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
