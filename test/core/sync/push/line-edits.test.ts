// The push side of a line: its edits, a new line's values, reconciling, the base after a write.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { valueDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import { newCellValues } from '../../../../src/core/sync/line-values';
import { baseAfterWrite, cellEdits, reconcileEdits } from '../../../../src/core/sync/push/line-edits';

const columns: ColumnSpec[] = [
  { id: 'title', name: 'Name', type: 'text', kind: 'text', deleted: false, maxLength: 256 },
  { id: 'amount', name: 'Amount', type: 'number', kind: 'number', deleted: false },
];
/** Both columns in the sheet, in column order. */
const inOrder = [0, 1];
const context = { formatDate: () => '2024-01-01' };

function baseOf(values: Record<string, unknown>, lMod = 't1'): BaseRecord {
  return {
    id: 'r1',
    lMod,
    digests: Object.fromEntries(columns.map((c) => [c.id, valueDigest(values[c.id] ?? null, c.kind)])),
  };
}

describe('a push planning one line', () => {
  const base = baseOf({ title: 'A', amount: 1 });

  it('finds only the columns that changed', () => {
    const edits = cellEdits(['A', 7], inOrder, base, columns, context);
    expect(edits.values).toEqual({ amount: 7 });
    expect(edits.errors).toEqual([]);
  });

  it('sends text as strings even when a number was typed', () => {
    expect(cellEdits([42, 1], inOrder, base, columns, context).values).toEqual({ title: '42' });
  });

  it('reports values that cannot be sent', () => {
    expect(cellEdits(['A', 'lots'], inOrder, base, columns, context).errors[0]).toContain('not a number');
  });

  it('ignores blank new lines and creates lines with any value', () => {
    expect(Object.keys(newCellValues(['', ''], inOrder, columns, context).values)).toEqual([]);
    expect(newCellValues(['', 3], inOrder, columns, context).values).toEqual({ amount: 3 });
  });

  it('does not send a field the service changed too (conflict), but sends the others', () => {
    const edits = cellEdits(['mine', 9], inOrder, base, columns, context);
    const reconciled = reconcileEdits(
      edits,
      base,
      { id: 'r1', lMod: 't2', title: 'theirs', amount: 1 },
      columns,
    );
    expect(reconciled.send).toEqual({ amount: 9 });
    expect(reconciled.conflicts).toEqual(['title']);
    expect(reconciled.theirs).toEqual({ title: 'theirs' });
  });

  it('moves the base lMod only when nothing is left unsettled', () => {
    expect(baseAfterWrite(base, { rowId: 'r1', answeredLMod: 't3', settledDigests: {} }).lMod).toBe('t3');
    expect(
      baseAfterWrite(base, { rowId: 'r1', answeredLMod: 't3', settledDigests: {}, stale: true }).lMod,
    ).toBe('t1');
    expect(
      baseAfterWrite(base, {
        rowId: 'r1',
        answeredLMod: 't3',
        settledDigests: {},
        conflict: { lMod: 't2', theirs: {} },
      }).lMod,
    ).toBe('t1');
  });

  it('keeps what the line shows: its fixed fields are not the answer’s until written onto it', () => {
    const shown = { ...baseOf({ title: 'a' }), shown: { lMod: 't0' } };
    const conflict = { lMod: 't2', theirs: {} };
    const record = baseAfterWrite(shown, { rowId: 'r1', answeredLMod: 't3', settledDigests: {}, conflict });
    expect(record).toMatchObject({ lMod: 't1', shown: { lMod: 't0' }, conflict });
  });
});
