// A pull's merge of one row (mergeCells), and a column without its single header on both sides.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { valueDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import { mergeCells } from '../../../../src/core/sync/pull/merge-cells';
import { cellEdits } from '../../../../src/core/sync/push/line-edits';

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

describe('a pull merging one row', () => {
  const base = baseOf({ title: 'A', amount: 1 });

  it('writes a value changed on the service only and agrees at the service lMod', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', title: 'B', amount: 1 },
      ['A', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.outcome).toBe('updated');
    expect(merged.updated).toEqual(['title']);
    expect(merged.writeAt).toEqual([0]);
    expect(merged.writeCells.map((cell) => cell.write)).toEqual(['B']);
    expect(merged.base.lMod).toBe('t2');
    expect(merged.base.digests).toEqual({ title: valueDigest('B', 'text'), amount: base.digests.amount });
  });

  it('keeps a value changed in the sheet only, and its agreed digest', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['mine', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.outcome).toBe('kept-local');
    expect(merged.keptLocal).toEqual(['title']);
    expect(merged.writeAt).toEqual([]);
    expect(merged.base.digests.title).toBe(base.digests.title);
  });

  it('records a conflict with the service values and keeps the base lMod', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', lModBy: 'ana', title: 'theirs', amount: 1 },
      ['mine', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.outcome).toBe('conflict');
    expect(merged.conflicts).toEqual(['title']);
    expect(merged.writeAt).toEqual([]);
    expect(merged.base.lMod).toBe('t1');
    expect(merged.base.conflict).toEqual({
      lMod: 't2',
      by: 'ana',
      theirs: { title: 'theirs' },
      digests: { title: valueDigest('theirs', 'text') },
    });
  });

  it('merges different fields changed on each side; the row outcome is the strongest cell', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', title: 'A', amount: 5 },
      ['mine', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.outcome).toBe('kept-local');
    expect(merged.writeAt).toEqual([1]);
    expect(merged.writeCells[0]?.write).toBe(5);
    expect(merged.updated).toEqual(['amount']);
    expect(merged.keptLocal).toEqual(['title']);
    const both = mergeCells(
      { id: 'r1', lMod: 't2', title: 'B', amount: 5 },
      ['mine', 1],
      inOrder,
      base,
      columns,
    );
    expect(both.outcome).toBe('conflict');
    expect(both.updated).toEqual(['amount']);
  });

  it('returns the base record itself for a row nothing changed in', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['A', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.same).toBe(true);
    expect(merged.base).toBe(base);
    expect(merged.outcome).toBe('unchanged');
  });

  it('sees the same change made on both sides as agreement at the new value', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', title: 'same', amount: 1 },
      ['same', 1],
      inOrder,
      base,
      columns,
    );
    expect(merged.outcome).toBe('unchanged');
    expect(merged.same).toBe(false);
    expect(merged.base.digests.title).toBe(valueDigest('same', 'text'));
    expect(merged.base.lMod).toBe('t2');
  });

  it('adds a row new to the sheet with every value', () => {
    const merged = mergeCells(
      { id: 'r9', lMod: 't1', title: '00123', amount: null },
      undefined,
      inOrder,
      undefined,
      columns,
    );
    expect(merged.outcome).toBe('added');
    expect(merged.writeAt).toEqual([0, 1]);
    expect(merged.writeCells.map((cell) => cell.write)).toEqual(['00123', '']);
    expect(merged.updated).toEqual([]);
  });

  it('fills an empty cell of a column new to the base, and flags a differing one', () => {
    const noBase = { id: 'r1', lMod: 't1', digests: {} };
    const filled = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 2 },
      ['', ''],
      inOrder,
      noBase,
      columns,
    );
    expect(filled.outcome).toBe('updated');
    expect(filled.updated).toEqual(['title', 'amount']);
    const flagged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 2 },
      ['x', ''],
      inOrder,
      noBase,
      columns,
    );
    expect(flagged.conflicts).toEqual(['title']);
    // Nothing is agreed for the conflicting cell yet.
    expect(Object.keys(flagged.base.digests)).toEqual(['amount']);
  });

  it('reads a line shorter than the sheet as empty cells', () => {
    const noBase = { id: 'r1', lMod: 't1', digests: {} };
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 2 },
      ['A'],
      inOrder,
      noBase,
      columns,
    );
    expect(merged.updated).toEqual(['amount']);
  });

  it('keeps the digests of deleted columns only while the base may hold them', () => {
    const withDeleted: BaseRecord = { ...base, digests: { ...base.digests, deleted: 42 } };
    const row = { id: 'r1', lMod: 't1', title: 'A', amount: 1 };
    const kept = mergeCells(row, ['A', 1], inOrder, withDeleted, columns, { mayHoldDeleted: true });
    expect(kept.base.digests).toBe(withDeleted.digests);
    const dropped = mergeCells(row, ['A', 1], inOrder, withDeleted, columns, { mayHoldDeleted: false });
    expect(dropped.base.digests).toEqual(base.digests);
    expect(dropped.same).toBe(false);
    const changed = mergeCells({ ...row, lMod: 't2', amount: 3 }, ['A', 1], inOrder, withDeleted, columns, {
      mayHoldDeleted: true,
    });
    expect(changed.base.digests).toEqual({
      deleted: 42,
      title: base.digests.title,
      amount: valueDigest(3, 'number'),
    });
  });

  it('shares no list between rows that callers could change', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['A', 1],
      inOrder,
      base,
      columns,
    );
    expect(Object.isFrozen(merged.updated)).toBe(true);
    expect(Object.isFrozen(merged.writeAt)).toBe(true);
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

  it('agrees nothing for it on a line new to the sheet, whatever the base holds', () => {
    const merged = mergeCells({ id: 'r1', lMod: 't2', title: 'A', amount: 5 }, undefined, at, base, columns);
    expect(merged.outcome).toBe('added');
    expect(merged.writeAt).toEqual([0]);
    expect(merged.base.digests).toEqual({ title: base.digests.title });
    expect(merged.base.lMod).toBe('t2');
  });

  it('takes the service value on every line once a pull adds the column back', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: 1 },
      ['A', ''],
      inOrder,
      base,
      columns,
      { freshColumns: [false, true] },
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
      inOrder,
      base,
      columns,
      { freshColumns: [false, true] },
    );
    expect(merged.keptLocal).toEqual(['amount']);
    expect(merged.writeAt).toEqual([]);
    expect(merged.base.digests.amount).toBe(base.digests.amount);
  });

  it('refills a cell of the added-back column that holds the agreed value (a killed pull wrote it)', () => {
    const merged = mergeCells(
      { id: 'r1', lMod: 't2', title: 'A', amount: 3 },
      ['A', 1],
      inOrder,
      base,
      columns,
      { freshColumns: [false, true] },
    );
    expect(merged.keptLocal).toEqual([]);
    expect(merged.writeAt).toEqual([1]);
    expect(merged.writeCells[0]?.write).toBe(3);
    expect(merged.updated).toEqual(['amount']);
  });

  it('writes an empty service value into the added-back column without counting it updated', () => {
    const emptyBase = baseOf({ title: 'A', amount: null });
    const merged = mergeCells(
      { id: 'r1', lMod: 't1', title: 'A', amount: null },
      ['A', ''],
      inOrder,
      emptyBase,
      columns,
      { freshColumns: [false, true] },
    );
    expect(merged.writeAt).toEqual([1]);
    expect(merged.updated).toEqual([]);
    expect(merged.outcome).toBe('unchanged');
  });
});
