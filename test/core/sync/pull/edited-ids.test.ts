// An edited id cell is put back by the line's base record, never read as a new row.
import { describe, expect, it } from 'vitest';
import { BaseTable } from '../../../../src/core/base-table';
import { cellDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import { readLayout } from '../../../../src/core/layout';
import { LineGrid } from '../../../../src/core/line-grid';
import { indexLines } from '../../../../src/core/lines';
import { findEditedIds, restoreEditedIds } from '../../../../src/core/sync/pull/edited-ids';

const live: ColumnSpec[] = [{ id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false }];
const layout = readLayout(['id', 'title', 'lMod', '_sync'], live);

function stateOf(lines: unknown[][]) {
  const grid = new LineGrid(lines, 4);
  const base = new BaseTable([], ['title']);
  for (const [id, title, lMod] of [
    ['r1', 'One', 't1'],
    ['r2', 'Two', 't2'],
    ['r3', 'Three', 't3'],
  ] as const) {
    base.set({ id, lMod, digests: { title: cellDigest(title) } });
  }
  return { grid, layout, live, base, index: indexLines(grid, layout) };
}

describe('restoreEditedIds', () => {
  it('puts back an edited id by the lMod cell or, failing that, by every synced cell', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['typo', 'Two edited', 't2', ''],
      ['oops', 'Three', '', ''],
    ]);
    expect(restoreEditedIds(state)).toEqual([1, 2]);
    expect(state.grid.get(1, 0)).toBe('r2');
    expect(state.grid.get(2, 0)).toBe('r3');
    expect(state.index.lineById.get('r2')).toBe(1);
    expect(state.index.lineById.has('typo')).toBe(false);
  });

  it('leaves a line it cannot decide (two rows match) as it is', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['typo', 'Same', '', ''],
    ]);
    state.base.set({ id: 'r2', lMod: 't2', digests: { title: cellDigest('Same') } });
    state.base.set({ id: 'r3', lMod: 't3', digests: { title: cellDigest('Same') } });
    expect(restoreEditedIds(state)).toEqual([]);
    expect(state.grid.get(1, 0)).toBe('typo');
  });

  it('never takes a pending create or an id the base knows for an edited id', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['pending:abc', 'Two', 't2', ''],
    ]);
    expect(restoreEditedIds(state)).toEqual([]);
    expect(state.grid.get(1, 0)).toBe('pending:abc');
  });

  it('puts back nothing in a sheet without an id column', () => {
    const noId = readLayout(['title', 'lMod', '_sync'], live);
    const grid = new LineGrid([['Two', 't2', '']], 3);
    const { base } = stateOf([]);
    expect(restoreEditedIds({ grid, layout: noId, live, base, index: indexLines(grid, noId) })).toEqual([]);
  });

  it('puts back a cleared id by the lMod cell (issue 33 case 1)', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['', 'Two edited', 't2', '✓ pulled'],
      ['r3', 'Three', 't3', ''],
    ]);
    expect(restoreEditedIds(state)).toEqual([1]);
    expect(state.grid.get(1, 0)).toBe('r2');
    expect(state.index.lineById.get('r2')).toBe(1);
  });

  it('leaves a new line, a blank line and a line whose create was sent as they are', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['', 'Brand new', '', ''],
      ['', '', '', ''],
      ['', 'Two', '', '⏳ create sent [pending:abc]; the next push checks the service before any retry'],
    ]);
    expect(findEditedIds(state)).toEqual({ restored: [], standing: new Set() });
  });

  it('puts back the id typed over with another row’s, by its lMod; the other line keeps its id (issue 33 case 8)', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['r1', 'Two', 't2', ''],
      ['r3', 'Three', 't3', ''],
    ]);
    expect(restoreEditedIds(state)).toEqual([1]);
    expect([state.grid.get(0, 0), state.grid.get(1, 0)]).toEqual(['r1', 'r2']);
    expect(state.index.lineById.get('r1')).toBe(0);
    expect(state.index.duplicates.size).toBe(0);
  });

  it('another row’s id typed over a line whose own row’s line was cleared: both put back', () => {
    const state = stateOf([
      ['', 'One', 't1', ''],
      ['r1', 'Two', 't2', ''],
      ['r3', 'Three', 't3', ''],
    ]);
    expect(restoreEditedIds(state).sort()).toEqual([0, 1]);
    expect([state.grid.get(0, 0), state.grid.get(1, 0)]).toEqual(['r1', 'r2']);
  });

  it('two lines standing for one row: neither put back, the row stands', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['', 'Two', 't2', ''],
      ['', 'Two again', 't2', ''],
      ['r3', 'Three', 't3', ''],
    ]);
    expect(findEditedIds(state)).toEqual({ restored: [], standing: new Set(['r2']) });
    expect(state.grid.get(1, 0)).toBe('');
  });

  it('rows of one batch its values cannot tell apart: nothing put back, both stand', () => {
    const state = stateOf([
      ['r1', 'One', 't1', ''],
      ['', 'Typed over', 'batch', ''],
    ]);
    state.base.set({ id: 'r2', lMod: 'batch', digests: { title: cellDigest('Two') } });
    state.base.set({ id: 'r3', lMod: 'batch', digests: { title: cellDigest('Three') } });
    expect(findEditedIds(state)).toEqual({ restored: [], standing: new Set(['r2', 'r3']) });
  });

  it('ids swapped (no row on no line) are not touched: the push marks them', () => {
    const state = stateOf([
      ['r2', 'One', 't1', ''],
      ['r1', 'Two', 't2', ''],
      ['r3', 'Three', 't3', ''],
    ]);
    expect(findEditedIds(state)).toEqual({ restored: [], standing: new Set() });
  });
});
