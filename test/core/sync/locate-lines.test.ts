// Re-identifying lines right before a write: by row id, new lines by their pending mark.
import { describe, expect, it } from 'vitest';
import { LineGrid } from '../../../src/core/line-grid';
import { LOST, locateLines, NOT_WRITTEN_YET } from '../../../src/core/sync/locate-lines';

const line = (row: number, id: string, marker: string | null = null) => ({ row, id, marker });

describe('locateLines', () => {
  it('sees that nothing moved when the id and mark columns are as read', () => {
    const located = locateLines([line(0, 'a'), line(1, ''), line(NOT_WRITTEN_YET, 'n')], 2, {
      ids: ['a', ''],
      markers: [null, null],
    });
    expect(located).toEqual({ moved: false, rows: [0, 1, 2] });
  });

  it('finds moved lines by id and new lines by their pending mark; others are lost', () => {
    const located = locateLines(
      [line(0, 'a'), line(1, 'b'), line(2, '', 'pending:x'), line(3, ''), line(NOT_WRITTEN_YET, 'n')],
      4,
      // Sorted, and a line inserted at the top.
      { ids: ['', 'b', '', 'a', ''], markers: [null, null, 'pending:x', null, null] },
    );
    expect(located).toEqual({ moved: true, rows: [3, 1, 2, LOST, 5] });
  });

  it('loses a line whose id is gone from the sheet (its line deleted): it is never written elsewhere', () => {
    const located = locateLines([line(0, 'a'), line(1, 'b'), line(2, 'c')], 3, {
      // The line of b was deleted: c moved up into its row.
      ids: ['a', 'c'],
      markers: [null, null],
    });
    expect(located).toEqual({ moved: true, rows: [0, LOST, 1] });
  });

  it('loses a line whose id is now on two lines, and one already lost', () => {
    const located = locateLines([line(0, 'a'), line(LOST, 'b')], 1, {
      ids: ['a', 'a', 'b'],
      markers: [null, null, null],
    });
    expect(located.rows).toEqual([LOST, LOST]);
  });
});

describe('a grid relocated after a move', () => {
  it('keeps what the sheet held before the run changed a line, and where lines now stand', () => {
    const grid = new LineGrid(
      [
        ['a', 'A'],
        ['b', 'B'],
      ],
      2,
    );
    grid.set(0, 1, 'A2');
    expect(grid.originalCells(0)).toEqual(['a', 'A']);
    expect(grid.originalCells(1)).toBeUndefined();
    const appended = grid.appendLine();
    expect(grid.expectedLines(0, undefined, () => null, String)).toEqual([
      line(0, 'a'),
      line(1, 'b'),
      line(NOT_WRITTEN_YET, ''),
    ]);
    grid.relocate({ rows: [1, LOST, 2], moved: true }, 2);
    expect(grid.currentSheetRow(0)).toBe(3);
    expect(grid.currentSheetRow(1)).toBe(0);
    expect(grid.physicalRow(appended)).toBe(2);
    expect(grid.sheetRows).toBe(3);
    grid.flushed();
    expect(grid.originalCells(0)).toBeUndefined();
  });
});
