// Deleting lines by row id over raw cells: each found as the sheet stands right before deleting, and
// deleted only when exactly one line carries the id and its status still reads one of the statuses.
import { describe, expect, it } from 'vitest';
import { deleteLinesById } from '../../../src/core/sync/delete-lines';
import { MemorySheet, recording } from '../../memory/memory-sheet';
import { HEADERS, line } from './fixtures';

const REMOVED = ['⊘ removed on the service'];

function sheetOf(lines: unknown[][]) {
  const sheet = new MemorySheet([HEADERS, ...lines], { count: 0 });
  sheet.sheet.frozenRows = 1;
  return { sheet, ...recording(sheet.cells()) };
}

const removed = (id: string, title: string) => line(id, title, 1, 't1', REMOVED[0]);

describe('deleting lines by row id', () => {
  it('deletes each line where it stands now, a run of adjacent rows at a time, bottom up', () => {
    const { sheet, cells, calls } = sheetOf([
      removed('r1', 'a'),
      line('r2', 'b', 1, 't1'),
      removed('r3', 'c'),
      removed('r4', 'd'),
    ]);
    sheet.sort('title', true);
    const deleted = deleteLinesById(
      cells,
      ['r1', 'r3', 'r4'].map((rowId) => ({ rowId, statuses: REMOVED })),
    );
    expect(deleted.sort()).toEqual(['r1', 'r3', 'r4']);
    expect(sheet.values().slice(1)).toEqual([line('r2', 'b', 1, 't1')]);
    expect(calls.filter((call) => call.startsWith('deleteRows'))).toEqual([
      'deleteRows(5,1)',
      'deleteRows(2,2)',
    ]);
  });

  it('keeps a line whose status changed since the review', () => {
    const { sheet, cells } = sheetOf([removed('r1', 'a'), removed('r2', 'b')]);
    sheet.type(0, '_sync', '✎ edited');
    const deleted = deleteLinesById(
      cells,
      ['r1', 'r2'].map((rowId) => ({ rowId, statuses: REMOVED })),
    );
    expect(deleted).toEqual(['r2']);
    expect(sheet.values().slice(1)).toEqual([line('r1', 'a', 1, 't1', '✎ edited')]);
  });

  it('keeps the lines of an id two lines carry, and of an id no line carries any more', () => {
    const { sheet, cells } = sheetOf([removed('r1', 'a'), removed('r2', 'b'), removed('r3', 'c')]);
    sheet.type(1, 'id', 'r1');
    const deleted = deleteLinesById(
      cells,
      ['r1', 'r2', 'r3'].map((rowId) => ({ rowId, statuses: REMOVED })),
    );
    expect(deleted).toEqual(['r3']);
    expect(sheet.values().slice(1)).toEqual([removed('r1', 'a'), removed('r1', 'b')]);
  });

  it('keeps one blank row below the frozen header when every line goes', () => {
    const { cells, calls } = sheetOf([removed('r1', 'a'), removed('r2', 'b')]);
    expect(
      deleteLinesById(cells, [
        { rowId: 'r1', statuses: REMOVED },
        { rowId: 'r2', statuses: REMOVED },
      ]),
    ).toEqual(['r1', 'r2']);
    expect(calls).toContain('insertRowsAfter(3,1)');
  });
});
