// A pull, start to end: the table's schema and rows into the linked sheet, three-way, in chunks,
// resumable. This is the sequence; every decision is a step of the pull's phase modules beside it
// (start, chunks, apply-rows, removed-rows, finish), every read and write a port call
// (../ports.ts), so it runs the same over Apps Script and over memory.

import type { BaseTable } from '../../base-table';
import { knownDeletedColumnIds, liveColumns } from '../../columns';
import { asSyncError, SyncError } from '../../errors';
import { readLayout } from '../../layout';
import { emailLookup } from '../../members';
import type { LinkRecord } from '../../records';
import { assertIdColumn } from '../issues';
import { personsColumnsUnderServiceIds, recordPersonsColumns, setAsidePersonsColumns } from '../own-columns';
import type { LinkedSheetPort, Listing, ServiceTable, SheetReadOptions, SyncPorts } from '../ports';
import { applyServiceRows } from './apply-rows';
import {
  aimEndProbe,
  assertChunkFits,
  chunkDue,
  chunkMeasured,
  chunkPending,
  chunkWritten,
  FINISH_GRACE_MS,
  fetchProgress,
  needsExactFootprint,
  pendingWriteMs,
  type PullRun,
  probeFound,
  receivePage,
  schemaArrived,
  shouldStopConfirming,
  shouldStopListing,
  startRun,
  takeChunk,
  waveListed,
  workbookFootprint,
} from './chunks';
import { putBackEditedIds } from './edited-ids';
import { type PullHandoff, usableHandoff } from './handoff';
import { deletedColumnIdsAfter, finishedResult, type PullResult, unfinishedResult } from './finish';
import { echoAfterPull, PollWindow, schemaDigestOf } from './live-check';
import { findPendingCreates } from './pending-creates';
import { owedColumnBack, recordOwedColumns, settleOwed } from './owed';
import {
  cursorAfter,
  listingOptionsOf,
  newestLMod,
  POLL_OVERLAP_MS,
  pollRowsAtMost,
  pollSinceFor,
} from './poll';
import type { PullState } from './pull-state';
import { MAX_REMOVED_CHECKS, rowsToConfirmRemoved, settleRemovedRows, stillOnService } from './removed-rows';
import {
  asksLastRowAtSchema,
  displayWithEmails,
  freshColumnsOf,
  headersAtLeast,
  type PreparedPull,
  type PullProgress,
  pullStateOf,
  readingFor,
  recordFreshColumns,
  renamedSyncedColumns,
  showsMemberEmails,
  startProgress,
} from './start';
import { settleUnpolledLines } from './unpolled-lines';
import { settleUnwrittenRows } from './unwritten';

/** One pull's ports and what it has read so far. */
interface Pull {
  ports: SyncPorts;
  link: LinkRecord;
  sheet: LinkedSheetPort;
  progress: PullProgress;
  run: PullRun;
  /** The largest lMod among the rows this execution received (ms; -Infinity before any). */
  newest: number;
  /** Whether the rows came from the poll (changed since the cursor) rather than the whole listing. */
  polled: boolean;
  /** The rows received near the newest lMod: what the next poll names again while nothing changes. */
  window: PollWindow;
  /** The schema's digest as this run read it. */
  schemaDigest?: string;
  /**
   * Set when the sheet has the header of a column whose changes an earlier pull could not write back:
   * only a whole listing brings them (the poll may not name their rows again).
   */
  owedBack?: boolean;
}

/** How a pull reads the table. */
export interface PullOptions {
  /** "Pull everything": list the whole table, never only what changed. */
  everything?: boolean;
  /** A sync's push's poll, lines and base: taken instead of reading them again where usableHandoff says. */
  handoff?: PullHandoff;
}

/**
 * Pulls the linked table into its sheet. Pages are fetched in parallel waves and merged every chunk
 * of rows. A fresh pull of a sheet of up to EAGER_READ_MAX_LINES lines reads it and its base whole;
 * otherwise only the id and status columns are read up front, whole lines only when a chunk needs
 * them, so a continuation does not re-read the sheet. The run stops between waves when the measured
 * cost of writing what is pending would not fit the time left, and returns the offset to resume from.
 * A failed or empty listing never clears anything: lines only change by row id.
 */
export function runPull(
  ports: SyncPorts,
  link: LinkRecord,
  resume?: PullProgress,
  options: PullOptions = {},
): PullResult {
  ports.run.report({ phase: 'reading the table schema' });
  const sheet = ports.openSheet();
  const reading = readingFor(resume);
  // A continuation lists the whole table (it resumes an offset of the listing); a fresh pull reads
  // only what changed where the link has a cursor and the service a poll (pull/poll.ts).
  const since = resume ? undefined : pollSinceFor(link, ports.run.now(), options.everything === true);
  const handoff = usableHandoff(options.handoff, since, ports.run.waitsSoFar());
  // The base and the sheet's size need no schema: read first, they plan the first page wave.
  const base = handoff ? handoff.base : ports.base.read(reading);
  // Only a continuing pull asks its size before the schema wait: its lazy reads are planned by it.
  const lastRow = resume ? sheet.lastRow() : undefined;
  const lastRowAtWait = ports.run.waitsSoFar();
  const progress = startProgress(resume, () => `p${ports.run.uniqueId()}`);
  const run = startRun(progress, !!resume, base.size, lastRow, reading);
  const pull: Pull = {
    ports,
    link,
    sheet,
    progress,
    run,
    newest: Number.NEGATIVE_INFINITY,
    polled: false,
    window: new PollWindow(),
  };
  // Set up when the schema arrives, with the first page wave.
  let prepared: PreparedPull | undefined;
  // A fresh pull reads the sheet right before its first write: read at the schema, the lines would be
  // re-identified there after the waves that follow (more waits, and the written cells read back). A
  // continuation reads lazily at the schema, by the size it asked before.
  const readsAtFirstWrite = !resume && !handoff;
  let schema: ServiceTable | undefined;
  const prepareNow = (): PreparedPull | undefined => {
    if (prepared || !schema) return prepared;
    const table = schema;
    // The size read before a wait is stale (lines inserted meanwhile would not be read, and their rows
    // appended again): the lines are then read with the sheet's size as it is now.
    const sizeNow =
      ports.run.waitsSoFar() === lastRowAtWait
        ? lastRow
        : asksLastRowAtSchema(base.size, !!resume)
          ? sheet.lastRow()
          : undefined;
    // The base's size says how many lines to expect: a sheet of them is read whole in one call.
    const expected = base.size > 0 ? { ...reading, expectedLines: base.size } : reading;
    prepared = preparePull(pull, table, base, sizeNow, expected, handoff);
    schemaArrived(run, prepared.state.layout.width);
    return prepared;
  };
  const setUp = (table: ServiceTable): void => {
    schema = table;
    pull.schemaDigest = schemaDigestOf(table);
    // Until the sheet is read, the table's own columns size the checks (the sheet has at least those).
    if (readsAtFirstWrite) schemaArrived(run, headersAtLeast(liveColumns(table.columns), link.fixedFields));
    else prepareNow();
    ports.run.report({ phase: 'fetching rows' });
  };
  const flushChunk = (): void => {
    if (!run.rows.length && !prepared) return;
    const ready = prepareNow();
    if (ready) writeChunk(pull, ready.state);
  };
  const onPage = (page: ReadonlyArray<Readonly<Record<string, unknown>>>, offset: number): void => {
    pull.newest = newestLMod(pull.newest, page);
    pull.window.add(page);
    // A chunk due is written before the next wave (shouldStop): after the last one, the end writes it.
    receivePage(run, page, offset);
    ports.run.report(fetchProgress(run));
  };
  // When the wave now arriving was asked for: what listing costs a row is measured, not guessed.
  let waveAskedAt = ports.run.now();
  const shouldStop = (): boolean => {
    waveListed(run, ports.run.now() - waveAskedAt);
    const stop = decideStop();
    if (!stop) aimEndProbe(run, ports.run.timeLeft() - pendingWriteMs(run));
    waveAskedAt = ports.run.now();
    return stop;
  };
  const decideStop = (): boolean => {
    // The last chunk's queued writes count at their estimate (the clock has not counted them yet).
    const left = (): number => ports.run.timeLeft() - pendingWriteMs(run);
    // A chunk due while the last one is unmeasured: measured first, its cost may let this one grow
    // (or, time being short, go on gathering).
    if (chunkDue(run, left()) && (!run.unmeasured || measureChunk(pull, left))) flushChunk();
    // Committed and measured (a waiting call) only where that estimate would stop the listing, so the
    // stop is decided on what they cost.
    if (run.unmeasured && shouldStopListing(run, left())) measureChunk(pull, left);
    return shouldStopListing(run, left());
  };
  let listing: { done: boolean; nextOffset: number; rowCount: number; rateLimitedMs?: number } | undefined;
  try {
    if (since !== undefined) {
      // Columns this pull adds (back) take the service's value on every line: only a whole listing has them.
      const addsColumns = (): boolean => (prepareNow()?.state.freshColumns?.size ?? 0) > 0;
      listing = handoff
        ? takeHandoffPoll(pull, handoff, setUp, onPage, addsColumns)
        : pollChanges(pull, since, setUp, onPage, shouldStop, addsColumns);
    }
    if (listing === undefined) {
      // Rows a poll delivered before it gave way are merged first: the listing brings them again.
      if (since !== undefined) flushChunk();
      pull.window = new PollWindow();
      const full = {
        startOffset: progress.nextOffset,
        // The last pull's row count plans the page waves without overshoot; unknown on a first pull.
        ...(run.known > 0 ? { expectedTotal: run.known } : {}),
        onPage,
        shouldStop,
        // A listing finishing its table goes on past the budget by the grace it was planned in.
        deadline: () => ports.run.timeLeft() + (run.finishing ? FINISH_GRACE_MS : 0),
        probe: {
          at: () => run.probeAt,
          found: (offset: number, count: number) => probeFound(run, offset, count),
        },
      };
      // The schema may have come with a poll found missing: it is not read again.
      listing = schema
        ? ports.service.listAllRows(link.tableAppId, link.tableId, full)
        : ports.service.listTableAndRows(link.tableAppId, link.tableId, setUp, full);
      run.listingDone = listing.done;
    }
  } catch (error) {
    const failure = asSyncError(error);
    if (failure.code !== 'QUOTA' || !schema) throw error;
    // Keep what arrived: the next run resumes after the last page written (a poll's offsets are not
    // the listing's: it lists from the start).
    flushChunk();
    ports.base.writeSeen(base);
    progress.nextOffset = pull.polled ? 0 : run.deliveredTo;
    return unfinishedResult(prepareNow() as PreparedPull, progress, failure);
  }
  prepared = prepareNow();
  if (!prepared) throw new SyncError('INTERNAL', 'The table was not read.');
  flushChunk();
  // A poll that did not finish is taken up by a whole listing from the start.
  progress.nextOffset = pull.polled ? 0 : listing.nextOffset;
  if (!listing.done) {
    ports.base.writeSeen(base);
    return unfinishedResult(prepared, progress, undefined, listing.rateLimitedMs);
  }
  // The poll reports no deletions: only a whole listing marks rows removed on the service.
  if (pull.polled) {
    // The rows it did not bring are unchanged on the service since the cursor: their lines are
    // counted and worded as a whole listing would (local edits kept, or unchanged).
    settleUnpolledLines(prepared.state);
    return finishPull(pull, prepared, !!resume);
  }
  const stillThere = confirmRemoved(pull, rowsToConfirmRemoved(prepared.state, listing));
  // After the last wait (the listing's or the reads by id): marking loads the lines it marks.
  sheet.relocateBeforeLoading(prepared.state.grid, prepared.state.layout);
  settleRemovedRows(prepared.state, listing, stillThere);
  return finishPull(pull, prepared, !!resume);
}

/**
 * Reads the rows changed since `since` with the schema, into the pull's chunks. Undefined when the
 * whole table is to be listed instead: the poll is missing (the schema read with it, if any, was set
 * up), the pull adds columns (every line takes their values), or more rows changed than a poll takes
 * (pollRowsAtMost) while time is left (the listing that follows merges them again, unchanged). A poll
 * stopped by time is the pull's unfinished listing.
 */
function pollChanges(
  pull: Pull,
  since: string,
  setUp: (table: ServiceTable) => void,
  onPage: (page: ReadonlyArray<Readonly<Record<string, unknown>>>, offset: number) => void,
  shouldStop: () => boolean,
  needsWholeListing: () => boolean,
): { done: boolean; nextOffset: number; rowCount: number } | undefined {
  const { ports, link, run } = pull;
  pull.polled = true;
  let tooMany = false;
  const outcome = ports.service.tableAndRowsChangedSince(link.tableAppId, link.tableId, since, setUp, {
    onPage,
    shouldStop: () => {
      tooMany = run.deliveredTo >= pollRowsAtMost(run.known);
      return tooMany || shouldStop();
    },
  });
  const listsWhole = needsWholeListing() || pull.owedBack === true;
  if (outcome.supported && !listsWhole && (outcome.listing.done || !tooMany)) return outcome.listing;
  pull.polled = false;
  if (!outcome.supported && outcome.table) setUp(outcome.table);
  run.deliveredTo = 0;
  return undefined;
}

/**
 * The poll a sync's push read with the schema, delivered as pollChanges delivers its own (no request):
 * undefined, as there, when the pull adds columns and lists the whole table instead.
 */
function takeHandoffPoll(
  pull: Pull,
  handoff: PullHandoff,
  setUp: (table: ServiceTable) => void,
  onPage: (page: ReadonlyArray<Readonly<Record<string, unknown>>>, offset: number) => void,
  needsWholeListing: () => boolean,
): Listing | undefined {
  pull.polled = true;
  setUp(handoff.table);
  for (const page of handoff.pages) onPage(page.rows, page.offset);
  if (!needsWholeListing() && !pull.owedBack) return handoff.listing;
  pull.polled = false;
  pull.run.deliveredTo = 0;
  return undefined;
}

/** Reads the lines, completes the header row and builds the merge state, once the schema is known. */
function preparePull(
  pull: Pull,
  table: ServiceTable,
  base: BaseTable,
  lastRow: number | undefined,
  reading: SheetReadOptions,
  handoff: PullHandoff | undefined,
): PreparedPull {
  const { ports, link, sheet, progress } = pull;
  const live = liveColumns(table.columns);
  const deletedIds = knownDeletedColumnIds(link, table.columns, live, base.columnIds);
  const layoutOf = (headerRow: unknown[]) => readLayout(headerRow, live, deletedIds);
  // The push's lines as it left them: nobody can have changed the sheet since (usableHandoff).
  const { headers, grid } = handoff
    ? { headers: handoff.headers, grid: handoff.grid }
    : sheet.readLinesForPull(layoutOf, reading, lastRow);
  const before = readLayout(headers, live, deletedIds);
  assertIdColumn(before, grid.length, base.size);
  const renamed = renamedSyncedColumns(before, live, base, grid);
  const recorded = [...(progress.freshColumns ?? []), ...(link.freshColumns ?? [])];
  const personsColumns = personsColumnsUnderServiceIds({
    layout: before,
    live,
    syncedBefore: [...base.columnIds],
    fresh: recorded,
    recorded: link.ownColumns ?? [],
    grid,
  });
  recordPersonsColumns(ports.links, link, personsColumns);
  setAsidePersonsColumns(before, personsColumns);
  const keepOut = new Set([...renamed.keys(), ...personsColumns]);
  const columns = freshColumnsOf(before, live, link.fixedFields, keepOut, recorded);
  const fresh = recordFreshColumns(ports.links, link, columns);
  progress.listedWith ??= listingOptionsOf(link);
  pull.owedBack = owedColumnBack(link, before);
  const layout = sheet.completeHeaders({
    layout: before,
    grid,
    live,
    deletedIds,
    fixedFields: link.fixedFields,
    keepOut,
  });
  if (fresh.size > 0) progress.freshColumns = [...fresh];
  // A date a person typed into a number column: the cell gets its number format back (issue 15).
  sheet.restoreNumberFormats(grid, layout, live);
  base.ensureColumns(live.map((column) => column.id));
  const decode = sheet.decodeContext();
  const state = pullStateOf({ grid, layout, live, base, progress, decode, fresh });
  putBackEditedIds(state);
  const pending = findPendingCreates(state, ports.run.userId);
  if (pending) state.pending = pending;
  if (showsMemberEmails(link.showEmails, layout)) {
    // One members lookup per run, never a call per row.
    state.displayFixed = displayWithEmails(emailLookup(ports.service.allPeople()));
  }
  return { state, deletedIds, renamed, personsColumns };
}

/** Merges the rows gathered so far and writes the lines and the base, if the table still fits. */
function writeChunk(pull: Pull, state: PullState): void {
  const { ports, sheet, run } = pull;
  if (!chunkPending(run, state.grid.dirtyCount)) return;
  if (needsExactFootprint(run)) run.exact = workbookFootprint(state.layout.width, sheet.workbookShapes());
  assertChunkFits(run, ports.run.progress().linesWritten);
  const started = ports.run.now();
  const rows = takeChunk(run);
  sheet.relocateBeforeLoading(state.grid, state.layout);
  const before = applyServiceRows(state, rows);
  const cells = state.grid.dirtyCount * state.grid.dirtyColumnCount;
  const written = sheet.writeLines(state.grid, state.layout, state.live, 'synced');
  // Rows whose line was not written keep their base; cells typed into meanwhile are merged again.
  if (settleUnwrittenRows(state, rows, before))
    sheet.writeLines(state.grid, state.layout, state.live, 'synced');
  ports.base.write(state.base);
  recordOwedColumns(ports.links, pull.link, pull.progress, state);
  chunkWritten(run, started, rows.length, cells, state.layout.width, ports.run.now());
  ports.run.report({ phase: 'writing lines', linesWritten: ports.run.progress().linesWritten + written });
}

/**
 * Commits the queued writes so the last chunk's cost is measured, not guessed. Returns whether a chunk
 * is still due (the measured cost may let the chunk gathering now grow, or its time suffice).
 */
function measureChunk(pull: Pull, msLeft: () => number): boolean {
  const { run, ports, sheet } = pull;
  if (run.unmeasured) {
    const before = ports.run.now();
    sheet.commitWrites();
    chunkMeasured(run, ports.run.now() - before);
  }
  return chunkDue(run, msLeft());
}

/**
 * Reads each row the listing did not show (one request each, in parallel waves, while the writes left
 * fit the time, at most MAX_REMOVED_CHECKS): the rows not found are gone; the others a shifting
 * listing may have skipped.
 */
function confirmRemoved(pull: Pull, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const { ports, link, run } = pull;
  ports.run.report({ phase: 'checking rows gone from the listing' });
  const asked = ids.slice(0, MAX_REMOVED_CHECKS);
  const answers = ports.service.rowsByIds(link.tableAppId, link.tableId, asked, {
    shouldStop: () => shouldStopConfirming(run, ids.length, ports.run.timeLeft()),
  });
  return stillOnService(ids, answers);
}

/** After a complete listing: marks removed rows, writes the rest, and records the link as synced. */
function finishPull(pull: Pull, prepared: PreparedPull, resumed: boolean): PullResult {
  const { ports, link, sheet, progress, polled } = pull;
  const { state, deletedIds } = prepared;
  sheet.writeLines(state.grid, state.layout, state.live, 'synced');
  ports.base.write(state.base);
  // Every added column is filled now; after a poll only the lines it brought are: the columns stay
  // recorded, and the next pull lists the whole table to fill them.
  const keepFresh = polled && (state.freshColumns?.size ?? 0) > 0;
  if (!keepFresh) delete link.freshColumns;
  const deleted = deletedColumnIdsAfter(link.deletedColumnIds, deletedIds);
  if (deleted) link.deletedColumnIds = deleted;
  link.lastSyncAt = new Date(ports.run.now()).toISOString();
  const cursor = cursorAfter(link.pollCursor, pull.newest, resumed);
  if (cursor) link.pollCursor = cursor;
  if (!polled) link.fullListingAt = link.lastSyncAt;
  const listed = polled ? undefined : { present: new Set(state.layout.columns.keys()) };
  const live = new Set(state.live.map((column) => column.id));
  settleOwed(link, progress, live, listed);
  // A pull that went on over executions saw only this execution's rows: the next check pulls again.
  const echo = resumed
    ? undefined
    : echoAfterPull(
        pull.window,
        cursor && new Date(Date.parse(cursor) - POLL_OVERLAP_MS).toISOString(),
        state.base,
      );
  const schemaDigest = pull.schemaDigest;
  const lastSyncAt = link.lastSyncAt;
  // Only the pull's own fields: options, a schedule or an unlink made while it ran stand.
  ports.links.update((stored) => {
    if (!keepFresh) delete stored.freshColumns;
    stored.deletedColumnIds = link.deletedColumnIds;
    stored.lastSyncAt = link.lastSyncAt;
    if (cursor) stored.pollCursor = cursor;
    if (!polled) stored.fullListingAt = link.fullListingAt as string;
    settleOwed(stored, progress, live, listed);
    if (echo) stored.pollEcho = echo;
    else delete stored.pollEcho;
    if (schemaDigest) {
      stored.schemaDigest = schemaDigest;
      stored.schemaReadAt = lastSyncAt;
    }
  });
  return finishedResult(prepared, progress);
}
