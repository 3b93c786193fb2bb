// The write-back decision of a flush: columns written and read back, the block of cells, plain text.
import { describe, expect, it } from 'vitest';
import {
  plainTextBlocks,
  planWriteBack,
  rowsToReadBack,
  type SpanRow,
  type WriteBackColumns,
  type WriteBackPlan,
  writeBackBlock,
} from '../../../src/core/sync/write-back';

// Sheet columns: 0 id, 1 title (text), 2 amount (number), 3 notes (the person's own), 4 lMod, 5 _sync.
const pull: WriteBackColumns = {
  eligible: [0, 1, 2, 4, 5],
  changed: new Set([1, 2, 5]),
  text: [0, 1, 4, 5],
  table: [1, 2],
  withTable: true,
  moved: false,
};
const push: WriteBackColumns = { ...pull, eligible: [0, 4, 5], changed: new Set([4, 5]), withTable: false };

function planOf(columns: WriteBackColumns): WriteBackPlan {
  const plan = planWriteBack(columns);
  if (plan === null) throw new Error('expected a plan');
  return plan;
}

describe('the columns a flush writes', () => {
  it('writes only eligible columns that changed, one run per group of adjacent ones', () => {
    const plan = planOf(pull);
    expect(plan.written).toEqual([1, 2, 5]);
    expect(plan.groups).toEqual([
      [1, 2],
      [5, 1],
    ]);
  });

  it('reads back the table columns a pull writes, and nothing for a push', () => {
    expect(planOf(pull).guarded).toEqual([1, 2]);
    expect(planOf(pull).guardedGroups).toEqual([[1, 2]]);
    expect(planOf(push).guarded).toEqual([]);
  });

  it('reads back every written column once lines moved, a push too', () => {
    expect(planOf({ ...pull, moved: true }).guarded).toEqual([1, 2, 5]);
    expect(planOf({ ...push, moved: true }).guarded).toEqual([4, 5]);
  });

  it('formats written text columns, and every eligible text column on added rows', () => {
    const plan = planOf(pull);
    expect(plan.textGroups).toEqual([
      [1, 1],
      [5, 1],
    ]);
    expect(plan.allTextGroups).toEqual([
      [0, 2],
      [4, 2],
    ]);
  });

  it('plans nothing when no eligible column changed', () => {
    expect(planWriteBack({ ...pull, changed: new Set([3]) })).toBeNull();
  });
});

describe('the rows read back', () => {
  const plan = planOf(pull);
  it('are the span rows the sheet had', () => {
    expect(rowsToReadBack(plan, 10, 19, 100)).toBe(10);
    expect(rowsToReadBack(plan, 95, 104, 100)).toBe(5);
    expect(rowsToReadBack(plan, 100, 104, 100)).toBe(0);
  });
  it('are none when no column is guarded', () => {
    expect(rowsToReadBack(planOf(push), 10, 19, 100)).toBe(0);
  });
});

describe('the block of cells a flush writes', () => {
  const plan = planOf(pull); // columns 1..5 written: block cells 0..4 are columns 1..5
  const read = ['r1', 'A', 1, 'n', 't1', ''];
  const ours = ['r1', 'B', 2, 'n', 't2', '✓ updated'];

  it("writes the run's values where the sheet still holds what the run read", () => {
    const rows: SpanRow[] = [{ kind: 'line', cells: ours, read }];
    // What the sheet holds now in columns 1..2 (the guarded ones, from column 1).
    expect(writeBackBlock(plan, rows, [['A', 1]])).toEqual([['B', 2, '', '', '✓ updated']]);
  });

  it('keeps a cell the person changed since the run read it', () => {
    const rows: SpanRow[] = [{ kind: 'line', cells: ours, read }];
    expect(writeBackBlock(plan, rows, [['typed', 1]])).toEqual([['typed', 2, '', '', '✓ updated']]);
  });

  it('compares dates by their time, not by object', () => {
    const when = (text: string) => new Date(text);
    const rows: SpanRow[] = [
      { kind: 'line', cells: ['r1', 'B', 2], read: ['r1', when('2024-01-05T00:00:00Z'), 1] },
    ];
    expect(writeBackBlock(plan, rows, [[when('2024-01-05T00:00:00Z'), 1]])[0]?.slice(0, 2)).toEqual(['B', 2]);
  });

  it("writes the run's values where nothing is read back: new lines, rows past the sheet's end", () => {
    const unchanged: SpanRow[] = [{ kind: 'line', cells: ours, read: undefined }];
    expect(writeBackBlock(plan, unchanged, [['typed', 1]])[0]?.[0]).toBe('B');
    const pastTheEnd: SpanRow[] = [{ kind: 'line', cells: ours, read }];
    expect(writeBackBlock(plan, pastTheEnd, [])[0]?.[0]).toBe('B');
  });

  it("writes a row between the run's lines as it stands now, or as the grid holds it where not read", () => {
    const between: SpanRow[] = [{ kind: 'between', cells: ['r2', 'stale', 5, 'x', 't9', 'old'] }];
    expect(writeBackBlock(plan, between, [['now', 6]])).toEqual([['now', 6, '', '', 'old']]);
    expect(writeBackBlock(plan, between, [])).toEqual([['stale', 5, '', '', 'old']]);
    expect(writeBackBlock(plan, [{ kind: 'between', cells: undefined }], [])).toEqual([['', '', '', '', '']]);
  });

  it('reads back every written column once lines moved, the status too', () => {
    const moved = planOf({ ...pull, moved: true });
    const rows: SpanRow[] = [{ kind: 'line', cells: ours, read }];
    // Guarded columns 1..5 from column 1: a person typed into the status cell meanwhile.
    expect(writeBackBlock(moved, rows, [['A', 1, 'n', 't1', 'note']])).toEqual([['B', 2, '', '', 'note']]);
  });
});

describe('the blocks formatted as plain text', () => {
  const plan = planOf(pull);
  it('formats written text columns on rows the sheet had', () => {
    // Data rows 10..19 of a 100-row sheet: sheet rows 12..21.
    expect(plainTextBlocks(plan, 10, 19, 100, null)).toEqual([
      [12, 2, 10, 1],
      [12, 6, 10, 1],
    ]);
  });

  it('formats every text column on appended and inserted rows', () => {
    // Data rows 98..101 of a 100-row sheet: two kept (sheet rows 100..101), two appended (102..103);
    // the grid grew by 50 rows from sheet row 102.
    expect(plainTextBlocks(plan, 98, 101, 100, [102, 50])).toEqual([
      [102, 1, 50, 2],
      [102, 5, 50, 2],
      [100, 2, 2, 1],
      [100, 6, 2, 1],
    ]);
  });
});
