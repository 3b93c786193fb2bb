// A batch of thousands of rows written at once shares one lMod. The id-swap check only weighs lines
// that do not hold their own row's values, and only then looks up which rows share the lMod: a swap
// hidden deep in such a batch is still found, by the pull and by the push plan, and a pull of lines
// holding their own values reads no base row it does not merge.
import { describe, expect, it } from 'vitest';
import { type BaseRecord, encodeBaseRow } from '../../../src/core/base';
import { BaseTable } from '../../../src/core/base-table';
import { valueDigest } from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import { readLayout } from '../../../src/core/layout';
import { LineGrid } from '../../../src/core/line-grid';
import { indexLines } from '../../../src/core/lines';
import { anotherRowsLineStatus, STATUS } from '../../../src/core/status';
import { applyServiceRows } from '../../../src/core/sync/pull/apply-rows';
import { emptyPullCounts, type PullState } from '../../../src/core/sync/pull/pull-state';
import { planPush } from '../../../src/core/sync/push/plan';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'size', name: 'Size', type: 'number', kind: 'number', deleted: false },
];
const HEADERS = ['id', 'title', 'size', 'lMod', '_sync'];
const [ID, TITLE, SIZE, , STATUS_COLUMN] = [0, 1, 2, 3, 4];
const BATCH = '2026-01-05T08:00:00.000Z';
const ROWS = 3_000;
const layout = readLayout(HEADERS, live);
const context = { formatDate: (date: { getTime(): number }) => String(date.getTime()) };

const idOf = (i: number) => `r${i}`;
const titleOf = (i: number) => `title ${i}`;

function recordOf(i: number): BaseRecord {
  return {
    id: idOf(i),
    lMod: BATCH,
    digests: { title: valueDigest(titleOf(i), 'text'), size: valueDigest(i, 'number') },
    shown: { lMod: BATCH },
  };
}

/** Every row's line as the last pull wrote it, all showing the batch's lMod. */
function linesOfBatch(): unknown[][] {
  return Array.from({ length: ROWS }, (_, i) => [idOf(i), titleOf(i), i, BATCH, STATUS.inSync]);
}

/** Swaps the id cells (only) of two lines. */
function swapIds(lines: unknown[][], a: number, b: number): void {
  const lineA = lines[a] as unknown[];
  const lineB = lines[b] as unknown[];
  [lineA[ID], lineB[ID]] = [lineB[ID], lineA[ID]];
}

function eagerBase(): BaseTable {
  const base = new BaseTable([], ['title', 'size']);
  for (let i = 0; i < ROWS; i++) base.set(recordOf(i));
  return base;
}

/** A base read in part, as a continuing pull has it: ids up front, each loaded record counted. */
function lazyBase(loaded: Set<number>): BaseTable {
  const columnIds = ['title', 'size'];
  const rows = Array.from({ length: ROWS }, (_, i) => encodeBaseRow(recordOf(i), columnIds));
  const loader = (first: number, count: number): unknown[][] => {
    for (let i = first; i < first + count; i++) loaded.add(i);
    return rows.slice(first, first + count);
  };
  return new BaseTable(
    rows.map((row) => [row[0], '']),
    columnIds,
    { loader },
  );
}

function pullStateOf(lines: unknown[][], base: BaseTable): PullState {
  const grid = new LineGrid(lines, HEADERS.length);
  return {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: 'pull-2',
    counts: emptyPullCounts(),
    decode: context,
  };
}

/** The service's rows: the batch as agreed, some of them changed since (a new lMod each). */
function serviceRows(from: number, to: number, changed: (i: number) => boolean) {
  const rows: Array<Record<string, unknown>> = [];
  for (let i = from; i < to; i++) {
    rows.push(
      changed(i)
        ? { id: idOf(i), title: `${titleOf(i)} renamed`, size: i, lMod: `${BATCH}-${i}` }
        : { id: idOf(i), title: titleOf(i), size: i, lMod: BATCH },
    );
  }
  return rows;
}

describe('a batch of 3,000 rows sharing one lMod', () => {
  it('a pull finds two id cells swapped deep in the batch, after merging the lines before them', () => {
    const lines = linesOfBatch();
    swapIds(lines, 2_400, 2_401);
    const state = pullStateOf(lines, eagerBase());
    // Rows before the swap changed on the service: their records move to new lMods first.
    applyServiceRows(
      state,
      serviceRows(0, ROWS, (i) => i % 10 === 0 && i < 2_000),
    );
    for (const at of [2_400, 2_401]) {
      const swapped = state.grid.lines[at] as unknown[];
      expect(swapped[STATUS_COLUMN]).toBe(anotherRowsLineStatus(String(swapped[ID])));
    }
    // Nothing of either row was written onto the other's line.
    expect((state.grid.lines[2_400] as unknown[]).slice(0, 3)).toEqual([idOf(2_401), titleOf(2_400), 2_400]);
    expect((state.grid.lines[2_401] as unknown[]).slice(0, 3)).toEqual([idOf(2_400), titleOf(2_401), 2_401]);
    expect(state.counts.errors).toBe(2);
    expect(state.counts.updated).toBe(200);
    expect((state.grid.lines[10] as unknown[])[TITLE]).toBe(`${titleOf(10)} renamed`);
  });

  it('a pull finds a swap of a row the service changed since, rows of the batch merged before it', () => {
    const lines = linesOfBatch();
    swapIds(lines, 2_500, 2_501);
    const state = pullStateOf(lines, eagerBase());
    applyServiceRows(
      state,
      serviceRows(0, ROWS, (i) => i % 10 === 0),
    );
    expect((state.grid.lines[2_500] as unknown[])[STATUS_COLUMN]).toBe(anotherRowsLineStatus(idOf(2_501)));
    expect((state.grid.lines[2_501] as unknown[])[STATUS_COLUMN]).toBe(anotherRowsLineStatus(idOf(2_500)));
    // Row 2,500's change waits for its line: neither line took it, its record is as agreed.
    expect((state.grid.lines[2_501] as unknown[]).slice(0, 3)).toEqual([idOf(2_500), titleOf(2_501), 2_501]);
    expect(state.base.get(idOf(2_500))?.lMod).toBe(BATCH);
    expect(state.counts.updated).toBe(299);
  });

  it('a pull of lines holding their own values reads only its own rows of a base read in part; a swap reads the rest', () => {
    const loaded = new Set<number>();
    const state = pullStateOf(linesOfBatch(), lazyBase(loaded));
    applyServiceRows(
      state,
      serviceRows(1_000, 1_100, (i) => i % 7 === 0),
    );
    expect(state.counts.updated).toBe(15);
    expect([...loaded].every((i) => i >= 1_000 && i < 1_100)).toBe(true);

    // The next page holds a row whose id cell was swapped with a row's of another page: its line
    // (line 2,900) is compared with the rows sharing its lMod, loaded for it.
    const lines = state.grid.lines;
    swapIds(lines, 1_150, 2_900);
    const next = pullStateOf(lines, state.base);
    applyServiceRows(
      next,
      serviceRows(1_100, 1_200, () => false),
    );
    expect((lines[2_900] as unknown[])[STATUS_COLUMN]).toBe(anotherRowsLineStatus(idOf(1_150)));
    expect(loaded.size).toBe(ROWS);
    expect(next.counts.errors).toBe(1);
  });

  it('a push plan finds two id cells swapped deep in the batch and plans the edits around them', () => {
    const lines = linesOfBatch();
    swapIds(lines, 2_700, 2_701);
    for (const at of [5, 2_699]) (lines[at] as unknown[])[SIZE] = at + 0.5;
    const grid = new LineGrid(lines, HEADERS.length);
    const plan = planPush(
      { grid, layout, live, base: eagerBase(), index: indexLines(grid, layout) },
      context,
    );
    expect(plan.errors.map((error) => error.line)).toEqual([2_700, 2_701]);
    expect(plan.errors[0]?.status).toBe(anotherRowsLineStatus(idOf(2_701)));
    expect(plan.updates.map((update) => [update.rowId, update.edits.values, update.edits.digests])).toEqual([
      [idOf(5), { size: 5.5 }, { size: valueDigest(5.5, 'number') }],
      [idOf(2_699), { size: 2_699.5 }, { size: valueDigest(2_699.5, 'number') }],
    ]);
    expect(plan.unchanged).toBe(ROWS - 4);
  });
});
