// Header mapping: columns found by header text, never by position.
import { describe, expect, it } from 'vitest';
import { decodeBaseRow, encodeBaseRow, MAX_BASE_CELL } from '../../src/core/base';
import type { ColumnSpec } from '../../src/core/columns';
import {
  a1Notation,
  adjacentColumnGroups,
  columnLetters,
  headerProblems,
  joinRowBlocks,
  missingHeaders,
  readLayout,
  renamedColumns,
  syncedColumns,
} from '../../src/core/layout';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Name', type: 'text', kind: 'text', deleted: false },
  { id: 'status', name: 'Status', type: 'text', kind: 'text', deleted: false },
];

describe('readLayout', () => {
  it('sorts headers into table columns, fixed fields, status, deleted and own columns', () => {
    const layout = readLayout(['my notes', 'status', 'id', 'title', 'old', '_sync', 'lMod', ''], live, [
      'old',
    ]);
    expect(Object.fromEntries(layout.columns)).toEqual({ status: 1, title: 3 });
    expect(Object.fromEntries(layout.fixed)).toEqual({ id: 2, lMod: 6 });
    expect(layout.status).toBe(5);
    expect(Object.fromEntries(layout.deleted)).toEqual({ old: 4 });
    expect(layout.own).toEqual([0, 7]);
  });

  it('syncs neither column of a repeated table header, and reports it', () => {
    const layout = readLayout(['title', 'id', 'title', 'title'], live);
    expect(layout.columns.has('title')).toBe(false);
    expect(layout.duplicates).toEqual(['title']);
    expect(layout.blocked.get('title')).toEqual([0, 2, 3]);
    expect(layout.own).toEqual([]);
    expect(syncedColumns(layout)).toEqual([1]);
    // No third copy is appended while the header is repeated.
    expect(missingHeaders(layout, live, ['id', 'lMod'])).toEqual(['status', 'lMod', '_sync']);
    expect(headerProblems(layout, live, [])).toEqual([
      { columnId: 'title', kind: 'repeated', sheetColumns: [1, 3, 4] },
    ]);
  });

  it('syncs neither column of a repeated fixed field and adds no third', () => {
    const layout = readLayout(['id', 'title', 'lMod', 'lMod', '_sync'], live);
    expect(layout.fixed.has('lMod')).toBe(false);
    expect(layout.blocked.get('lMod')).toEqual([2, 3]);
    expect(missingHeaders(layout, live, ['id', 'lMod'])).toEqual(['status']);
  });

  it('matches a column id with surrounding spaces to its (trimmed) header', () => {
    const spaced: ColumnSpec[] = [
      { id: ' notes ', name: 'Notes', type: 'text', kind: 'text', deleted: false },
    ];
    const layout = readLayout(['id', 'notes', '_sync'], spaced);
    expect(layout.columns.get(' notes ')).toBe(1);
    expect(missingHeaders(layout, spaced, ['id', 'lMod'])).toEqual(['lMod']);
  });

  it('recognises a renamed synced column by its agreed values, and a deleted one by none', () => {
    const layout = readLayout(['id', 'My title', 'other', '_sync'], live);
    const agreed = (columnId: string, sheetColumn: number): [number, number] =>
      columnId === 'title' && sheetColumn === 1 ? [9, 10] : [1, 10];
    const renamed = renamedColumns(layout, live, ['title', 'status'], agreed);
    expect([...renamed]).toEqual([['title', 1]]);
    expect(missingHeaders(layout, live, ['id', 'lMod'], new Set(renamed.keys()))).toEqual(['status', 'lMod']);
    expect(headerProblems(layout, live, ['title'], renamed)).toEqual([
      { columnId: 'title', kind: 'renamed', sheetColumns: [2], renamedTo: 'My title' },
    ]);
    expect([...renamedColumns(layout, live, ['title'], () => [5, 10])]).toEqual([]);
    // Renamed after a few of its cells were edited (interleavings seed 708): 7 of 10 still agree.
    expect([...renamedColumns(layout, live, ['title'], (_id, at) => (at === 1 ? [7, 10] : [0, 10]))]).toEqual(
      [['title', 1]],
    );
  });

  it('names the synced columns whose header is gone, and only those the sheet had synced', () => {
    const layout = readLayout(['id', 'My title', '_sync'], live);
    expect(headerProblems(layout, live, ['title', 'old'])).toEqual([
      { columnId: 'title', kind: 'missing', sheetColumns: [] },
    ]);
    // A column new on the service is not "missing": the next pull adds it.
    expect(headerProblems(layout, live, [])).toEqual([]);
  });

  it('lists the headers a fresh sheet needs, id first and status last', () => {
    expect(missingHeaders(readLayout([], live), live, ['id', 'lMod'])).toEqual([
      'id',
      'title',
      'status',
      'lMod',
      '_sync',
    ]);
    expect(missingHeaders(readLayout(['id', 'title', 'lMod', '_sync'], live), live, ['id', 'lMod'])).toEqual([
      'status',
    ]);
  });

  it('groups synced columns into runs around the person’s own columns', () => {
    const layout = readLayout(['id', 'title', 'mine', 'status', 'lMod', '_sync'], live);
    expect(adjacentColumnGroups(syncedColumns(layout))).toEqual([
      [0, 2],
      [3, 3],
    ]);
  });
});

describe('base rows', () => {
  it('round-trip with digests in a fixed column order, conflicts and shown fields', () => {
    const record = {
      id: 'r1',
      lMod: '2024-01-01T00:00:00.000Z',
      digests: { title: parseInt('abcdefgh', 36), status: parseInt('12345678', 36) },
      conflict: { lMod: 't2', theirs: { title: 'x' }, digests: { title: 7 } },
      shown: { lMod: 't2' },
      seen: 'p1',
    };
    // Written as its id and record cells: the seen cell is written apart, by a continuing pull only.
    const row = encodeBaseRow(record, ['status', 'title', 'deleted']);
    expect(row).toHaveLength(2);
    expect(row[1]?.split('\t').slice(0, 2)).toEqual(['2024-01-01T00:00:00.000Z', '12345678abcdefgh--------']);
    const { seen: _seen, ...unseen } = record;
    expect(decodeBaseRow(row, ['status', 'title', 'deleted'])).toEqual(unseen);
    // Read with a seen cell beside it (a continuing pull reads three columns), the mark comes back.
    expect(decodeBaseRow([...row, 'p1'], ['status', 'title', 'deleted'])).toEqual(record);
  });

  it('keep tabs and newlines inside values from splitting the record cell', () => {
    const record = {
      id: 'r2',
      lMod: 'odd\tlMod',
      digests: { title: 1 },
      conflict: { lMod: 't\t3', theirs: { title: 'a\tb\nc' }, digests: { title: 2 } },
      shown: { createdBy: 'x\ty' },
    };
    const decoded = decodeBaseRow(encodeBaseRow(record, ['title']), ['title']);
    expect(decoded).toEqual({ ...record, lMod: 'odd lMod' });
  });

  it('keep a pending create’s sender, and read records written before senders were kept', () => {
    const pending = {
      id: 'pending:abc',
      lMod: '2024-01-01T00:00:00.000Z',
      digests: { title: 9 },
      sentBy: 'u_alice',
    };
    const row = encodeBaseRow(pending, ['title']);
    expect(decodeBaseRow(row, ['title'])).toEqual(pending);
    // An older record cell ends with the conflict part: no sender, and the conflict still reads.
    const older = ['r5', `t1\t${'9'.padStart(8, '0')}\t\t{"lMod":"t2","theirs":{"title":"x"}}`];
    expect(decodeBaseRow(older, ['title'])).toEqual({
      id: 'r5',
      lMod: 't1',
      digests: { title: 9 },
      conflict: { lMod: 't2', theirs: { title: 'x' } },
    });
  });

  it('store no digest for a column id an ordinary object inherits, such as constructor', () => {
    const record = { id: 'r4', lMod: 't1', digests: { title: 5 } as Record<string, number> };
    const row = encodeBaseRow(record, ['constructor', 'title', 'toString']);
    expect(row[1]?.split('\t')[1]).toBe(`--------${'5'.padStart(8, '0')}--------`);
    expect(decodeBaseRow(row, ['constructor', 'title', 'toString'])?.digests).toEqual({ title: 5 });
  });

  it('fit a record with a huge conflict into one cell, dropping the largest theirs values first', () => {
    const big = 'x'.repeat(30_000);
    const record = {
      id: 'r3',
      lMod: 't1',
      digests: { a: 1, b: 2, c: 3 },
      conflict: { lMod: 't2', theirs: { a: big, b: big, c: 'small' }, digests: { a: 4, b: 5, c: 6 } },
    };
    const row = encodeBaseRow(record, ['a', 'b', 'c']);
    expect(row[1]?.length).toBeLessThanOrEqual(MAX_BASE_CELL);
    const decoded = decodeBaseRow(row, ['a', 'b', 'c']);
    expect(decoded?.conflict?.digests).toEqual({ a: 4, b: 5, c: 6 });
    expect(Object.keys(decoded?.conflict?.theirs ?? {}).sort()).toEqual(['b', 'c']);
  });
});

describe('A1 notation and row blocks', () => {
  it('names columns past Z as Sheets does', () => {
    expect([1, 26, 27, 52, 53, 702, 703, 18278].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'ZZZ',
    ]);
    expect(a1Notation(2, 27, 5000, 3)).toBe('AA2:AC5001');
    expect(a1Notation(7, 1, 1, 1)).toBe('A7:A7');
  });

  it('joins blocks that overlap or touch, and keeps apart those that do not', () => {
    expect(
      joinRowBlocks([
        [1001, 4101],
        [2, 5000],
      ]),
    ).toEqual([[2, 5100]]);
    expect(
      joinRowBlocks([
        [2, 10],
        [12, 5],
      ]),
    ).toEqual([[2, 15]]);
    expect(
      joinRowBlocks([
        [2, 10],
        [13, 5],
      ]),
    ).toEqual([
      [2, 10],
      [13, 5],
    ]);
    expect(
      joinRowBlocks([
        [5, 2],
        [2, 10],
      ]),
    ).toEqual([[2, 10]]);
    expect(joinRowBlocks([])).toEqual([]);
  });
});
