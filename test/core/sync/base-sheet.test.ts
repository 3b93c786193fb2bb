// The base sheet over raw cells: written in dirty spans with its header row, read whole in one call,
// or (a continuing pull) as ids and seen marks with records loaded on demand; a base deleted or
// sorted by hand stops the run.
import { describe, expect, it } from 'vitest';
import { BaseTable } from '../../../src/core/base-table';
import { type BaseSheetCells, basePortOver, readBase } from '../../../src/core/sync/base-sheet';
import type { SheetCells } from '../../../src/core/sync/sheet-cells';
import { MemoryCells, memorySheetCells, recording } from '../../memory/memory-sheet';
import { agreed, live } from './fixtures';

function baseSheet(options: { exists?: boolean; synced?: boolean } = {}) {
  const grid = new MemoryCells();
  const { cells, calls } = recording(memorySheetCells(grid, { count: 0 }));
  let exists = options.exists ?? true;
  const base: BaseSheetCells = {
    name: '_base_1',
    synced: () => options.synced ?? true,
    open: (create): SheetCells | null => {
      if (create) exists = true;
      return exists ? cells : null;
    },
  };
  return { grid, calls, base };
}

function written(base: BaseSheetCells, count: number): void {
  const table = new BaseTable([], []);
  table.ensureColumns(live.map((column) => column.id));
  for (let i = 1; i <= count; i++) table.set(agreed(`r${i}`, 't1', `title ${i}`, i));
  basePortOver(base).write(table);
}

describe('the base sheet', () => {
  it('reads back what it wrote, whole, in one call of its columns to the grid end', () => {
    const { base, calls } = baseSheet();
    written(base, 3);
    calls.length = 0;
    const table = readBase(base);
    expect(table.ids()).toEqual(['r1', 'r2', 'r3']);
    expect(table.get('r2')).toEqual(agreed('r2', 't1', 'title 2', 2));
    expect(calls).toEqual(['columnValues(1,3)']);
  });

  it('reads ids and seen marks of a continuing pull, and a record when asked', () => {
    const { base, calls } = baseSheet();
    written(base, 3);
    calls.length = 0;
    const table = readBase(base, { eagerUpTo: 0, withSeen: true });
    expect(calls).toEqual(['lastRow()', 'values(1,1,1,3)', 'values(2,1,3,1)', 'values(2,3,3,1)']);
    expect(() => table.get('r2')).toThrow(/not loaded/);
    table.ensureLoaded(['r2']);
    expect(table.get('r2')).toEqual(agreed('r2', 't1', 'title 2', 2));
  });

  it('reads no base before the first sync as empty, and makes it when written', () => {
    const { base } = baseSheet({ exists: false, synced: false });
    expect(readBase(base).ids()).toEqual([]);
    written(base, 1);
    expect(readBase(base).ids()).toEqual(['r1']);
  });

  it('stops on a base deleted after a sync, saying what to do', () => {
    const { base } = baseSheet({ exists: false, synced: true });
    expect(() => readBase(base)).toThrow(/"_base_1".*was deleted.*Undo the deletion/);
  });

  it('stops on a base whose rows were sorted by hand', () => {
    const { base, grid } = baseSheet();
    written(base, 3);
    grid.cells.reverse();
    expect(() => readBase(base)).toThrow(/changed by hand/);
  });
});
