// A pull's decisions as steps over plain data: how the sheet and base are read, how the layout and
// merge state are prepared, when a chunk is written and whether it fits, when to stop for the next
// execution, and what the run reports. src/gas/pull.ts reads, fetches and writes around these.
import type { LineIssue, SyncSummary } from '../../../shared/types';
import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import {
  assertTableFits,
  cellsForRows,
  largestTableRows,
  NEW_SHEET_COLUMNS,
  SMALLEST_FOOTPRINT,
  SPREADSHEET_CELL_LIMIT,
  type TableFootprint,
} from '../../capacity';
import type { DecodeContext } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { SyncError } from '../../errors';
import { headerProblems, ID_HEADER, type Layout, missingHeaders, renamedColumns } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, cellText, indexLines } from '../../lines';
import { headerProblemText, pendingTokenOf, STATUS } from '../../status';
import { collectIssues, emptyTally, type IssueTally } from '../issues';
import { isPendingToken, matchPendingByContent } from '../lost-creates';
import { type LineEdits, newCellValues } from '../push/line-edits';
import {
  agreedCounter,
  emptyPullCounts,
  fixedFieldText,
  markedRemoved,
  markRemovedRows,
  type PendingCreates,
  type PullCounts,
  type PullState,
  restoreEditedIds,
  unseenRowIds,
} from './apply-rows';

/**
 * Rows merged and written per chunk until a chunk's cost is measured: the sheet is written a constant
 * number of times per chunk, and the first chunk is kept small so the cautious first guess of its
 * cost is not trusted for long.
 */
export const PULL_CHUNK_ROWS = 5000;

/**
 * Rows per chunk once a chunk that wrote whole lines is measured. Every chunk costs a
 * re-identification of the lines and a flush (waiting calls); a larger chunk is as safe, since the
 * stop check before each page wave counts the rows waiting at the measured cost, which no row costs
 * more than when the measured chunk wrote whole lines (see chunkMeasured).
 */
export const MEASURED_CHUNK_ROWS = 20_000;

/**
 * A fresh pull of a sheet up to this many lines reads the lines and the base whole, one call each:
 * it needs all of them anyway. Larger sheets, and continuations, read in spans as chunks need them.
 */
export const EAGER_READ_MAX_LINES = 20_000;

/**
 * Chunks a pull of `rows` rows forms in one execution when no whole sheet is read at once: the first
 * of PULL_CHUNK_ROWS rows, then (its cost measured) MEASURED_CHUNK_ROWS each.
 */
export function chunksOfPull(rows: number): number {
  if (rows <= 0) return 0;
  if (rows <= PULL_CHUNK_ROWS) return 1;
  return 1 + Math.ceil((rows - PULL_CHUNK_ROWS) / MEASURED_CHUNK_ROWS);
}

/** A fresh pull of a sheet up to this many lines merges and writes them in one chunk. */
export const ONE_CHUNK_MAX_LINES = 2 * PULL_CHUNK_ROWS;

/** Rows of one page wave the listing may still deliver after a stop check. */
export const WAVE_ROWS = 800;
/** Kept free after the last write, for the job record and the summary. */
export const SAFETY_MS = 20 * 1000;
/** Before anything was measured: a cautious cost of merging and writing one row. */
export const FIRST_GUESS_MS_PER_ROW = 10;
/** A chunk smaller than this says too little about the cost of a row to replace the estimate. */
const MEASURED_CHUNK_MIN_ROWS = 100;
/** The least cost per row an estimate assumes, however fast a chunk went. */
const MIN_MS_PER_ROW = 0.05;

/** Where a pull stands between executions (kept in the job record). */
export interface PullProgress {
  pullId: string;
  nextOffset: number;
  counts: PullCounts;
  /** Column ids this pull added (back) to the sheet: they take the service's values on every line. */
  freshColumns?: string[];
}

/** What one execution of a pull reports. */
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

/** The merge state of a pull, once its schema arrived and the sheet was read. */
export interface PreparedPull {
  state: PullState;
  /** Column ids known to be deleted from the table (their sheet columns are kept, not synced). */
  deletedIds: string[];
  /** Synced columns a person renamed (column id → sheet column): not added again, named to restore. */
  renamed: Map<string, number>;
}

/** How a run reads the sheet and the base (structurally the gas layer's SheetReadOptions). */
export interface PullReading {
  /** Sheets of at most this many lines are read whole; larger ones lazily, in spans. */
  eagerUpTo: number;
  /** Whether the base's seen marks are needed (a continuation: rows seen earlier are not removed). */
  withSeen: boolean;
}

// --- Starting a run ---------------------------------------------------------------------------

/** A fresh pull reads small sheets whole; a continuation reads in spans and needs the seen marks. */
export function readingFor(resume: PullProgress | undefined): PullReading {
  return { eagerUpTo: resume ? 0 : EAGER_READ_MAX_LINES, withSeen: !!resume };
}

/**
 * Whether the run asks the sheet's last row before the schema wait: only a continuing pull, whose
 * size plans its lazy reads. Any other size asked then is stale after the wait (lines may be added
 * meanwhile) and would be asked again.
 */
export function asksLastRow(resuming: boolean): boolean {
  return resuming;
}

/**
 * Whether the run asks the sheet's last row right after the schema wait, before reading its lines:
 * a fresh pull with no base, whose sheet is most often empty (one waiting call, and nothing more to
 * read). With a base the lines are read through the data range, which says the size with them.
 */
export function asksLastRowAtSchema(baseRows: number, resuming: boolean): boolean {
  return baseRows === 0 && !resuming;
}

/** The progress a run works on: a copy of the one it resumes (counts included), or a fresh one. */
export function startProgress(resume: PullProgress | undefined, newPullId: () => string): PullProgress {
  return resume
    ? { ...resume, counts: { ...resume.counts } }
    : { pullId: newPullId(), nextOffset: 0, counts: emptyPullCounts() };
}

/** One execution's pacing: rows waiting to be merged, the measured cost of writing, the size checks. */
export interface PullRun {
  readonly resuming: boolean;
  /** Rows the table had at the last pull (the base), or lines the sheet holds: plans waves and checks. */
  readonly known: number;
  /** Rows gathered before a chunk is merged and written (grows once a chunk's cost is measured). */
  chunkRows: number;
  /** Service rows received and not merged yet, in service order. */
  rows: Array<Readonly<Record<string, unknown>>>;
  pagesFetched: number;
  /** Offset just past the last row delivered. */
  deliveredTo: number;
  /** Whether the listing reached the table's end (the size checks then know it exactly). */
  listingDone: boolean;
  /** Estimated cost of merging and writing one row (measured from the last chunk). */
  msPerRow: number;
  /**
   * A chunk written and not measured yet: Apps Script queues writes until something waits for the
   * spreadsheet, so the next stop decision flushes them first (without that their cost would land at
   * the end of the run, past the budget the stop check keeps). After the last chunk nothing is
   * decided on its cost and the run's own flush charges it.
   */
  unmeasured: { started: number; count: number; wholeLines: boolean } | null;
  /** Offset of the probe read riding in the page waves (undefined: none). */
  probeAt: number | undefined;
  /** The table's footprint as its layout says (set when the schema arrived). */
  footprint: TableFootprint | undefined;
  /** The footprint as the spreadsheet really has it (asked once, near the cell limit). */
  exact: TableFootprint | undefined;
}

/**
 * Starts the pacing of an execution. A small sheet read whole is merged and written in one chunk: its
 * lines are in memory already. Larger ones go in PULL_CHUNK_ROWS chunks, so the first one measures
 * the cost of writing before the cautious first guess could stop the listing early. A table too
 * large for the spreadsheet is refused before anything is written: by probe reads riding in the
 * page waves at the first row that cannot fit (in the first wave whatever the columns, from the
 * second on for this table's columns), at the schema with the size known from the last pull, and
 * before each chunk is written.
 */
export function startRun(
  progress: PullProgress,
  resuming: boolean,
  baseRows: number,
  lastRow: number | undefined,
  reading: PullReading,
): PullRun {
  const known = Math.max(baseRows, (lastRow ?? 0) - 1);
  const chunkRows =
    known <= Math.min(reading.eagerUpTo, ONE_CHUNK_MAX_LINES)
      ? Math.max(PULL_CHUNK_ROWS, known + WAVE_ROWS)
      : PULL_CHUNK_ROWS;
  return {
    resuming,
    known,
    chunkRows,
    rows: [],
    pagesFetched: 0,
    deliveredTo: progress.nextOffset,
    listingDone: false,
    msPerRow: FIRST_GUESS_MS_PER_ROW,
    unmeasured: null,
    probeAt: resuming ? undefined : largestTableRows(SMALLEST_FOOTPRINT),
    footprint: undefined,
    exact: undefined,
  };
}

// --- Preparing the layout and the merge state ---------------------------------------------------

/**
 * Synced columns a person renamed (column id → sheet column): such a column is not added again, and
 * renaming it back restores it, edits kept. Only looked for when a synced column's header is gone
 * (recognising one reads every line).
 */
export function renamedSyncedColumns(
  before: Layout,
  live: readonly ColumnSpec[],
  base: BaseTable,
  grid: LineGrid,
): Map<string, number> {
  const syncedBefore = [...base.columnIds];
  const anyGone = live.some((column) => !before.columns.has(column.id) && syncedBefore.includes(column.id));
  return anyGone
    ? renamedColumns(before, live, syncedBefore, agreedCounter(grid, before, base))
    : new Map<string, number>();
}

/** Columns this pull fills with the service's values on every line, and whether to record them first. */
export interface ColumnsToFill {
  fresh: Set<string>;
  /**
   * True when the run adds a column not recorded yet: the caller records `fresh` before adding it, so
   * a run killed before filling them leaves them marked, their empty cells are never read as edits,
   * and the next pull fills them.
   */
  recordFirst: boolean;
}

/**
 * The columns to fill: those an earlier execution recorded (`recorded`, from the progress and the
 * link) and the live columns the header row lacks now (but the renamed ones in `keepOut`).
 */
export function columnsToFill(
  before: Layout,
  live: readonly ColumnSpec[],
  fixedFields: readonly string[],
  keepOut: ReadonlySet<string>,
  recorded: Iterable<string>,
): ColumnsToFill {
  const fresh = new Set(recorded);
  const liveIds = new Set(live.map((column) => column.id));
  const adding = missingHeaders(before, live, fixedFields, keepOut).filter((id) => liveIds.has(id));
  const recordFirst = adding.some((id) => !fresh.has(id));
  if (recordFirst) for (const id of adding) fresh.add(id);
  return { fresh, recordFirst };
}

/** The merge state over the prepared sheet. */
export function pullStateOf(parts: {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  progress: PullProgress;
  decode: DecodeContext;
  fresh: ReadonlySet<string>;
}): PullState & { decode: DecodeContext } {
  const { grid, layout, live, base, progress, decode, fresh } = parts;
  const state: PullState & { decode: DecodeContext } = {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: progress.pullId,
    counts: progress.counts,
    decode,
  };
  if (fresh.size > 0) state.freshColumns = fresh;
  return state;
}

/** Edited id cells are put back (and say so) before anything is matched by id; returns those lines. */
export function putBackEditedIds(state: PullState): number[] {
  const restored = restoreEditedIds(state);
  const statusColumn = state.layout.status;
  if (statusColumn !== undefined)
    for (const line of restored) state.grid.set(line, statusColumn, STATUS.idRestored);
  return restored;
}

/**
 * Pending creates (a lost answer) on this sheet: the lines marked with a pending token whose record
 * the base holds, then the unmarked lines that match a pending record no mark claims (see
 * unmarkedPendingCreates). Undefined when there are none (a pull adopts nothing).
 */
export function findPendingCreates(
  state: PullState & { decode: DecodeContext },
  me: string,
): PendingCreates | undefined {
  const pending = markedPendingCreates(state.grid, state.layout, state.base, me);
  const claimed = new Set(pending?.lines.map((each) => each.record.id) ?? []);
  const unmarked = unmarkedPendingCreates(state, claimed);
  if (pending) {
    pending.lines.push(...unmarked);
    return pending;
  }
  return unmarked.length > 0 ? { me, lines: unmarked } : undefined;
}

/** Lines whose status carries a pending token, with the record the base holds for it. */
function markedPendingCreates(
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
  state: Pick<PullState, 'grid' | 'layout' | 'base' | 'live'> & { decode: DecodeContext },
  marked: ReadonlySet<string>,
): Array<{ line: number; record: BaseRecord }> {
  const { grid, layout, base, live, decode } = state;
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  if (idColumn === undefined || statusColumn === undefined) return [];
  const tokens = base.ids().filter((id) => isPendingToken(id) && !marked.has(id));
  if (tokens.length === 0) return [];
  base.ensureLoaded(tokens);
  const records = tokens.map((token) => base.get(token)).filter((record) => record !== undefined);
  // The id and status columns are always known (preloaded): only the lines they leave are read whole.
  const unclaimed: number[] = [];
  for (let line = 0; line < grid.length; line++) {
    if (cellText(grid.get(line, idColumn)) === '' && !pendingTokenOf(grid.get(line, statusColumn)))
      unclaimed.push(line);
  }
  grid.ensureLoaded(unclaimed);
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const candidates: Array<{ line: number; values: LineEdits['values']; digests: LineEdits['digests'] }> = [];
  for (const line of unclaimed) {
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

/** Whether the sheet shows a member field that e-mails would replace (then members are looked up once). */
export function showsMemberEmails(showEmails: boolean | undefined, layout: Layout): boolean {
  return !!showEmails && (layout.fixed.has('createdBy') || layout.fixed.has('lModBy'));
}

/** How fixed fields show when member ids are shown as e-mails (`emailOf`: one lookup for the run). */
export function displayWithEmails(
  emailOf: (id: unknown) => string,
): (field: string, value: unknown) => string {
  return (field, value) =>
    field === 'createdBy' || field === 'lModBy' ? emailOf(value) : fixedFieldText(value);
}

// --- Fetching and writing in chunks ---------------------------------------------------------------

/** The schema arrived and the layout is known: the table is checked at its known size, probes re-aimed. */
export function schemaArrived(run: PullRun, sheetWidth: number): void {
  run.footprint = { sheetColumns: sheetWidth, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 };
  assertTableFits(run.known, true, run.footprint);
  if (!run.resuming) run.probeAt = largestTableRows(run.footprint);
}

/** A page arrived at `offset`: its rows wait for the next chunk. Returns whether a chunk is due. */
export function receivePage(
  run: PullRun,
  page: ReadonlyArray<Readonly<Record<string, unknown>>>,
  offset: number,
): boolean {
  run.pagesFetched += 1;
  run.deliveredTo = offset + page.length;
  for (const row of page) run.rows.push(row);
  return run.rows.length >= run.chunkRows;
}

/** What the sidebar shows about the listing so far. */
export function fetchProgress(run: PullRun): {
  pagesFetched: number;
  rowsFetched: number;
  rowsExpected: number | null;
} {
  return {
    pagesFetched: run.pagesFetched,
    rowsFetched: run.deliveredTo,
    rowsExpected: run.known > 0 ? Math.max(run.known, run.deliveredTo) : null,
  };
}

/** A probe read found `count` rows at `offset`: throws if the table cannot fit. */
export function probeFound(run: PullRun, offset: number, count: number): void {
  if (count > 0) assertTableFits(offset + count, true, run.footprint ?? SMALLEST_FOOTPRINT);
}

/** Whether a chunk has anything to merge or write (rows waiting, or lines changed while preparing). */
export function chunkPending(run: PullRun, dirtyLines: number): boolean {
  return run.rows.length > 0 || dirtyLines > 0;
}

/**
 * Whether the spreadsheet's real footprint (grid widths, other sheets' cells) must be asked before
 * the next chunk: once an execution, only past half the cell limit where it decides.
 */
export function needsExactFootprint(run: PullRun): boolean {
  if (run.exact || !run.footprint) return false;
  return cellsForRows(Math.max(run.deliveredTo, run.known), run.footprint) > SPREADSHEET_CELL_LIMIT / 2;
}

/** Before a chunk is written: throws if the rows seen so far cannot fit (nothing more is written). */
export function assertChunkFits(run: PullRun, linesWritten: number): void {
  if (!run.footprint) return;
  const rows = Math.max(run.deliveredTo, run.known);
  assertTableFits(rows, !run.listingDone, run.exact ?? run.footprint, linesWritten);
}

/** The rows of the chunk about to be merged; the run waits for new ones after this. */
export function takeChunk(run: PullRun): Array<Readonly<Record<string, unknown>>> {
  const rows = run.rows;
  run.rows = [];
  return rows;
}

/**
 * A chunk of `count` rows was merged and written from `started` (ms): measured at the next stop check.
 * `cellsWritten` of a sheet `width` columns wide says whether it wrote about whole lines (rows added,
 * or changed in most columns): only such a chunk's cost is what any later row may cost.
 */
export function chunkWritten(
  run: PullRun,
  started: number,
  count: number,
  cellsWritten: number,
  width: number,
): void {
  run.unmeasured = { started, count, wholeLines: cellsWritten * 2 >= count * width };
}

/**
 * The spreadsheet finished the queued writes at `now` (ms): the cost per row of the last chunk
 * replaces the estimate when the chunk was large enough to say. Later chunks may be larger only when
 * it wrote about whole lines: a chunk of rows unchanged (or changed in a column or two) costs little,
 * and a chunk four times larger of rows all changed would cost far more than its estimate, past the
 * time the stop check keeps (killed at the 6-minute limit).
 */
export function chunkMeasured(run: PullRun, now: number): void {
  const chunk = run.unmeasured;
  if (!chunk) return;
  if (chunk.count >= MEASURED_CHUNK_MIN_ROWS) {
    run.msPerRow = Math.max(MIN_MS_PER_ROW, (now - chunk.started) / chunk.count);
    run.chunkRows = chunk.wholeLines
      ? Math.max(run.chunkRows, MEASURED_CHUNK_ROWS)
      : Math.min(run.chunkRows, PULL_CHUNK_ROWS);
  }
  run.unmeasured = null;
}

/** Time to merge and write `rows` rows at the estimated cost, with the safety margin kept free. */
export function timeToWrite(run: PullRun, rows: number): number {
  return rows * run.msPerRow * 1.3 + SAFETY_MS;
}

/**
 * Whether the listing stops before the next wave, to continue in the next execution: the rows waiting
 * and one more wave could not be written in the time left.
 */
export function shouldStopListing(run: PullRun, msLeft: number): boolean {
  return msLeft < timeToWrite(run, run.rows.length + WAVE_ROWS);
}

// --- Ending a run ---------------------------------------------------------------------------------

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

/** Whether reading rows to confirm their removal stops: the writes left must still fit the time. */
export function shouldStopConfirming(run: PullRun, lines: number, msLeft: number): boolean {
  return msLeft < timeToWrite(run, lines + WAVE_ROWS);
}

/** The link's deleted column ids with those this pull found; undefined when nothing is new. */
export function deletedColumnIdsAfter(
  recorded: readonly string[],
  found: readonly string[],
): string[] | undefined {
  const deleted = [...new Set([...recorded, ...found])];
  return deleted.length === recorded.length ? undefined : deleted;
}

/** What the run says about synced columns it could not fill (a header renamed or present twice). */
export function headerWarningsOf(prepared: PreparedPull): string[] {
  const { state, renamed } = prepared;
  return headerProblems(state.layout, state.live, [], renamed).map(headerProblemText);
}

/** An execution that stops before the end of the listing (time, or the daily quota: `haltedBy`). */
export function unfinishedResult(
  prepared: PreparedPull,
  progress: PullProgress,
  haltedBy?: SyncError,
): PullResult {
  return {
    finished: false,
    ...(haltedBy ? { haltedBy } : {}),
    progress,
    issues: [],
    layout: prepared.state.layout,
    headerWarnings: headerWarningsOf(prepared),
  };
}

/** The finished pull: every problem line of the sheet tallied, the first 200 listed. */
export function finishedResult(prepared: PreparedPull, progress: PullProgress): PullResult {
  const tally = emptyTally();
  return {
    finished: true,
    progress,
    issues: collectIssues(prepared.state, 200, tally),
    tally,
    layout: prepared.state.layout,
    headerWarnings: headerWarningsOf(prepared),
  };
}

/** The summary's counts of a pull. */
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

/** The table's footprint from the spreadsheet's sheets as they are (see needsExactFootprint). */
export interface SheetShape {
  /** The linked sheet, its base sheet, or another sheet of the spreadsheet. */
  role: 'linked' | 'base' | 'other';
  columns: number;
  /** Grid rows (only counted for other sheets). */
  rows: number;
}

/** The footprint as the spreadsheet really has it: grid widths, and the cells of the other sheets. */
export function workbookFootprint(sheetWidth: number, sheets: Iterable<SheetShape>): TableFootprint {
  const footprint: TableFootprint = {
    sheetColumns: sheetWidth,
    baseColumns: NEW_SHEET_COLUMNS,
    otherCells: 0,
  };
  for (const sheet of sheets) {
    if (sheet.role === 'linked') footprint.sheetColumns = Math.max(sheetWidth, sheet.columns);
    else if (sheet.role === 'base') footprint.baseColumns = sheet.columns;
    else footprint.otherCells += sheet.rows * sheet.columns;
  }
  return footprint;
}
