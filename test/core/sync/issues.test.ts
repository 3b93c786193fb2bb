// The problem lines a run reports, and the id-column guard, over plain lines.
import { describe, expect, it } from 'vitest';
import type { ColumnSpec } from '../../../src/core/columns';
import { SyncError } from '../../../src/core/errors';
import { readLayout } from '../../../src/core/layout';
import { LineGrid } from '../../../src/core/line-grid';
import { conflictStatus, errorStatus, pendingStatus, STATUS } from '../../../src/core/status';
import { assertIdColumn, collectIssues, emptyTally } from '../../../src/core/sync/issues';

const live: ColumnSpec[] = [{ id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false }];
const layout = readLayout(['id', 'title', '_sync'], live);

function gridOf(statuses: string[]): LineGrid {
  return new LineGrid(
    statuses.map((status, line) => [`r${line + 1}`, `Title ${line + 1}`, status]),
    3,
  );
}

describe('collectIssues', () => {
  it('lists conflicts, removed rows and errors with their sheet row and row id, skipping the rest', () => {
    const grid = gridOf([
      STATUS.inSync,
      conflictStatus(['title']),
      STATUS.removed,
      pendingStatus('pending:abc'),
      errorStatus('not pushed: a number is needed'),
      '',
    ]);
    expect(collectIssues({ grid, layout })).toEqual([
      {
        row: 3,
        rowId: 'r2',
        kind: 'conflict',
        message: 'conflict: title changed here and on the service — choose Keep mine or Take theirs',
      },
      { row: 4, rowId: 'r3', kind: 'removed', message: STATUS.removed.slice(2) },
      { row: 6, rowId: 'r5', kind: 'error', message: 'error: not pushed: a number is needed' },
    ]);
  });

  it('lists up to the limit but tallies every problem line of the sheet', () => {
    const grid = gridOf([STATUS.removed, conflictStatus(['title']), STATUS.removed, errorStatus('x')]);
    const tally = emptyTally();
    const issues = collectIssues({ grid, layout }, 2, tally);
    expect(issues.map((issue) => issue.rowId)).toEqual(['r1', 'r2']);
    expect(tally).toEqual({ conflict: 1, removed: 2, error: 1 });
  });

  it('stops at the limit when no tally is asked', () => {
    const grid = gridOf([STATUS.removed, STATUS.removed, STATUS.removed]);
    expect(collectIssues({ grid, layout }, 1)).toHaveLength(1);
  });

  it('finds nothing in a sheet without a status column, and an empty row id without an id column', () => {
    const noStatus = readLayout(['id', 'title'], live);
    expect(collectIssues({ grid: new LineGrid([['r1', STATUS.removed]], 2), layout: noStatus })).toEqual([]);
    const noId = readLayout(['title', '_sync'], live);
    const issues = collectIssues({ grid: new LineGrid([['One', STATUS.removed]], 2), layout: noId });
    expect(issues).toEqual([{ row: 2, rowId: '', kind: 'removed', message: STATUS.removed.slice(2) }]);
  });
});

describe('assertIdColumn', () => {
  it('accepts a sheet with its id column', () => {
    expect(() => assertIdColumn(layout, 10, 10)).not.toThrow();
  });

  it('accepts a missing id column while the sheet or the base holds nothing to match', () => {
    const noId = readLayout(['title', '_sync'], live);
    expect(() => assertIdColumn(noId, 0, 10)).not.toThrow();
    expect(() => assertIdColumn(noId, 10, 0)).not.toThrow();
  });

  it('refuses a missing id column when lines and base rows would have to be matched', () => {
    const noId = readLayout(['title', '_sync'], live);
    const refusal = (() => {
      try {
        assertIdColumn(noId, 3, 3);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(SyncError);
    expect((refusal as SyncError).code).toBe('SHEET');
    expect((refusal as SyncError).message).toMatch(
      /id column of this sheet is missing.*restore the "id" header/,
    );
  });

  it('refuses a repeated id header, naming both columns', () => {
    const twice = readLayout(['id', 'title', 'id', '_sync'], live);
    expect(() => assertIdColumn(twice, 0, 0)).toThrow(/header "id" is in columns A and C/);
  });
});
