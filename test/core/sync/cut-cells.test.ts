// Values longer than a cell holds: a marked prefix, read-only, never sent cut.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../src/core/base';
import {
  cutToCell,
  encodeCell,
  isCutCell,
  isCutRead,
  isOverCellLimit,
  MAX_CELL_CHARS,
  valueDigest,
} from '../../../src/core/codec';
import type { ColumnKind, ColumnSpec } from '../../../src/core/columns';
import { mergeCells } from '../../../src/core/sync/pull/merge-cells';
import { cellEdits } from '../../../src/core/sync/push/line-edits';

const columns: ColumnSpec[] = [{ id: 'long', name: 'Long', type: 'text', kind: 'text', deleted: false }];
const long = '0123456789'.repeat(6000);

describe('a value longer than a cell', () => {
  it('shows as a marked prefix that fits, the same every time', () => {
    const shown = cutToCell(long);
    expect(shown.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(shown).toContain(long.slice(0, 1000));
    expect(shown).toContain('60000 characters');
    expect(encodeCell(long, 'text').write).toBe(shown);
    expect(isCutRead(shown)).toBe(true);
    expect(cutToCell('short')).toBe('short');
    // JSON too: marked, never a silently invalid JSON cut.
    expect(isCutRead(encodeCell({ text: 'y'.repeat(60_000) }, 'json').write)).toBe(true);
  });

  it('is never sent when edited, whichever end of the mark survives', () => {
    const shown = cutToCell(long);
    const base: BaseRecord = { id: 'r1', lMod: 't1', digests: { long: valueDigest(long, 'text') } };
    const context = { formatDate: () => '' };
    for (const edited of [`x${shown.slice(1)}`, `${shown.slice(0, -1)}z`]) {
      expect(isCutCell(edited)).toBe(true);
      const edits = cellEdits([edited], [0], base, columns, context);
      expect(edits.values).toEqual({});
      expect(edits.errors[0]).toMatch(/long: .*longer than a cell holds/);
    }
  });

  it('is put back by a pull when its cell was edited', () => {
    const base: BaseRecord = { id: 'r1', lMod: 't1', digests: { long: valueDigest(long, 'text') } };
    const merged = mergeCells({ id: 'r1', lMod: 't1', long }, ['edited'], [0], base, columns);
    expect(merged.restoredCut).toEqual(['long']);
    expect(merged.writeCells[0]?.write).toBe(cutToCell(long));
    expect(merged.keptLocal).toEqual([]);
  });
});

describe('a service value over the cell limit (isOverCellLimit)', () => {
  it('is exactly a value its cell shows cut, in every kind of column', () => {
    const atLimit = 'x'.repeat(MAX_CELL_CHARS);
    const values: unknown[] = [
      null,
      undefined,
      '',
      'short',
      atLimit,
      `${atLimit}x`,
      12.5,
      Number.NaN,
      true,
      { text: 'y'.repeat(MAX_CELL_CHARS) },
      ['z'.repeat(MAX_CELL_CHARS - 4)],
      ['z'.repeat(MAX_CELL_CHARS - 3)],
    ];
    const kinds: ColumnKind[] = ['text', 'json', 'number', 'boolean'];
    for (const kind of kinds) {
      for (const value of values) {
        expect(isOverCellLimit(value, kind), `${kind} ${String(value).slice(0, 20)}`).toBe(
          encodeCell(value, kind).truncated === true,
        );
      }
    }
    expect(isOverCellLimit(`${atLimit}x`, 'text')).toBe(true);
    expect(isOverCellLimit(`${atLimit}x`, 'number')).toBe(true);
    expect(isOverCellLimit(atLimit, 'text')).toBe(false);
    // In a JSON column a string shows quoted: two characters more.
    expect(isOverCellLimit(atLimit, 'json')).toBe(true);
  });
});
