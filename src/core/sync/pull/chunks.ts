import {
  assertTableFits,
  cellsForRows,
  GROWTH_SPARE_ROWS,
  largestTableRows,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  SMALLEST_FOOTPRINT,
  SPREADSHEET_CELL_LIMIT,
  type TableFootprint,
} from '../../capacity';
import type { SheetReadOptions, SheetShape } from '../ports';
import type { PullProgress } from './start';

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

/** A fresh pull of a sheet up to this many lines merges and writes them in one chunk. */
export const ONE_CHUNK_MAX_LINES = 2 * PULL_CHUNK_ROWS;

/** Rows of one page wave the listing may still deliver after a stop check. */
export const WAVE_ROWS = 800;

/**
 * Rows a first pull (no base) gathers before its first chunk, its cost not measured yet: as many as a
 * sheet read whole is trusted with at the first guess (ONE_CHUNK_MAX_LINES and a wave). Every row of
 * a first pull is a whole new line, so a first pull that fits is written once, after its last page,
 * with no re-identification; the time left may make the chunk due sooner (chunkDue).
 */
export const FIRST_PULL_CHUNK_ROWS = ONE_CHUNK_MAX_LINES + WAVE_ROWS;

/**
 * Chunks a first pull of `rows` rows forms in one execution when time is not short: the first of
 * FIRST_PULL_CHUNK_ROWS rows, then (its cost measured) MEASURED_CHUNK_ROWS each.
 */
export function chunksOfPull(rows: number): number {
  if (rows <= 0) return 0;
  if (rows <= FIRST_PULL_CHUNK_ROWS) return 1;
  return 1 + Math.ceil((rows - FIRST_PULL_CHUNK_ROWS) / MEASURED_CHUNK_ROWS);
}
/** Kept free after the last write, for the job record and the summary. */
export const SAFETY_MS = 20 * 1000;
/**
 * How far past the work budget a listing may go to finish rather than continue in a new execution,
 * once a probe showed where the table ends and the measured costs of listing and writing the rows
 * left (at 1.3x, SAFETY_MS kept) fit: a continuation costs a restart (about 19 s under `pessimistic`
 * for the 100k pull: the sheet found again, the base read in three parts, the lines read and
 * re-identified), a trigger and a minute's wait for it. Such a run ends at most this much past the
 * 4.5-minute budget as planned, a minute before Apps Script's 6-minute limit.
 */
export const FINISH_GRACE_MS = 30 * 1000;
/** A probe rides only past the next wave's pages (the listing's waves are at most 10 pages of 100). */
const END_PROBE_AHEAD_ROWS = 1000;
/** Before anything was measured: a cautious cost of merging and writing one row. */
export const FIRST_GUESS_MS_PER_ROW = 10;
/** A chunk smaller than this says too little about the cost of a row to replace the estimate. */
const MEASURED_CHUNK_MIN_ROWS = 100;
/** The least cost per row an estimate assumes, however fast a chunk went. */
const MIN_MS_PER_ROW = 0.05;

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
  unmeasured: { scriptMs: number; count: number; wholeLines: boolean } | null;
  /** Offset of the probe read riding in the page waves (undefined: none). */
  probeAt: number | undefined;
  /** The table's footprint as its layout says (set when the schema arrived). */
  footprint: TableFootprint | undefined;
  /** The footprint as the spreadsheet really has it (asked once, near the cell limit). */
  exact: TableFootprint | undefined;
  /** Offset of the last probe answered. */
  probedAt: number | undefined;
  /** The table holds at most this many rows: a probe found none at this offset. */
  endsBy: number | undefined;
  /** The table holds at least this many rows: a probe found rows up to here. */
  holdsAtLeast: number;
  /** Time spent listing in this execution (page waves and their pages' handling, not chunk writes). */
  listedMs: number;
  /** Rows delivered in this execution. */
  listedRows: number;
  /** Listing past the budget's stop to finish (FINISH_GRACE_MS): the listing's deadline extends by it. */
  finishing: boolean;
  /**
   * Whether the last chunk measured wrote about whole lines: its cost per row is then what no later
   * row costs more than, the only estimate a finish past the budget is planned on.
   */
  wholeLinesMeasured: boolean;
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
  reading: SheetReadOptions,
): PullRun {
  const known = Math.max(baseRows, (lastRow ?? 0) - 1);
  const firstPull = !resuming && baseRows === 0;
  const chunkRows = firstPull
    ? FIRST_PULL_CHUNK_ROWS
    : known <= Math.min(reading.eagerUpTo, ONE_CHUNK_MAX_LINES)
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
    probedAt: undefined,
    endsBy: undefined,
    holdsAtLeast: 0,
    listedMs: 0,
    listedRows: 0,
    finishing: false,
    wholeLinesMeasured: false,
  };
}

/** The schema arrived and the layout is known: the table is checked at its known size, probes re-aimed. */
export function schemaArrived(run: PullRun, sheetWidth: number): void {
  run.footprint = { sheetColumns: sheetWidth, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 };
  assertTableFits(run.known, run.footprint, { atLeast: true });
  if (!run.resuming) run.probeAt = largestTableRows(run.footprint);
}

/** A page arrived at `offset`: its rows wait for the next chunk. Returns whether they fill a chunk. */
export function receivePage(
  run: PullRun,
  page: ReadonlyArray<Readonly<Record<string, unknown>>>,
  offset: number,
): boolean {
  run.pagesFetched += 1;
  run.listedRows += page.length;
  run.deliveredTo = offset + page.length;
  for (const row of page) run.rows.push(row);
  return chunkFull(run);
}

/** Whether the rows gathered fill a chunk (the memory bound: no more rows are held unmerged). */
export function chunkFull(run: PullRun): boolean {
  return run.rows.length >= run.chunkRows;
}

/**
 * Whether the rows gathered are merged and written before the next page wave, with `msLeft` of the
 * execution left: the chunk is full, or writing it and two more waves would no longer fit (one wave
 * more than the stop check keeps). Written while the stop check still lets the listing go on, the
 * chunk is measured before that check decides on its cautious estimate: a pull whose time runs short
 * writes what it has, learns what a row costs, and lists on or stops on that.
 */
export function chunkDue(run: PullRun, msLeft: number): boolean {
  if (chunkFull(run)) return true;
  // Finishing: the rows are written at the end, within the grace the finish was planned in.
  const left = msLeft + (run.finishing ? FINISH_GRACE_MS : 0);
  return run.rows.length > 0 && left < timeToWrite(run, run.rows.length + 2 * WAVE_ROWS);
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

/**
 * A probe read found `count` rows at `offset`: throws if the table cannot fit; none found says where
 * the table ends (at most `offset` rows).
 */
export function probeFound(run: PullRun, offset: number, count: number): void {
  run.probedAt = offset;
  if (count > 0) {
    assertTableFits(offset + count, run.footprint ?? SMALLEST_FOOTPRINT, { atLeast: true });
    run.holdsAtLeast = Math.max(run.holdsAtLeast, offset + count);
  } else run.endsBy = Math.min(run.endsBy ?? offset, offset);
}

/** Rows left to list when a probe showed where the table ends (undefined: unknown, or rows were added). */
function rowsLeft(run: PullRun): number | undefined {
  if (run.endsBy === undefined || run.endsBy < run.deliveredTo) return undefined;
  return run.endsBy - run.deliveredTo;
}

/** Time to list `rows` more rows at the measured cost of listing, with the stop check's margin. */
function timeToList(run: PullRun, rows: number): number {
  return run.listedRows > 0 ? rows * (run.listedMs / run.listedRows) * 1.3 : Number.POSITIVE_INFINITY;
}

/**
 * Rows the listing could still bring and write if it finished in this execution: listed and written
 * at their measured costs with the margin, the rows gathered written too, within the grace past the
 * budget.
 */
function finishReach(run: PullRun, msLeft: number): number {
  const perRow =
    1.3 * (run.msPerRow + (run.listedRows > 0 ? run.listedMs / run.listedRows : Number.POSITIVE_INFINITY));
  return Math.floor((msLeft + FINISH_GRACE_MS - timeToWrite(run, run.rows.length)) / perRow);
}

/**
 * Once the stop check may stop the listing within two waves, a probe rides in the next wave as far
 * past the rows delivered as the listing could still finish (finishReach): none found there says the
 * table ends within reach, and the listing finishes in this execution (shouldStopListing). Rows found
 * there, it stops as before. One probe (a page's place in one or two waves); a probe not answered yet
 * and still ahead of the listing (the too-large check's) keeps its place.
 */
export function aimEndProbe(run: PullRun, msLeft: number): void {
  // Nothing is aimed before a chunk of whole lines is measured (at the first guess the stop looks
  // near from the first waves, and no finish is planned on rows measured cheap).
  if (!run.wholeLinesMeasured) return;
  const ahead = run.deliveredTo + END_PROBE_AHEAD_ROWS;
  if (run.probeAt !== undefined && run.probeAt !== run.probedAt && run.probeAt >= ahead) return;
  const stopNear = timeToWrite(run, run.rows.length + 3 * WAVE_ROWS) + timeToList(run, 2 * WAVE_ROWS);
  if (msLeft >= stopNear) return;
  const target = run.deliveredTo + finishReach(run, msLeft);
  if (target < ahead || run.holdsAtLeast >= target) return;
  if (run.endsBy !== undefined && run.endsBy <= target) return;
  run.probeAt = target;
}

/** A page wave and its pages' handling took `ms`: the listing's measured cost per row. */
export function waveListed(run: PullRun, ms: number): void {
  run.listedMs += ms;
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
  assertTableFits(rows, run.exact ?? run.footprint, { atLeast: !run.listingDone, linesWritten });
}

/** The rows of the chunk about to be merged; the run waits for new ones after this. */
export function takeChunk(run: PullRun): Array<Readonly<Record<string, unknown>>> {
  const rows = run.rows;
  run.rows = [];
  return rows;
}

/**
 * A chunk of `count` rows was merged and its writes queued from `started` to `finished` (ms): measured
 * when its queued writes are committed (chunkMeasured). `cellsWritten` of a sheet `width` columns wide
 * says whether it wrote about whole lines (rows added, or changed in most columns): only such a
 * chunk's cost is what any later row may cost.
 */
export function chunkWritten(
  run: PullRun,
  started: number,
  count: number,
  cellsWritten: number,
  width: number,
  finished: number,
): void {
  run.unmeasured = { scriptMs: finished - started, count, wholeLines: cellsWritten * 2 >= count * width };
}

/**
 * The spreadsheet committed the last chunk's queued writes in `commitMs` (ms): with the time the run
 * spent merging and queuing them, the cost per row of that chunk replaces the estimate when the chunk
 * was large enough to say. Later chunks may be larger only when it wrote about whole lines: a chunk of
 * rows unchanged (or changed in a column or two) costs little, and a chunk four times larger of rows
 * all changed would cost far more than its estimate, past the time the stop check keeps (killed at
 * the 6-minute limit).
 */
export function chunkMeasured(run: PullRun, commitMs: number): void {
  const chunk = run.unmeasured;
  if (!chunk) return;
  if (chunk.count >= MEASURED_CHUNK_MIN_ROWS) {
    run.msPerRow = Math.max(MIN_MS_PER_ROW, (chunk.scriptMs + commitMs) / chunk.count);
    run.chunkRows = chunk.wholeLines
      ? Math.max(run.chunkRows, MEASURED_CHUNK_ROWS)
      : Math.min(run.chunkRows, PULL_CHUNK_ROWS);
    run.wholeLinesMeasured = chunk.wholeLines;
  }
  run.unmeasured = null;
}

/**
 * What the last chunk's queued writes may still cost (ms): Apps Script commits them at the next call
 * that waits for the spreadsheet, so the clock has not counted them yet. Estimated as the whole
 * chunk at the estimated cost, with the stop check's margin; 0 once measured.
 */
export function pendingWriteMs(run: PullRun): number {
  return run.unmeasured ? run.unmeasured.count * run.msPerRow * 1.3 : 0;
}

/** Time to merge and write `rows` rows at the estimated cost, with the safety margin kept free. */
export function timeToWrite(run: PullRun, rows: number): number {
  return rows * run.msPerRow * 1.3 + SAFETY_MS;
}

/**
 * Whether the listing stops before the next wave, to continue in the next execution: the rows waiting
 * and one more wave could not be written in the time left, and the listing cannot finish instead
 * (a probe showed the table's end near, and listing and writing the rest fit FINISH_GRACE_MS past
 * the budget: `finishing`, which lets the listing's deadline go on by that grace).
 */
export function shouldStopListing(run: PullRun, msLeft: number): boolean {
  if (msLeft >= timeToWrite(run, run.rows.length + WAVE_ROWS)) {
    run.finishing = false;
    return false;
  }
  // Where the table ends is known and near: listing and writing the rest, at their measured costs
  // with the margin, fits the grace past the budget. Only on a cost measured on whole lines: rows
  // measured cheap (unchanged) say nothing of rows all changed, which could reach the 6-minute limit.
  const left = rowsLeft(run);
  run.finishing =
    run.wholeLinesMeasured &&
    left !== undefined &&
    msLeft + FINISH_GRACE_MS >= timeToWrite(run, run.rows.length + left) + timeToList(run, left);
  return !run.finishing;
}

/** Whether reading rows to confirm their removal stops: the writes left must still fit the time. */
export function shouldStopConfirming(run: PullRun, lines: number, msLeft: number): boolean {
  return msLeft < timeToWrite(run, lines + WAVE_ROWS);
}

/**
 * The footprint as the spreadsheet really has it: grid widths, the cells of the other sheets, and the
 * blank rows and columns past the linked and base sheets' content, which stay as they grow (beyond
 * the spare rows every estimate counts). A base not made yet is a new sheet's grid.
 */
export function workbookFootprint(sheetWidth: number, sheets: Iterable<SheetShape>): TableFootprint {
  const footprint: TableFootprint = {
    sheetColumns: sheetWidth,
    baseColumns: NEW_SHEET_COLUMNS,
    otherCells: 0,
  };
  const beyondSpare = (blankRows: number): number => Math.max(0, blankRows - GROWTH_SPARE_ROWS);
  let baseFound = false;
  for (const sheet of sheets) {
    if (sheet.role === 'linked') {
      footprint.sheetColumns = Math.max(sheetWidth + (sheet.blankColumns ?? 0), sheet.columns);
      footprint.otherCells += beyondSpare(sheet.blankRows ?? 0) * footprint.sheetColumns;
    } else if (sheet.role === 'base') {
      baseFound = true;
      footprint.baseColumns = sheet.columns;
      footprint.otherCells += beyondSpare(sheet.blankRows ?? 0) * sheet.columns;
    } else footprint.otherCells += sheet.rows * sheet.columns;
  }
  // Made with the first write: its rows grow after its header row, below which its blank rows stay.
  if (!baseFound) footprint.otherCells += beyondSpare(NEW_SHEET_ROWS - 1) * NEW_SHEET_COLUMNS;
  return footprint;
}
