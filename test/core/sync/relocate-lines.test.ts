// Re-identifying a lazily read grid's lines before it loads more of them: a sort while the run waited
// would otherwise load another row's cells into a line.
import { describe, expect, it } from 'vitest';
import { readLayout } from '../../../src/core/layout';
import { readLines, readLinesForPull } from '../../../src/core/sync/read-lines';
import { relocateBeforeLoading } from '../../../src/core/sync/relocate-lines';
import { MemorySheet, recording } from '../../memory/memory-sheet';
import { HEADERS, line, live } from './fixtures';

const lines = () => [line('r1', 'b', 1, 't1'), line('r2', 'a', 2, 't1'), line('r3', 'c', 3, 't1')];
const layoutOf = (headers: unknown[]) => readLayout(headers, live);

describe('re-identifying lines before loading them', () => {
  it('loads each line of a lazily read grid from the row its id stands on now', () => {
    const sheet = new MemorySheet([HEADERS, ...lines()], { count: 0 });
    const cells = sheet.cells();
    const { headers, grid } = readLinesForPull(cells, layoutOf, { eagerUpTo: 0, withSeen: false });
    expect(grid.lazy).toBe(true);
    sheet.sort('title');
    relocateBeforeLoading(cells, grid, layoutOf(headers));
    grid.ensureLoaded([0, 1, 2]);
    expect(grid.lines).toEqual(lines());
  });

  it('reads nothing for a grid read whole', () => {
    const sheet = new MemorySheet([HEADERS, ...lines()], { count: 0 });
    const { cells, calls } = recording(sheet.cells());
    const { headers, grid } = readLines(cells);
    sheet.sort('title');
    calls.length = 0;
    relocateBeforeLoading(cells, grid, layoutOf(headers));
    expect(calls).toEqual([]);
  });
});
