// The three-way rule: per cell (mergeCell), per row (mergeCells), and the push side (edits, reconcile).
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { cellDigest, cutToCell, valueDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import type { Digest } from '../../../../src/core/digest';
import {
  baseAfterWrite,
  type CellFacts,
  type CellOutcome,
  cellEdits,
  type LocalCell,
  mergeCell,
  mergeCells,
  NEW_LINE,
  NOT_IN_SHEET,
  newCellValues,
  reconcileEdits,
} from '../../../../src/core/sync/pull/merge-cells';

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

const d = cellDigest;
const cut = cutToCell('0123456789'.repeat(6000));

describe('the three-way rule for one cell', () => {
  const cases: Array<[string, LocalCell, Digest | undefined, Digest, CellFacts, CellOutcome]> = [
    ['a row new to the sheet takes the service value', NEW_LINE, undefined, d('B'), {}, 'add'],
    ['unchanged on both sides', d('A'), d('A'), d('A'), {}, 'same'],
    ['the same change made on both sides is agreement', d('X'), d('A'), d('X'), {}, 'same'],
    ['changed on the service only: take it', d('A'), d('A'), d('B'), {}, 'take-service'],
    ['changed in the sheet only: keep it', d('mine'), d('A'), d('A'), {}, 'keep-local'],
    ['changed on both to different values', d('mine'), d('A'), d('theirs'), {}, 'conflict'],
    ['cleared in the sheet only is a local edit', d(''), d('A'), d('A'), {}, 'keep-local'],
    ['cleared on the service only is taken', d('A'), d('A'), d(''), {}, 'take-service'],
    ['nothing agreed, an empty cell takes the service value', d(''), undefined, d('B'), {}, 'take-service'],
    ['nothing agreed, a filled cell is for the person to decide', d('x'), undefined, d('B'), {}, 'conflict'],
    ['nothing agreed, the same value is agreement', d('B'), undefined, d('B'), {}, 'same'],
    ['an edited cut value is put back', d('edited'), d(cut), d(cut), { serviceCut: true }, 'restore-cut'],
    [
      'an edited cut value is put back even when the service changed it',
      d('edited'),
      d('A'),
      d(cut),
      { serviceCut: true },
      'restore-cut',
    ],
    ['an unedited cut value is agreement', d(cut), d(cut), d(cut), { serviceCut: true }, 'same'],
    ['a column the sheet lacks, unchanged on the service', NOT_IN_SHEET, d('A'), d('A'), {}, 'absent'],
    ['a column the sheet lacks, nothing agreed', NOT_IN_SHEET, undefined, d('B'), {}, 'absent'],
    ['a column the sheet lacks, changed on the service', NOT_IN_SHEET, d('A'), d('B'), {}, 'absent-changed'],
    ['a just-added column fills its empty cell', d(''), d('A'), d('B'), { columnAdded: true }, 'fill'],
    [
      'a just-added column fills a cell an earlier run wrote',
      d('A'),
      d('A'),
      d('B'),
      { columnAdded: true },
      'fill',
    ],
    [
      'a just-added column fills any cell while nothing is agreed',
      d('x'),
      undefined,
      d('B'),
      { columnAdded: true },
      'fill',
    ],
    [
      'a just-added column writes an empty service value',
      d(''),
      d(''),
      d(''),
      { columnAdded: true },
      'fill-empty',
    ],
    [
      'a just-added column keeps what the person typed',
      d(7),
      d(1),
      d(1),
      { columnAdded: true },
      'keep-local',
    ],
    [
      'a just-added column: typed and changed on the service',
      d(7),
      d(1),
      d(3),
      { columnAdded: true },
      'conflict',
    ],
    ['a just-added column: typed the service value', d(3), d(1), d(3), { columnAdded: true }, 'same'],
  ];
  it.each(cases)('%s', (_, local, base, service, facts, outcome) => {
    expect(mergeCell(local, base, service, facts)).toBe(outcome);
  });

  it('reads a line new to the sheet as new whatever is agreed, and a missing column before that', () => {
    expect(mergeCell(NEW_LINE, d('A'), d('A'), {})).toBe('add');
    expect(mergeCell(NOT_IN_SHEET, undefined, d('A'), { columnAdded: true })).toBe('absent');
  });
});

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
    const withDeleted: BaseRecord = { ...base, digests: { ...base.digests, gone: 42 } };
    const row = { id: 'r1', lMod: 't1', title: 'A', amount: 1 };
    const kept = mergeCells(row, ['A', 1], inOrder, withDeleted, columns, true);
    expect(kept.base.digests).toBe(withDeleted.digests);
    const dropped = mergeCells(row, ['A', 1], inOrder, withDeleted, columns, false);
    expect(dropped.base.digests).toEqual(base.digests);
    expect(dropped.same).toBe(false);
    const changed = mergeCells(
      { ...row, lMod: 't2', amount: 3 },
      ['A', 1],
      inOrder,
      withDeleted,
      columns,
      true,
    );
    expect(changed.base.digests).toEqual({
      gone: 42,
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
      inOrder,
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
      inOrder,
      base,
      columns,
      true,
      [false, true],
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
      true,
      [false, true],
    );
    expect(merged.writeAt).toEqual([1]);
    expect(merged.updated).toEqual([]);
    expect(merged.outcome).toBe('unchanged');
  });
});
