// Completing the header row over raw cells: missing headers appended at the right edge (the person's
// columns left where they are), the row frozen when the add-on makes it, nothing appended when
// complete.
import { describe, expect, it } from 'vitest';
import { LineGrid } from '../../../src/core/line-grid';
import { completeHeaders } from '../../../src/core/sync/header-row';
import { MemorySheet, recording } from '../../memory/memory-sheet';
import { HEADERS, layoutOf, live } from './fixtures';

function complete(rows: unknown[][], frozenRows = 0) {
  const sheet = new MemorySheet(rows, { count: 0 });
  sheet.sheet.frozenRows = frozenRows;
  const { cells, calls } = recording(sheet.cells());
  const headers = (rows[0] ?? []).map(String);
  const grid = new LineGrid(
    rows.slice(1).map((row) => [...row]),
    headers.length,
  );
  const layout = completeHeaders(cells, {
    layout: layoutOf(headers),
    grid,
    live,
    deletedIds: [],
    fixedFields: ['id', 'lMod'],
    keepOut: new Set(),
  });
  return { sheet, calls, layout, grid };
}

describe('completing the header row', () => {
  it('writes the whole header row of an empty sheet and freezes it without asking', () => {
    const { sheet, calls, layout } = complete([]);
    expect(sheet.values()[0]).toEqual(['id', 'title', 'amount', 'note', 'lMod', '_sync']);
    expect(layout.status).toBe(5);
    expect(sheet.sheet.frozenRows).toBe(1);
    expect(calls).not.toContain('frozenRows()');
  });

  it("appends the missing headers at the right edge, after the person's own column", () => {
    const { sheet, layout, grid } = complete([
      ['title', 'mine'],
      ['a', 'x'],
    ]);
    expect(sheet.values()).toEqual([
      ['title', 'mine', 'id', 'amount', 'note', 'lMod', '_sync'],
      ['a', 'x', '', '', '', '', ''],
    ]);
    expect(layout.columns.get('title')).toBe(0);
    expect(grid.width).toBe(7);
  });

  it('keeps a freeze of more rows a person made', () => {
    const { sheet, calls } = complete([['title', 'mine']], 2);
    expect(calls).toContain('frozenRows()');
    expect(sheet.sheet.frozenRows).toBe(2);
  });

  it('appends nothing and freezes nothing when every header is there', () => {
    const { sheet, calls } = complete([[...HEADERS.slice(0, 3), 'note', ...HEADERS.slice(3)]]);
    expect(calls.filter((call) => /^(write|freezeRows|frozenRows|ensureColumns)/.test(call))).toEqual([]);
    expect(sheet.values()).toEqual([['id', 'title', 'amount', 'note', 'lMod', '_sync']]);
  });
});
