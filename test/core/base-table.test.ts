// The base table: which base-sheet cells a flush rewrites.
import { describe, expect, it } from 'vitest';
import { type BaseRecord, decodeBaseRow, encodeBaseRow } from '../../src/core/base';
import { BaseTable } from '../../src/core/base-table';

const COLUMNS = ['title', 'count'];
const record = (id: string, lMod: string): BaseRecord => ({ id, lMod, digests: { title: 1, count: 2 } });
const stored = (ids: string[]): string[][] => ids.map((id) => encodeBaseRow(record(id, 't0'), COLUMNS));

describe('BaseTable.takeDirtySpans', () => {
  it('rewrites only the record and seen cells of rows whose ids stand', () => {
    const base = new BaseTable(stored(['a', 'b', 'c']), [...COLUMNS]);
    base.set({ ...record('b', 't1'), seen: 'p1' });
    const [span, ...more] = base.takeDirtySpans();
    expect(more).toEqual([]);
    expect(span?.withIds).toBe(false);
    expect(span?.start).toBe(1);
    expect(span?.rows).toEqual([encodeBaseRow({ ...record('b', 't1'), seen: 'p1' }, COLUMNS).slice(1)]);
  });

  it('writes the id cells of a span where a row was added or forgotten', () => {
    const base = new BaseTable(stored(['a', 'b']), [...COLUMNS]);
    base.set(record('b', 't1'));
    base.set(record('n', 't1'));
    const [joined] = base.takeDirtySpans();
    expect(joined?.withIds).toBe(true);
    expect(joined?.rows.map((row) => decodeBaseRow(row, COLUMNS)?.id)).toEqual(['b', 'n']);

    base.delete('a');
    const [blanked] = base.takeDirtySpans();
    // Blanked as its id and record cells: the seen cell is only ever written apart (takeSeenSpans).
    expect(blanked).toMatchObject({ start: 0, withIds: true, rows: [['', '']] });
    // Once written, the same rows go back to record-only writes.
    base.set(record('n', 't2'));
    expect(base.takeDirtySpans()[0]?.withIds).toBe(false);
  });
});

describe('a base record and its id cell', () => {
  it('carries a check of its id and cell: either changed by hand stops the run; older records read as before', () => {
    const record: BaseRecord = { id: 'r7', lMod: '2025-01-01T00:00:00.000Z', digests: {} };
    const [id, cell] = encodeBaseRow(record, []) as [string, string];
    expect(decodeBaseRow([id, cell], [])).toMatchObject({ id: 'r7' });
    expect(() => decodeBaseRow(['typed by hand', cell], [])).toThrow(/hidden base sheet was changed by hand/);
    // The record cell edited, or typed over: stopped too.
    expect(() => decodeBaseRow([id, cell.replace('2025', '2026')], [])).toThrow(/changed by hand/);
    expect(() => decodeBaseRow([id, '42'], [])).toThrow(/changed by hand/);
    const pending: BaseRecord = { ...record, id: 'pending:m1', sentBy: 'u-ann' };
    const [, pendingCell] = encodeBaseRow(pending, []) as [string, string];
    expect(decodeBaseRow(['pending:m1', pendingCell], [])).toMatchObject({ sentBy: 'u-ann' });
    // Written before the check: lMod, digests, shown, conflict (and the sender) only.
    expect(decodeBaseRow(['r7', '2025-01-01T00:00:00.000Z\t\t\t'], [])).toMatchObject({ id: 'r7' });
    expect(decodeBaseRow(['x', '2025-01-01T00:00:00.000Z\t\t\t\tu-ann'], [])).toMatchObject({
      sentBy: 'u-ann',
    });
  });
});

describe('what a record says its line shows', () => {
  it('keeps the fields the line still shows beside the shown ones, and reads older records as before', () => {
    const lost: BaseRecord = {
      id: 'r1',
      lMod: 't3',
      digests: { title: 1 },
      shown: { lMod: 't3', cOn: 'c1' },
      lineShows: { lMod: 't1', cOn: 'c1' },
    };
    expect(decodeBaseRow(encodeBaseRow(lost, COLUMNS), COLUMNS)).toEqual(lost);
    const { shown: _shown, ...noShown } = lost;
    expect(decodeBaseRow(encodeBaseRow(noShown, COLUMNS), COLUMNS)).toEqual(noShown);
    const plain: BaseRecord = { id: 'r2', lMod: 't2', digests: { title: 1 }, shown: { lMod: 't2' } };
    const decoded = decodeBaseRow(encodeBaseRow(plain, COLUMNS), COLUMNS);
    expect(decoded).toEqual(plain);
    expect(decoded).not.toHaveProperty('lineShows');
  });
});
