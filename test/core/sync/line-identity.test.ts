// Which row a line whose lMod a batch of rows shares holds the values of (the id-swap check), found by
// value however large the batch.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../src/core/base';
import { BaseTable } from '../../../src/core/base-table';
import { cellDigestFor } from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import { cellDigestsOf, LModOwners, rowWhoseValuesItHolds } from '../../../src/core/sync/line-identity';

const LMOD = '2026-01-05T08:00:00.000Z';
const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'status', name: 'Status', type: 'text', kind: 'text', deleted: false },
];
const recordOf = (id: string, title: string, status: string): BaseRecord => ({
  id,
  lMod: LMOD,
  digests: { title: cellDigestFor(title, 'text'), status: cellDigestFor(status, 'text') },
});

/** A batch of `count` rows sharing one lMod (rN, title tN, status `status`), plus `extra`. */
function batch(count: number, status: string, extra: BaseRecord[] = []): BaseTable {
  const base = new BaseTable([], ['title', 'status']);
  for (let i = 1; i <= count; i++) base.set(recordOf(`r${i}`, `t${i}`, status));
  for (const record of extra) base.set(record);
  return base;
}

/** The row a line claiming `own` and holding `cells` is found to be, no line of any other row shown. */
function heldRow(base: BaseTable, own: string, cells: Record<string, string>): string | undefined {
  const lines: Array<Record<string, string>> = [cells];
  const cellsOfLine = (line: number) => (column: ColumnSpec) => lines[line]?.[column.id];
  return rowWhoseValuesItHolds(
    0,
    cellDigestsOf(cellsOfLine(0), live),
    cellsOfLine,
    () => undefined,
    live,
    new LModOwners(base),
    LMOD,
    base.get(own) as BaseRecord,
  );
}

describe('a line whose lMod a batch of rows shares', () => {
  it('holding its own values is no other row, in a batch of 5,000', () => {
    expect(heldRow(batch(5_000, 'open'), 'r7', { title: 't7', status: 'open' })).toBeUndefined();
  });

  it("holding another row's values (ids swapped) is that row", () => {
    expect(heldRow(batch(300, 'open'), 'r1', { title: 't2', status: 'open' })).toBe('r2');
  });

  it('a value most of the batch holds typed into it (a status filled down) makes it no other row', () => {
    const base = batch(300, 'won', [recordOf('own', 'only title', 'open')]);
    expect(heldRow(base, 'own', { title: 'only title', status: 'won' })).toBeUndefined();
  });

  it('holding such a value, it is the one row that differs from its own in that value alone', () => {
    // Two rows alike but for their status; the batch's other rows hold the line's status too.
    const base = batch(300, 'won', [recordOf('a', 'same', 'open'), recordOf('b', 'same', 'won')]);
    expect(heldRow(base, 'a', { title: 'same', status: 'won' })).toBe('b');
  });
});
