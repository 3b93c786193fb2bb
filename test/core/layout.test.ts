// Header mapping: columns found by header text, never by position.
import { describe, expect, it } from 'vitest';
import { decodeBaseRow, encodeBaseRow } from '../../src/core/base';
import type { ColumnSpec } from '../../src/core/columns';
import { contiguousRuns, missingHeaders, readLayout, syncedColumns } from '../../src/core/layout';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Name', type: 'text', kind: 'text', deleted: false },
  { id: 'status', name: 'Status', type: 'text', kind: 'text', deleted: false },
];

describe('readLayout', () => {
  it('sorts headers into table columns, fixed fields, status, gone and own columns', () => {
    const layout = readLayout(['my notes', 'status', 'id', 'title', 'old', '_sync', 'lMod', ''], live, [
      'old',
    ]);
    expect(Object.fromEntries(layout.columns)).toEqual({ status: 1, title: 3 });
    expect(Object.fromEntries(layout.fixed)).toEqual({ id: 2, lMod: 6 });
    expect(layout.status).toBe(5);
    expect(Object.fromEntries(layout.dead)).toEqual({ old: 4 });
    expect(layout.own).toEqual([0, 7]);
  });

  it('treats a repeated table header as the person’s own column and reports it', () => {
    const layout = readLayout(['title', 'title'], live);
    expect(layout.columns.get('title')).toBe(0);
    expect(layout.duplicates).toEqual(['title']);
    expect(layout.own).toEqual([1]);
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
    expect(contiguousRuns(syncedColumns(layout))).toEqual([
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
    const row = encodeBaseRow(record, ['status', 'title', 'gone']);
    expect(row[2]).toBe('12345678abcdefgh--------');
    expect(decodeBaseRow(row, ['status', 'title', 'gone'])).toEqual(record);
  });
});
