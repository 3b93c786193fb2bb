// Which row a line stands for when its id cell does not name it (cleared, typed over): by its other
// fixed fields, narrowed by its values; never a guess (issue 33 cases 1 and 8).
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../src/core/base';
import { BaseTable } from '../../../src/core/base-table';
import { cellDigestFor } from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import { LModOwners } from '../../../src/core/sync/line-identity';
import {
  fixedCellsAgreement,
  type LineMarks,
  rowStoodFor,
  type StandsFor,
} from '../../../src/core/sync/unnamed-lines';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'status', name: 'Status', type: 'text', kind: 'text', deleted: false },
];
const BATCH = '2026-01-05T08:00:00.000Z';

function recordOf(id: string, lMod: string, title: string, status: string, shown?: Record<string, string>) {
  const record: BaseRecord = {
    id,
    lMod,
    digests: { title: cellDigestFor(title, 'text'), status: cellDigestFor(status, 'text') },
  };
  if (shown) record.shown = shown;
  return record;
}

function baseOf(records: BaseRecord[]): BaseTable {
  const base = new BaseTable([], ['title', 'status']);
  for (const record of records) base.set(record);
  return base;
}

/** A line's marks: its fixed cells and its title and status cells. */
function marksOf(fixed: Record<string, string>, title: string, status: string, hasId = false): LineMarks {
  return {
    fixed: Object.entries(fixed),
    digests: [cellDigestFor(title, 'text'), cellDigestFor(status, 'text')],
    hasValue: title !== '' || status !== '',
    hasId,
  };
}

/** The row a line stands for, `withoutLine` the rows that have no line of their own. */
function standsFor(base: BaseTable, withoutLine: string[], marks: LineMarks): StandsFor {
  const pool = {
    has: (rowId: string) => withoutLine.includes(rowId),
    records: () => withoutLine.map((rowId) => base.get(rowId) as BaseRecord),
  };
  return rowStoodFor(marks, live, new LModOwners(base), pool);
}

describe('rowStoodFor', () => {
  const base = baseOf([
    recordOf('r1', 't1', 'One', 'open'),
    recordOf('r2', 't2', 'Two', 'open'),
    recordOf('b1', BATCH, 'Batch one', 'won'),
    recordOf('b2', BATCH, 'Batch two', 'won'),
    recordOf('b3', BATCH, 'Batch three', 'lost'),
  ]);

  it('a line whose lMod is one row’s, that row without a line, is that row whatever its values', () => {
    expect(standsFor(base, ['r2'], marksOf({ lMod: 't2' }, 'Two edited', 'won'))).toEqual({
      kind: 'row',
      rowId: 'r2',
    });
  });

  it('a line whose lMod is a row’s that has its own line is a copy: no row', () => {
    expect(standsFor(base, ['r2'], marksOf({ lMod: 't1' }, 'One', 'open'))).toEqual({ kind: 'none' });
  });

  it('rows sharing the lMod (one batch) are told apart by the line’s values', () => {
    const marks = marksOf({ lMod: BATCH }, 'Batch two', 'won');
    expect(standsFor(base, ['b1', 'b2', 'b3'], marks)).toEqual({ kind: 'row', rowId: 'b2' });
  });

  it('where the values cannot tell, every row it may be, and no one chosen', () => {
    const marks = marksOf({ lMod: BATCH }, 'typed over', 'won');
    expect(standsFor(base, ['b1', 'b2', 'b3'], marks)).toEqual({ kind: 'unsure', rowIds: ['b1', 'b2'] });
  });

  it('values most like a row with a line of its own: a copy of that line, no row', () => {
    const marks = marksOf({ lMod: BATCH }, 'Batch one', 'won');
    expect(standsFor(base, ['b2'], marks)).toEqual({ kind: 'none' });
  });

  it('an unknown id typed, no fixed cells: the one row without a line whose every value it holds', () => {
    const typed = (title: string, status: string) => marksOf({}, title, status, true);
    expect(standsFor(base, ['r1', 'r2'], typed('Two', 'open'))).toEqual({ kind: 'row', rowId: 'r2' });
    expect(standsFor(base, ['r1', 'r2'], typed('Two', 'won'))).toEqual({ kind: 'none' });
    expect(standsFor(base, ['r1', 'r2'], typed('', ''))).toEqual({ kind: 'none' });
  });

  it('no id and no fixed cells: a new line, even one typed like a row without a line', () => {
    expect(standsFor(base, ['r1', 'r2'], marksOf({}, 'Two', 'open'))).toEqual({ kind: 'none' });
  });

  it('an lMod no row shows (typed into) falls back to the values', () => {
    expect(standsFor(base, ['r2'], marksOf({ lMod: 'typed' }, 'Two', 'open'))).toEqual({
      kind: 'row',
      rowId: 'r2',
    });
  });

  it('the other fixed fields shown (cOn) tell rows of one batch apart, and one contradicting names none', () => {
    const shownBase = baseOf([
      recordOf('c1', BATCH, 'Same', 'won', { lMod: BATCH, cOn: '2026-01-01' }),
      recordOf('c2', BATCH, 'Same', 'won', { lMod: BATCH, cOn: '2026-01-02' }),
    ]);
    expect(
      standsFor(shownBase, ['c1', 'c2'], marksOf({ lMod: BATCH, cOn: '2026-01-02' }, 'Same', 'won')),
    ).toEqual({ kind: 'row', rowId: 'c2' });
    expect(
      standsFor(shownBase, ['c1', 'c2'], marksOf({ lMod: BATCH, cOn: '2026-01-09' }, 'Other', 'won')),
    ).toEqual({ kind: 'none' });
  });

  it('in a batch of 5,000 rows sharing the lMod, found by its values through the index', () => {
    const records = Array.from({ length: 5_000 }, (_, i) => recordOf(`r${i}`, BATCH, `t${i}`, 'open'));
    const big = baseOf(records);
    const marks = marksOf({ lMod: BATCH }, 't4321', 'open');
    expect(standsFor(big, ['r4321', 'r17'], marks)).toEqual({ kind: 'row', rowId: 'r4321' });
    expect(standsFor(big, ['r17'], marks)).toEqual({ kind: 'none' });
  });
});

describe('fixedCellsAgreement', () => {
  const record = recordOf('r1', 't1', 'One', 'open', { lMod: 't1b', createdBy: 'ann' });
  it('counts the fixed cells a record confirms, lMod by any it shows; -1 when one contradicts it', () => {
    expect(fixedCellsAgreement([['lMod', 't1']], record)).toBe(1);
    expect(
      fixedCellsAgreement(
        [
          ['lMod', 't1b'],
          ['createdBy', 'ann'],
        ],
        record,
      ),
    ).toBe(2);
    expect(fixedCellsAgreement([['cOn', '2026-01-01']], record)).toBe(0);
    expect(fixedCellsAgreement([['createdBy', 'bob']], record)).toBe(-1);
  });
});
