// The write-back decision of a flush: columns written and read back, the block of cells, plain text.
import { describe, expect, it } from 'vitest';
import {
  plainTextBlocks,
  plainTextOfSpans,
  planWriteBack,
  rowsToReadBack,
  type SpanRow,
  type WriteBackColumns,
  type WriteBackPlan,
  writeBackBlock,
  writeBackSpans,
  writeSpanRows,
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

describe('the write spans of a read span', () => {
  // Columns 1, 2 and 5 written in two groups: a write span of its own adds four calls (a getRange and
  // a setValues per group), worth 4 x 10 = 40 cells at 10 cells a call; a row between costs 3 cells.
  const plan = planOf(pull);
  const cellsPerCall = 10;

  it('writes lines far apart in spans of their own, not the rows between them', () => {
    // 14 rows between (42 cells): dearer than the 40 cells of calls apart.
    expect(writeSpanRows(plan, [0, 15, 30], cellsPerCall)).toEqual([
      [0, 0],
      [15, 15],
      [30, 30],
    ]);
  });

  it('joins lines whose rows between cost less than the calls apart', () => {
    // 13 rows between (39 cells) and adjacent lines join; then 14 rows between do not.
    expect(writeSpanRows(plan, [0, 14, 15, 30], cellsPerCall)).toEqual([
      [0, 15],
      [30, 30],
    ]);
  });

  it('joins wider apart the more column groups each span writes', () => {
    const oneGroup = planOf({ ...pull, changed: new Set([1, 2]) }); // 2 cells a row, 20 cells of calls
    expect(writeSpanRows(oneGroup, [0, 10, 21], cellsPerCall)).toEqual([
      [0, 10],
      [21, 21],
    ]);
  });

  it("slices each span's block out of the read span: its rows' cells, what was read back, the kept cells", () => {
    const read = ['r', 'A', 1, 'n', 't1', ''];
    const line = (title: string): SpanRow => ({
      kind: 'line',
      cells: ['r', title, 2, 'n', 't2', 'ok'],
      read,
    });
    const between = (title: string): SpanRow => ({
      kind: 'between',
      cells: ['r', title, 0, 'n', 't', 'old'],
    });
    // Read span from data row 100: lines at 100 and 101, 20 rows between, lines at 122 and 124.
    const rows: SpanRow[] = [
      line('L100'),
      line('L101'),
      ...Array.from({ length: 20 }, (_, i) => between(`B${102 + i}`)),
      line('L122'),
      between('B123'),
      line('L124'),
    ];
    const current = rows.map((_, i) => [i === 24 ? 'typed' : i === 23 ? 'now123' : 'A', 1]);
    const kept: Array<[number, number, unknown]> = [];
    const spans = writeBackSpans(plan, 100, rows, current, cellsPerCall, (i, column, value) =>
      kept.push([i, column, value]),
    );
    expect(spans.map(({ first, last }) => [first, last])).toEqual([
      [100, 101],
      [122, 124],
    ]);
    expect(spans[0]?.block).toEqual([
      ['L100', 2, '', '', 'ok'],
      ['L101', 2, '', '', 'ok'],
    ]);
    expect(spans[1]?.block).toEqual([
      ['L122', 2, '', '', 'ok'],
      ['now123', 1, '', '', 'old'],
      ['typed', 2, '', '', 'ok'],
    ]);
    // Row 24 of the read span (data row 124): the person's title kept, and heard at its read-span row.
    expect(kept).toEqual([[24, 1, 'typed']]);
  });

  it('formats the spans as plain text, the rows the grid grew by once', () => {
    const spans = [
      { first: 10, last: 10 },
      { first: 98, last: 101 },
    ];
    // A 100-row sheet: data rows 98..99 kept (sheet rows 100..101), 100..101 appended (102..103).
    expect(plainTextOfSpans(plan, spans, 100, [102, 50])).toEqual([
      [12, 2, 1, 1],
      [12, 6, 1, 1],
      [102, 1, 50, 2],
      [102, 5, 50, 2],
      [100, 2, 2, 1],
      [100, 6, 2, 1],
    ]);
  });
});
