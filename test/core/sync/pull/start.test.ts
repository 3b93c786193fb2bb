// The pull session's steps over plain data: reading plan, pacing, size checks, layout preparation,
// pending creates, removed rows and the run's result.
import { describe, expect, it } from 'vitest';
import { BaseTable } from '../../../../src/core/base-table';
import {
  largestTableRows,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  SMALLEST_FOOTPRINT,
} from '../../../../src/core/capacity';
import { cellDigest, valueDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import { SyncError } from '../../../../src/core/errors';
import { readLayout } from '../../../../src/core/layout';
import { LineGrid } from '../../../../src/core/line-grid';
import { conflictStatus, pendingStatus, STATUS } from '../../../../src/core/status';
import {
  aimEndProbe,
  assertChunkFits,
  chunkMeasured,
  pendingWriteMs,
  chunkPending,
  chunkDue,
  chunksOfPull,
  chunkWritten,
  FINISH_GRACE_MS,
  FIRST_GUESS_MS_PER_ROW,
  FIRST_PULL_CHUNK_ROWS,
  fetchProgress,
  MEASURED_CHUNK_ROWS,
  needsExactFootprint,
  PULL_CHUNK_ROWS,
  probeFound,
  receivePage,
  SAFETY_MS,
  schemaArrived,
  shouldStopConfirming,
  shouldStopListing,
  startRun,
  takeChunk,
  timeToWrite,
  WAVE_ROWS,
  workbookFootprint,
} from '../../../../src/core/sync/pull/chunks';
import { putBackEditedIds } from '../../../../src/core/sync/pull/edited-ids';
import {
  deletedColumnIdsAfter,
  finishedResult,
  pullSummaryFields,
  unfinishedResult,
} from '../../../../src/core/sync/pull/finish';
import { findPendingCreates } from '../../../../src/core/sync/pull/pending-creates';
import { emptyPullCounts } from '../../../../src/core/sync/pull/pull-state';
import {
  rowsToConfirmRemoved,
  settleRemovedRows,
  stillOnService,
} from '../../../../src/core/sync/pull/removed-rows';
import {
  asksLastRowAtSchema,
  displayWithEmails,
  EAGER_READ_MAX_LINES,
  freshColumnsOf,
  type PullProgress,
  pullStateOf,
  readingFor,
  renamedSyncedColumns,
  showsMemberEmails,
  startProgress,
} from '../../../../src/core/sync/pull/start';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'notes', name: 'Notes', type: 'text', kind: 'text', deleted: false },
];
const HEADERS = ['id', 'title', 'notes', 'lMod', '_sync'];
const decode = { formatDate: (date: Date) => date.toISOString() };

function freshProgress(): PullProgress {
  return { pullId: 'p1', nextOffset: 0, counts: emptyPullCounts() };
}

/** A prepared state over these lines (id, title, notes, lMod, status) and base rows (id, title, notes). */
function stateOf(lines: unknown[][], baseRows: Array<[string, string, string]> = []) {
  const grid = new LineGrid(lines, HEADERS.length);
  const base = new BaseTable([], ['title', 'notes']);
  for (const [id, title, notes] of baseRows) {
    base.set({ id, lMod: `lmod-${id}`, digests: { title: cellDigest(title), notes: cellDigest(notes) } });
  }
  const layout = readLayout(HEADERS, live);
  return pullStateOf({ grid, layout, live, base, progress: freshProgress(), decode, fresh: new Set() });
}

function runOf(known: number, resuming = false) {
  return startRun(
    freshProgress(),
    resuming,
    known,
    undefined,
    readingFor(resuming ? freshProgress() : undefined),
  );
}

describe('starting a run', () => {
  it('reads a fresh pull whole up to EAGER_READ_MAX_LINES; a continuation in spans, with seen marks', () => {
    expect(readingFor(undefined)).toEqual({ eagerUpTo: EAGER_READ_MAX_LINES, withSeen: false });
    expect(readingFor(freshProgress())).toEqual({ eagerUpTo: 0, withSeen: true });
  });

  it("asks the sheet's last row right after the schema wait only on a fresh pull with no base", () => {
    expect(asksLastRowAtSchema(0, false)).toBe(true);
    expect(asksLastRowAtSchema(10, false)).toBe(false);
    expect(asksLastRowAtSchema(0, true)).toBe(false);
  });

  it('continues on a copy of the progress it resumes, and starts a fresh one otherwise', () => {
    const resume = { ...freshProgress(), nextOffset: 4000 };
    const progress = startProgress(resume, () => 'unused');
    progress.counts.added += 1;
    expect(progress.nextOffset).toBe(4000);
    expect(resume.counts.added).toBe(0);
    expect(startProgress(undefined, () => 'p-new')).toEqual({
      pullId: 'p-new',
      nextOffset: 0,
      counts: emptyPullCounts(),
    });
  });

  it('writes a small sheet read whole in one chunk, and larger or continuing ones in PULL_CHUNK_ROWS', () => {
    // A first pull (no base): every row a whole new line, trusted to the first guess as far as a sheet read whole.
    expect(runOf(0).chunkRows).toBe(FIRST_PULL_CHUNK_ROWS);
    expect(FIRST_PULL_CHUNK_ROWS).toBe(10_000 + WAVE_ROWS);
    expect(runOf(0, true).chunkRows).toBe(PULL_CHUNK_ROWS);
    expect(runOf(9000).chunkRows).toBe(9000 + WAVE_ROWS);
    expect(runOf(100).chunkRows).toBe(PULL_CHUNK_ROWS);
    expect(runOf(10_001).chunkRows).toBe(PULL_CHUNK_ROWS);
    expect(runOf(9000, true).chunkRows).toBe(PULL_CHUNK_ROWS);
  });

  it('counts the chunks of a first pull: the first of FIRST_PULL_CHUNK_ROWS, then MEASURED_CHUNK_ROWS each', () => {
    expect(chunksOfPull(0)).toBe(0);
    expect(chunksOfPull(10_000)).toBe(1);
    expect(chunksOfPull(FIRST_PULL_CHUNK_ROWS)).toBe(1);
    expect(chunksOfPull(FIRST_PULL_CHUNK_ROWS + 1)).toBe(2);
    expect(chunksOfPull(FIRST_PULL_CHUNK_ROWS + MEASURED_CHUNK_ROWS)).toBe(2);
    expect(chunksOfPull(100_000)).toBe(6);
  });

  it('knows the larger of the base size and the lines below the header', () => {
    const reading = readingFor(undefined);
    expect(startRun(freshProgress(), false, 10, 51, reading).known).toBe(50);
    expect(startRun(freshProgress(), false, 80, 51, reading).known).toBe(80);
    expect(startRun({ ...freshProgress(), nextOffset: 300 }, true, 0, 1, reading).deliveredTo).toBe(300);
  });

  it('probes the first row no table can fit on a fresh pull, and none on a continuation', () => {
    expect(runOf(0).probeAt).toBe(largestTableRows(SMALLEST_FOOTPRINT));
    expect(runOf(0, true).probeAt).toBeUndefined();
  });
});

describe('fetching and writing in chunks', () => {
  const row = (id: string) => ({ id, title: id });

  it('gathers pages until a chunk is due, then hands the chunk over once', () => {
    const run = runOf(20_000);
    const page = Array.from({ length: 1000 }, (_, i) => row(`r${i}`));
    for (let wave = 0; wave < 4; wave++) expect(receivePage(run, page, wave * 1000)).toBe(false);
    expect(receivePage(run, page, 4000)).toBe(true);
    expect(fetchProgress(run)).toEqual({ pagesFetched: 5, rowsFetched: 5000, rowsExpected: 20_000 });
    expect(takeChunk(run)).toHaveLength(5000);
    expect(run.rows).toEqual([]);
    expect(chunkPending(run, 0)).toBe(false);
    expect(chunkPending(run, 3)).toBe(true);
  });

  it('expects no total on a first pull, and at least what was delivered otherwise', () => {
    const first = runOf(0);
    receivePage(first, [row('a')], 0);
    expect(fetchProgress(first).rowsExpected).toBeNull();
    const known = runOf(2);
    receivePage(known, [row('a'), row('b'), row('c')], 0);
    expect(fetchProgress(known).rowsExpected).toBe(3);
  });

  it('refuses a known size that cannot fit when the schema arrives, and re-aims the probe at its width', () => {
    const run = runOf(100);
    schemaArrived(run, 40);
    expect(run.footprint).toEqual({ sheetColumns: 40, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 });
    expect(run.probeAt).toBe(largestTableRows(run.footprint as NonNullable<typeof run.footprint>));
    const resumed = runOf(100, true);
    schemaArrived(resumed, 40);
    expect(resumed.probeAt).toBeUndefined();
    expect(() => schemaArrived(runOf(200_000), 40)).toThrow(SyncError);
    expect(() => schemaArrived(runOf(200_000), 40)).toThrow(/at least 200,000 rows/);
  });

  it('asks the real footprint once, past half the cell limit, and checks chunks against it', () => {
    const run = runOf(10);
    expect(needsExactFootprint(run)).toBe(false); // no schema yet
    schemaArrived(run, 10);
    expect(needsExactFootprint(run)).toBe(false);
    run.deliveredTo = 150_000; // 150,101 x 36 cells > 5 million
    expect(needsExactFootprint(run)).toBe(true);
    run.exact = { sheetColumns: 10, baseColumns: NEW_SHEET_COLUMNS, otherCells: 5_000_000 };
    expect(needsExactFootprint(run)).toBe(false);
    expect(() => assertChunkFits(run, 5000)).toThrow(
      /at least 150,000 rows.*The first 5,000 lines were written/,
    );
    run.exact = undefined;
    expect(() => assertChunkFits(run, 5000)).not.toThrow();
  });

  it('says "at least" only while the listing has not reached the end', () => {
    const run = runOf(10);
    schemaArrived(run, 100);
    run.deliveredTo = 90_000;
    run.listingDone = true;
    expect(() => assertChunkFits(run, 0)).toThrow(/it has 90,000 rows.*Nothing was written/);
  });

  it('replaces the first guess by the measured cost of a chunk of at least 100 rows, with a floor', () => {
    const run = runOf(0);
    expect(run.msPerRow).toBe(FIRST_GUESS_MS_PER_ROW);
    chunkWritten(run, 1000, 99, 99 * 10, 10, 1500);
    chunkMeasured(run, 500);
    expect(run.msPerRow).toBe(FIRST_GUESS_MS_PER_ROW);
    expect(run.unmeasured).toBeNull();
    // Too small to say: the chunks stay as they were.
    expect(run.chunkRows).toBe(FIRST_PULL_CHUNK_ROWS);
    // The time spent queuing the writes and the time their commit took, whenever that came.
    chunkWritten(run, 1000, 500, 500 * 10, 10, 1400);
    expect(pendingWriteMs(run)).toBe(500 * FIRST_GUESS_MS_PER_ROW * 1.3);
    chunkMeasured(run, 600);
    expect(pendingWriteMs(run)).toBe(0);
    expect(run.msPerRow).toBe(2);
    // Measured writing whole lines: later chunks gather more rows, bounded by the stop check.
    expect(run.chunkRows).toBe(MEASURED_CHUNK_ROWS);
    // A chunk of rows unchanged (one status cell written each) is cheap: the next chunk of rows all
    // changed could cost four times its estimate, so chunks are small again.
    chunkWritten(run, 1000, 5000, 5000, 10, 1001);
    chunkMeasured(run, 0);
    expect(run.msPerRow).toBe(0.05);
    expect(run.chunkRows).toBe(PULL_CHUNK_ROWS);
    chunkMeasured(run, 99_999); // nothing unmeasured: the estimate stays
    expect(run.msPerRow).toBe(0.05);
  });

  it('makes a chunk due when it is full, or when it and two more waves would no longer be written in time', () => {
    const run = runOf(0);
    run.msPerRow = 2;
    expect(chunkDue(run, 0)).toBe(false); // nothing gathered: nothing to write
    run.rows = Array.from({ length: 1200 }, (_, i) => row(`r${i}`));
    const needed = timeToWrite(run, 1200 + 2 * WAVE_ROWS);
    expect(needed).toBe(2800 * 2 * 1.3 + SAFETY_MS);
    expect(chunkDue(run, needed - 1)).toBe(true);
    expect(chunkDue(run, needed)).toBe(false);
    // Due by time a wave before the stop check would stop the listing: it is measured first.
    expect(shouldStopListing(run, needed - 1)).toBe(false);
    run.rows = Array.from({ length: FIRST_PULL_CHUNK_ROWS }, (_, i) => row(`r${i}`));
    expect(chunkDue(run, Number.POSITIVE_INFINITY)).toBe(true);
  });

  it('finishes past the budget, by the grace at most, only where a probe showed the end within reach', () => {
    const run = runOf(0);
    run.probedAt = run.probeAt; // the too-large check's probe answered
    run.msPerRow = 1;
    run.wholeLinesMeasured = true;
    run.deliveredTo = 50_000;
    run.listedRows = 50_000;
    run.listedMs = 50_000; // 1 ms a row listed
    run.rows = Array.from({ length: 1000 }, (_, i) => row(`r${i}`));
    // Far from the stop: no probe.
    aimEndProbe(run, 10 * 60_000);
    expect(run.probeAt).toBe(run.probedAt);
    // The stop within two waves: a probe as far as the listing could still finish, grace included:
    // (left + grace - the rows gathered written) / (1.3 x (1 ms written + 1 ms listed)).
    const msLeft = timeToWrite(run, 1000 + WAVE_ROWS) - 1;
    const reach = Math.floor((msLeft + FINISH_GRACE_MS - timeToWrite(run, 1000)) / 2.6);
    aimEndProbe(run, msLeft);
    expect(run.probeAt).toBe(50_000 + reach);
    expect(shouldStopListing(run, msLeft)).toBe(true);
    expect(run.finishing).toBe(false);
    // Rows found there: the table goes on past reach, it stops as before.
    probeFound(run, 50_000 + reach, 100);
    expect(run.endsBy).toBeUndefined();
    expect(shouldStopListing(run, msLeft)).toBe(true);
    aimEndProbe(run, msLeft);
    expect(run.probeAt).toBe(50_000 + reach); // not asked again
    // None found: the rest is listed and written within the grace.
    run.holdsAtLeast = 0;
    probeFound(run, 50_000 + reach, 0);
    expect(run.endsBy).toBe(50_000 + reach);
    expect(shouldStopListing(run, msLeft)).toBe(false);
    expect(run.finishing).toBe(true);
    // Finishing, the rows gathered wait for the end unless even the grace would not hold them.
    expect(chunkDue(run, msLeft)).toBe(false);
    // Time gone faster than planned: it stops after all.
    expect(shouldStopListing(run, msLeft - 3000)).toBe(true);
    expect(run.finishing).toBe(false);
    // A cost measured on rows written cheap (a status cell each) plans no finish.
    run.wholeLinesMeasured = false;
    expect(shouldStopListing(run, msLeft)).toBe(true);
    run.wholeLinesMeasured = true;
    // Rows added past the end the probe saw: the end is unknown again.
    run.deliveredTo = 50_000 + reach + 100;
    expect(shouldStopListing(run, msLeft)).toBe(true);
  });

  it('aims no end probe before a chunk of whole lines is measured, nor over a probe not answered yet', () => {
    const run = runOf(0);
    run.listedRows = 1000;
    run.listedMs = 1000;
    const unanswered = run.probeAt as number;
    run.unmeasured = { scriptMs: 100, count: 100, wholeLines: true };
    chunkMeasured(run, 0);
    aimEndProbe(run, 0);
    expect(run.probeAt).toBe(unanswered); // the too-large check's probe keeps its place
    probeFound(run, unanswered, 0);
    const fresh = runOf(0);
    fresh.listedRows = 1000;
    fresh.listedMs = 1000;
    fresh.probedAt = fresh.probeAt;
    aimEndProbe(fresh, 0);
    expect(fresh.probeAt).toBe(fresh.probedAt); // the first guess: nothing measured
    fresh.unmeasured = { scriptMs: 100, count: 100, wholeLines: false };
    chunkMeasured(fresh, 0);
    expect(fresh.msPerRow).toBe(1);
    aimEndProbe(fresh, 0);
    expect(fresh.probeAt).toBe(fresh.probedAt); // measured on rows written cheap
    // Measured on whole lines, the stop near: as far as the listing could still finish.
    aimEndProbe(run, 20_000);
    expect(run.probeAt).toBe(Math.floor((20_000 + FINISH_GRACE_MS - SAFETY_MS) / 2.6));
  });

  it('stops the listing when the waiting rows and one more wave would not be written in time', () => {
    const run = runOf(0);
    run.msPerRow = 2;
    run.rows = Array.from({ length: 1200 }, (_, i) => row(`r${i}`));
    const needed = timeToWrite(run, 1200 + WAVE_ROWS);
    expect(needed).toBe(2000 * 2 * 1.3 + SAFETY_MS);
    expect(shouldStopListing(run, needed - 1)).toBe(true);
    expect(shouldStopListing(run, needed)).toBe(false);
  });
});

describe('preparing the layout', () => {
  it('adds a missing live column to the columns to fill and asks to record it first', () => {
    const before = readLayout(['id', 'title', 'lMod', '_sync'], live);
    expect(freshColumnsOf(before, live, [], new Set(), [])).toEqual({
      fresh: new Set(['notes']),
      recordFirst: true,
    });
    expect(freshColumnsOf(before, live, [], new Set(), ['notes'])).toEqual({
      fresh: new Set(['notes']),
      recordFirst: false,
    });
  });

  it('keeps a renamed column out, and carries columns recorded by an earlier execution', () => {
    const before = readLayout(['id', 'title', 'lMod', '_sync'], live);
    expect(freshColumnsOf(before, live, [], new Set(['notes']), [])).toEqual({
      fresh: new Set(),
      recordFirst: false,
    });
    const complete = readLayout(HEADERS, live);
    expect(freshColumnsOf(complete, live, [], new Set(), ['title'])).toEqual({
      fresh: new Set(['title']),
      recordFirst: false,
    });
  });

  it('recognises a synced column under a new header by its agreed values, and looks only when one is gone', () => {
    const lines = [
      ['r1', 'One', 'first', 'l1', ''],
      ['r2', 'Two', 'second', 'l2', ''],
    ];
    const base = new BaseTable([], ['title', 'notes']);
    base.set({ id: 'r1', lMod: 'l1', digests: { title: cellDigest('One'), notes: cellDigest('first') } });
    base.set({ id: 'r2', lMod: 'l2', digests: { title: cellDigest('Two'), notes: cellDigest('second') } });
    const renamedLayout = readLayout(['id', 'title', 'My notes', 'lMod', '_sync'], live);
    const renamed = renamedSyncedColumns(renamedLayout, live, base, new LineGrid(lines, 5));
    expect([...renamed]).toEqual([['notes', 2]]);
    const intact = readLayout(HEADERS, live);
    expect(renamedSyncedColumns(intact, live, base, new LineGrid(lines, 5)).size).toBe(0);
  });

  it('marks fresh columns on the state only when there are some', () => {
    const grid = new LineGrid([], 5);
    const base = new BaseTable([], []);
    const layout = readLayout(HEADERS, live);
    const parts = { grid, layout, live, base, progress: freshProgress(), decode };
    expect(pullStateOf({ ...parts, fresh: new Set() }).freshColumns).toBeUndefined();
    expect(pullStateOf({ ...parts, fresh: new Set(['notes']) }).freshColumns).toEqual(new Set(['notes']));
  });

  it('puts an edited id back and says so in the status column', () => {
    const state = stateOf([['typo', 'One', 'first', 'lmod-r1', '']], [['r1', 'One', 'first']]);
    expect(putBackEditedIds(state)).toEqual([0]);
    expect(state.grid.get(0, 0)).toBe('r1');
    expect(state.grid.get(0, 4)).toBe(STATUS.idRestored);
  });

  it('shows member ids as e-mails only when asked and a member field is shown', () => {
    expect(showsMemberEmails(true, readLayout([...HEADERS, 'createdBy'], live))).toBe(true);
    expect(showsMemberEmails(false, readLayout([...HEADERS, 'createdBy'], live))).toBe(false);
    expect(showsMemberEmails(true, readLayout(HEADERS, live))).toBe(false);
    const display = displayWithEmails((id) => (id === 'u1' ? 'ann@example.com' : String(id)));
    expect(display('createdBy', 'u1')).toBe('ann@example.com');
    expect(display('lModBy', 'u1')).toBe('ann@example.com');
    expect(display('cOn', 'u1')).toBe('u1');
    expect(display('cOn', null)).toBe('');
  });
});

describe('pending creates', () => {
  const sent = (title: string) => ({ title: valueDigest(title, 'text') });

  it('finds lines marked with a pending token whose record the base holds', () => {
    const state = stateOf([
      ['', 'Draft', '', '', pendingStatus('pending:a1')],
      ['', 'Other', '', '', pendingStatus('pending:gone')],
    ]);
    state.base.set({ id: 'pending:a1', lMod: '2024-01-01T00:00:00Z', digests: sent('Draft') });
    const pending = findPendingCreates(state, 'me');
    expect(pending?.me).toBe('me');
    expect(pending?.lines.map((each) => [each.line, each.record.id])).toEqual([[0, 'pending:a1']]);
  });

  it('finds an unmarked line by exactly the values sent, when no mark claims the record', () => {
    const state = stateOf([
      ['r1', 'Kept', '', 'l1', STATUS.inSync],
      ['', 'Something else', '', '', ''],
      ['', 'Draft', '', '', ''],
    ]);
    state.base.set({ id: 'pending:a1', lMod: '2024-01-01T00:00:00Z', digests: sent('Draft') });
    const pending = findPendingCreates(state, 'me');
    expect(pending?.lines.map((each) => [each.line, each.record.id])).toEqual([[2, 'pending:a1']]);
  });

  it('adds unmarked lines to the marked ones, never the same record twice', () => {
    const state = stateOf([
      ['', 'Draft', '', '', pendingStatus('pending:a1')],
      ['', 'Draft', '', '', ''],
      ['', 'Second', '', '', ''],
    ]);
    state.base.set({ id: 'pending:a1', lMod: '2024-01-01T00:00:00Z', digests: sent('Draft') });
    state.base.set({ id: 'pending:b2', lMod: '2024-01-01T00:00:00Z', digests: sent('Second') });
    const pending = findPendingCreates(state, 'me');
    expect(pending?.lines.map((each) => [each.line, each.record.id])).toEqual([
      [0, 'pending:a1'],
      [2, 'pending:b2'],
    ]);
  });

  it('reads whole only the lines without an id or mark when looking for an unmarked create', () => {
    const rows = [
      ['r1', 'Kept', '', 'l1', STATUS.inSync],
      ['', 'Draft', '', '', ''],
      ['r2', 'Kept too', '', 'l2', STATUS.inSync],
      ['', 'Marked', '', '', pendingStatus('pending:zz')],
    ];
    const loaded: number[] = [];
    const loader = (first: number, count: number): unknown[][] => {
      for (let i = 0; i < count; i++) loaded.push(first + i);
      return rows.slice(first, first + count).map((row) => [...row]);
    };
    const preloadedLines = rows.map((row) =>
      ['', '', '', '', ''].map((_, c) => (c === 0 || c === 4 ? row[c] : '')),
    );
    const grid = new LineGrid(preloadedLines, HEADERS.length, { loader, preloaded: [0, 4] });
    const base = new BaseTable([], ['title', 'notes']);
    base.set({ id: 'pending:a1', lMod: '2024-01-01T00:00:00Z', digests: sent('Draft') });
    const layout = readLayout(HEADERS, live);
    const state = pullStateOf({
      grid,
      layout,
      live,
      base,
      progress: freshProgress(),
      decode,
      fresh: new Set(),
    });
    const pending = findPendingCreates(state, 'me');
    expect(pending?.lines.map((each) => [each.line, each.record.id])).toEqual([[1, 'pending:a1']]);
    expect(loaded.filter((line) => line !== 3)).toEqual([1]);
  });

  it('finds none without pending records', () => {
    const state = stateOf([['', 'Draft', '', '', '']]);
    expect(findPendingCreates(state, 'me')).toBeUndefined();
  });
});

describe('ending a run', () => {
  it('marks lines whose row the complete listing did not show', () => {
    const state = stateOf(
      [
        ['r1', 'One', '', 'l', ''],
        ['r2', 'Two', '', 'l', ''],
      ],
      [
        ['r1', 'One', ''],
        ['r2', 'Two', ''],
      ],
    );
    state.base.markSeen('r1', state.pullId);
    expect(settleRemovedRows(state, { rowCount: 1, nextOffset: 1 })).toBe(true);
    expect(state.grid.get(0, 4)).toBe('');
    expect(state.grid.get(1, 4)).toBe(STATUS.removed);
    expect(state.counts.removedOnService).toBe(1);
  });

  it('asks about rows the listing did not show before marking them: one still there is not marked', () => {
    // A listing by offset skips rows when rows before them go while it goes on (issue 18 review).
    const state = stateOf(
      [
        ['r1', 'One', '', 'l', ''],
        ['r2', 'Two', '', 'l', ''],
        ['r3', 'Three', '', 'l', STATUS.removed],
        ['r4', 'Four', '', 'l', ''],
        ['r5', 'Five', '', 'l', ''],
      ],
      [
        ['r1', 'One', ''],
        ['r2', 'Two', ''],
        ['r3', 'Three', ''],
        ['r4', 'Four', ''],
        ['r5', 'Five', ''],
      ],
    );
    state.base.markSeen('r1', state.pullId);
    const listing = { rowCount: 1, nextOffset: 1 };
    // r3's line was confirmed removed by an earlier pull: not asked about again.
    const ids = rowsToConfirmRemoved(state, listing);
    expect(ids).toEqual(['r2', 'r4', 'r5']);
    const gone = new SyncError('NOT_FOUND', 'no such row', { status: 404 });
    const failed = new SyncError('NETWORK', 'timed out');
    // r2 is found (skipped by the listing), r4 is gone, r5's read failed: only r4 is taken for removed.
    const still = stillOnService(ids, [
      { ok: true },
      { ok: false, error: gone },
      { ok: false, error: failed },
    ]);
    expect([...still]).toEqual(['r2', 'r5']);
    // No answer (out of time, or past MAX_REMOVED_CHECKS): kept unmarked.
    expect([...stillOnService(ids, [])]).toEqual(ids);
    expect([...stillOnService(ids, [{ ok: false, error: gone }])]).toEqual(['r4', 'r5']);
    expect(settleRemovedRows(state, listing, still)).toBe(true);
    expect(state.grid.lines.map((line) => line[4])).toEqual(['', '', STATUS.removed, STATUS.removed, '']);
    expect(state.counts.removedOnService).toBe(2);
  });

  it('asks about nothing when a suspicious empty listing marks nothing', () => {
    const state = stateOf([['r1', 'One', '', 'l', '']], [['r1', 'One', '']]);
    expect(rowsToConfirmRemoved(state, { rowCount: 0, nextOffset: 0 })).toEqual([]);
    expect(rowsToConfirmRemoved(state, { rowCount: 0, nextOffset: 5000 })).toEqual(['r1']);
  });

  it('stops asking while the writes left still fit the time', () => {
    const run = startRun(
      startProgress(undefined, () => 'p1'),
      false,
      0,
      undefined,
      readingFor(undefined),
    );
    expect(shouldStopConfirming(run, 100, timeToWrite(run, 100 + WAVE_ROWS) + 1)).toBe(false);
    expect(shouldStopConfirming(run, 100, timeToWrite(run, 100 + WAVE_ROWS) - 1)).toBe(true);
  });

  it('marks nothing on the word of a listing empty from the start while the sheet holds rows', () => {
    const state = stateOf([['r1', 'One', '', 'l', '']], [['r1', 'One', '']]);
    expect(settleRemovedRows(state, { rowCount: 0, nextOffset: 0 })).toBe(false);
    expect(state.grid.get(0, 4)).toBe('');
    // An empty continuation (rows seen in earlier executions) is believed.
    expect(settleRemovedRows(state, { rowCount: 0, nextOffset: 5000 })).toBe(true);
    expect(state.grid.get(0, 4)).toBe(STATUS.removed);
  });

  it('records newly found deleted column ids, and nothing when none is new', () => {
    expect(deletedColumnIdsAfter(['a'], ['a', 'b'])).toEqual(['a', 'b']);
    expect(deletedColumnIdsAfter(['a', 'b'], ['b'])).toBeUndefined();
  });

  it('reports a finished pull with its problem lines tallied, an unfinished one without', () => {
    const state = stateOf([
      ['r1', 'One', '', 'l', conflictStatus(['title'])],
      ['r2', 'Two', '', 'l', STATUS.removed],
      ['r3', 'Three', '', 'l', STATUS.inSync],
    ]);
    const prepared = { state, deletedIds: [], renamed: new Map([['notes', 2]]), personsColumns: [] };
    const progress = freshProgress();
    const done = finishedResult(prepared, progress);
    expect(done.finished).toBe(true);
    expect(done.issues.map((issue) => issue.rowId)).toEqual(['r1', 'r2']);
    expect(done.tally).toEqual({ conflict: 1, removed: 1, error: 0 });
    expect(done.headerWarnings).toEqual([]);
    const renamedLayout = readLayout(['id', 'title', 'My notes', 'lMod', '_sync'], live);
    const renamed = finishedResult({ ...prepared, state: { ...state, layout: renamedLayout } }, progress);
    expect(renamed.headerWarnings).toHaveLength(1);
    expect(renamed.headerWarnings[0]).toMatch(/notes/);
    const halted = new SyncError('QUOTA', 'daily quota');
    const stopped = unfinishedResult(prepared, progress, halted);
    expect(stopped).toMatchObject({ finished: false, haltedBy: halted, issues: [] });
    expect(stopped.tally).toBeUndefined();
    expect('haltedBy' in unfinishedResult(prepared, progress)).toBe(false);
  });

  it("sums the run's counts into the summary fields", () => {
    const counts = { ...emptyPullCounts(), added: 3, conflicts: 1, removedOnService: 2 };
    expect(pullSummaryFields(counts)).toEqual(counts);
  });
});

describe('workbookFootprint', () => {
  it("takes the linked sheet's wider grid, the base sheet's width, and every other sheet's cells", () => {
    expect(
      workbookFootprint(12, [
        { role: 'linked', columns: 30, rows: 0 },
        { role: 'base', columns: 3, rows: 0 },
        { role: 'other', columns: 26, rows: 1000 },
        { role: 'other', columns: 10, rows: 10 },
      ]),
    ).toEqual({ sheetColumns: 30, baseColumns: 3, otherCells: 26_100 });
    expect(
      workbookFootprint(12, [
        { role: 'linked', columns: 5, rows: 0 },
        { role: 'base', columns: NEW_SHEET_COLUMNS, rows: 0 },
      ]),
    ).toEqual({ sheetColumns: 12, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 });
  });

  it('counts the blank rows and columns that stay past the content as the sheets grow after it', () => {
    // A new 1,000 x 26 linked sheet with nothing in it: 999 blank rows stay below the lines, 25 blank
    // columns right of the table's 12 (columns are inserted after the content, column A).
    expect(
      workbookFootprint(12, [
        { role: 'linked', columns: 26, rows: 0, blankRows: 999, blankColumns: 25 },
        { role: 'base', columns: 26, rows: 0, blankRows: 10 },
      ]),
    ).toEqual({ sheetColumns: 37, baseColumns: 26, otherCells: (999 - 100) * 37 });
    // A base not made yet is a new sheet: its rows grow after its header row.
    expect(workbookFootprint(12, [{ role: 'linked', columns: 12, rows: 0 }])).toEqual({
      sheetColumns: 12,
      baseColumns: NEW_SHEET_COLUMNS,
      otherCells: (NEW_SHEET_ROWS - 1 - 100) * NEW_SHEET_COLUMNS,
    });
  });
});
