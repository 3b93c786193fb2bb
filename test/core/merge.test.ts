// The three-way rules per row: base, sheet line, service row.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../src/core/base';
import { valueDigest } from '../../src/core/codec';
import type { ColumnSpec } from '../../src/core/columns';
import { baseAfterWrite, cellEdits, mergeCells, reconcileEdits } from '../../src/core/merge';
import { lineEdits, mergePulledRow, newLineValues } from './by-column';

const columns: ColumnSpec[] = [
  { id: 'title', name: 'Name', type: 'text', kind: 'text', deleted: false, maxLength: 256 },
  { id: 'amount', name: 'Amount', type: 'number', kind: 'number', deleted: false },
];
const context = { formatDate: () => '2024-01-01' };

function baseOf(values: Record<string, unknown>, lMod = 't1'): BaseRecord {
  return {
    id: 'r1',
    lMod,
    digests: Object.fromEntries(columns.map((c) => [c.id, valueDigest(values[c.id] ?? null, c.kind)])),
  };
}

const cells = (values: Record<string, unknown>) => (id: string) => values[id] ?? '';

describe('a pull merging one row', () => {
  const base = baseOf({ title: 'A', amount: 1 });

  it('takes a value changed on the service only', () => {
    const merged = mergePulledRow(
      { id: 'r1', lMod: 't2', title: 'B', amount: 1 },
      cells({ title: 'A', amount: 1 }),
      base,
      columns,
    );
    expect(merged.outcome).toBe('updated');
    expect(merged.writes.get('title')?.write).toBe('B');
    expect(merged.base.lMod).toBe('t2');
    expect(merged.base.digests.title).toBe(valueDigest('B', 'text'));
  });

  it('keeps a value changed in the sheet only (never throws away unpushed work)', () => {
    const merged = mergePulledRow(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      cells({ title: 'mine', amount: 1 }),
      base,
      columns,
    );
    expect(merged.outcome).toBe('kept-local');
    expect(merged.writes.size).toBe(0);
    expect(merged.base.digests.title).toBe(base.digests.title);
  });

  it('marks a field changed on both sides as a conflict and keeps the local value', () => {
    const merged = mergePulledRow(
      { id: 'r1', lMod: 't2', title: 'theirs', amount: 1 },
      cells({ title: 'mine', amount: 1 }),
      base,
      columns,
    );
    expect(merged.outcome).toBe('conflict');
    expect(merged.conflicts).toEqual(['title']);
    expect(merged.writes.size).toBe(0);
    expect(merged.base.lMod).toBe('t1');
    expect(merged.base.conflict).toEqual({
      lMod: 't2',
      theirs: { title: 'theirs' },
      digests: { title: valueDigest('theirs', 'text') },
    });
  });

  it('merges different fields changed on each side', () => {
    const merged = mergePulledRow(
      { id: 'r1', lMod: 't2', title: 'A', amount: 5 },
      cells({ title: 'mine', amount: 1 }),
      base,
      columns,
    );
    expect(merged.writes.get('amount')?.write).toBe(5);
    expect(merged.keptLocal).toEqual(['title']);
    expect(merged.conflicts).toEqual([]);
  });

  it('sees the same change made on both sides as agreement', () => {
    const merged = mergePulledRow(
      { id: 'r1', lMod: 't2', title: 'same', amount: 1 },
      cells({ title: 'same', amount: 1 }),
      base,
      columns,
    );
    expect(merged.outcome).toBe('unchanged');
    expect(merged.base.digests.title).toBe(valueDigest('same', 'text'));
  });

  it('adds a row new to the sheet with every value', () => {
    const merged = mergePulledRow(
      { id: 'r9', lMod: 't1', title: '00123', amount: null },
      undefined,
      undefined,
      columns,
    );
    expect(merged.outcome).toBe('added');
    expect(merged.writes.get('title')?.write).toBe('00123');
    expect(merged.writes.get('amount')?.write).toBe('');
  });

  it('fills an empty cell of a column new to the base, and flags a differing one', () => {
    const noBase = { id: 'r1', lMod: 't1', digests: {} };
    expect(
      mergePulledRow({ id: 'r1', lMod: 't1', title: 'A', amount: 2 }, cells({}), noBase, columns).outcome,
    ).toBe('updated');
    expect(
      mergePulledRow({ id: 'r1', lMod: 't1', title: 'A', amount: 2 }, cells({ title: 'x' }), noBase, columns)
        .conflicts,
    ).toEqual(['title']);
  });
});

describe('a push planning one line', () => {
  const base = baseOf({ title: 'A', amount: 1 });

  it('finds only the columns that changed', () => {
    const edits = lineEdits(cells({ title: 'A', amount: 7 }), base, columns, context);
    expect(edits.values).toEqual({ amount: 7 });
    expect(edits.errors).toEqual([]);
  });

  it('sends text as strings even when a number was typed', () => {
    expect(lineEdits(cells({ title: 42, amount: 1 }), base, columns, context).values).toEqual({
      title: '42',
    });
  });

  it('reports values that cannot be sent', () => {
    expect(lineEdits(cells({ title: 'A', amount: 'lots' }), base, columns, context).errors[0]).toContain(
      'not a number',
    );
  });

  it('ignores blank new lines and creates lines with any value', () => {
    expect(Object.keys(newLineValues(cells({}), columns, context).values)).toEqual([]);
    expect(newLineValues(cells({ amount: 3 }), columns, context).values).toEqual({ amount: 3 });
  });

  it('does not send a field the service changed too (conflict), but sends the others', () => {
    const edits = lineEdits(cells({ title: 'mine', amount: 9 }), base, columns, context);
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
    expect(baseAfterWrite(base, 'r1', 't3', {}, false, undefined).lMod).toBe('t3');
    expect(baseAfterWrite(base, 'r1', 't3', {}, true, undefined).lMod).toBe('t1');
    expect(baseAfterWrite(base, 'r1', 't3', {}, false, { lMod: 't2', theirs: {} }).lMod).toBe('t1');
  });
});

describe('a column without its single header', () => {
  const base = baseOf({ title: 'A', amount: 1 });
  // The line's cells by position: amount has no header in the sheet (at -1).
  const at = [0, -1];

  it('holds no edits: a push sends nothing for it', () => {
    const edits = cellEdits(['A'], at, base, columns, context);
    expect(edits.values).toEqual({});
    const titleEdited = cellEdits(['B'], at, base, columns, context);
    expect(titleEdited.values).toEqual({ title: 'B' });
  });

  it('is neither written nor counted as a local edit by a pull, and keeps its agreed digest', () => {
    const merged = mergeCells({ id: 'r1', lMod: 't2', title: 'A', amount: 5 }, ['A'], at, base, columns);
    expect(merged.writeAt).toEqual([]);
    expect(merged.keptLocal).toEqual([]);
    expect(merged.outcome).toBe('unchanged');
    expect(merged.base.digests.amount).toBe(base.digests.amount);
  });

  it('keeps the base lMod while the service changed it meanwhile, so a later push is checked', () => {
    const merged = mergeCells({ id: 'r1', lMod: 't2', title: 'A', amount: 5 }, ['A'], at, base, columns);
    expect(merged.base.lMod).toBe('t1');
    expect(merged.same).toBe(false);
  });

  it('takes the service value on every line once a pull adds the column back', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['A', ''],
      [0, 1],
      base,
      columns,
      true,
      [false, true],
    );
    expect(merged.keptLocal).toEqual([]);
    expect(merged.writeAt).toEqual([1]);
    expect(merged.writeCells[0]?.write).toBe(1);
    expect(merged.base.digests.amount).toBe(base.digests.amount);
  });

  it('keeps a value the person typed into the added-back column before the pull filled it (chaos seed 20240220)', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['A', 7],
      [0, 1],
      base,
      columns,
      true,
      [false, true],
    );
    expect(merged.keptLocal).toEqual(['amount']);
    expect(merged.writeAt).toEqual([]);
    expect(merged.base.digests.amount).toBe(base.digests.amount);
  });

  it('refills a cell of the added-back column that holds the agreed value (a killed pull wrote it)', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', title: 'A', amount: 3 },
      ['A', 1],
      [0, 1],
      base,
      columns,
      true,
      [false, true],
    );
    expect(merged.keptLocal).toEqual([]);
    expect(merged.writeAt).toEqual([1]);
    expect(merged.writeCells[0]?.write).toBe(3);
  });
});
