// Reading a linked sheet's lines over raw cells, in as few waiting calls as its size allows.
import { describe, expect, it } from 'vitest';
import { readLayout } from '../../../src/core/layout';
import { readColumns, readLines, readLinesForPull } from '../../../src/core/sync/read-lines';
import { MemorySheet, recording } from '../../memory/memory-sheet';
import { HEADERS, line, live } from './fixtures';

const layoutOf = (headers: unknown[]) => readLayout(headers, live);

function sheetOf(rows: unknown[][]) {
  return recording(new MemorySheet(rows, { count: 0 }).cells());
}

const many = (count: number) => Array.from({ length: count }, (_, i) => line(`r${i + 1}`, `t${i}`, i, 't1'));

describe('reading lines', () => {
  it('reads a sheet whole from A1 in one call', () => {
    const { cells, calls } = sheetOf([HEADERS, ...many(3)]);
    const { headers, grid } = readLines(cells);
    expect(headers).toEqual(HEADERS);
    expect(grid.lines).toEqual(many(3));
    expect(calls).toEqual(['sheetValues(1,1,-1,-1)']);
  });

  it('reads an empty sheet as no lines, through its data range', () => {
    const { cells, calls } = sheetOf([]);
    const { headers, grid } = readLines(cells);
    expect(headers).toEqual([]);
    expect(grid.length).toBe(0);
    expect(calls).toEqual(['sheetValues(1,1,-1,-1)', 'dataRange()', 'dataRange.values()']);
  });

  it('reads a large sheet for a pull as its header, ids and statuses, whole lines when needed', () => {
    const { cells, calls } = sheetOf([HEADERS, ...many(50)]);
    const { grid } = readLinesForPull(cells, layoutOf, { eagerUpTo: 10, withSeen: false });
    expect(calls).toEqual(['dataRange()', 'values(1,1,1,5)', 'values(2,1,50,1)', 'values(2,5,50,1)']);
    expect(grid.isLoaded(20)).toBe(false);
    expect(grid.get(20, 0)).toBe('r21');
    grid.ensureLoaded([20]);
    expect(grid.lines[20]).toEqual(many(50)[20]);
  });

  it("reads a live push's lines near the header with it: three calls", () => {
    const { cells, calls } = sheetOf([HEADERS, ...many(50)]);
    const { grid } = readLinesForPull(cells, layoutOf, {
      eagerUpTo: 10,
      withSeen: false,
      lines: [1],
      expectedWidth: 5,
    });
    expect(calls).toEqual(['sheetValues(1,1,3,-1)', 'sheetValues(2,1,-1,1)', 'values(2,5,50,1)']);
    expect(grid.lines[1]).toEqual(many(50)[1]);
    expect(grid.length).toBe(50);
  });

  it('reads whole columns to the last row, adjacent ones in one call, an empty sheet as none', () => {
    const { cells, calls } = sheetOf([HEADERS, ...many(3)]);
    expect(readColumns(cells, [2, 0, 1])).toEqual([
      [0, 1, 2],
      ['r1', 'r2', 'r3'],
      ['t0', 't1', 't2'],
    ]);
    expect(calls).toEqual(['sheetValues(2,1,-1,3)']);
    expect(readColumns(sheetOf([HEADERS]).cells, [0, 4])).toEqual([[], []]);
  });
});
