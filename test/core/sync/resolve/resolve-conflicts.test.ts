// Settling conflicts: Keep mine agrees with the service so the cells go out as edits; Take theirs
// writes the service's values; lines are named by row id, so a sort in between settles no other line.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { cellDigest, valueDigest } from '../../../../src/core/codec';
import { indexLines } from '../../../../src/core/lines';
import { STATUS } from '../../../../src/core/status';
import { cellEdits } from '../../../../src/core/sync/push/line-edits';
import {
  chosenRowIds,
  keepChoiceOf,
  resolveConflictLines,
} from '../../../../src/core/sync/resolve/resolve-conflicts';
import {
  AMOUNT,
  agreed,
  baseOf,
  decode,
  gridOf,
  layoutOf,
  line,
  live,
  STATUS_COLUMN,
  TITLE,
} from '../fixtures';

/** Row `id` agreed on ('first', 1) at t1; the service changed title to `theirs` at t2, the line says 'mine'. */
function inConflict(id: string, theirs: string, known = true): BaseRecord {
  return {
    ...agreed(id, 't1', 'first', 1),
    conflict: {
      lMod: 't2',
      theirs: known ? { title: theirs } : {},
      digests: { title: valueDigest(theirs, 'text') },
      by: 'u2',
    },
  };
}

function sheetOf(lines: unknown[][], records: BaseRecord[]) {
  const grid = gridOf(lines);
  const layout = layoutOf();
  const base = baseOf(records);
  return { grid, layout, base, live, index: indexLines(grid, layout) };
}

describe('resolving conflicts', () => {
  const conflictLines = () => [
    line('r1', 'mine 1', 1, 't1', '⚠ conflict'),
    line('r2', 'mine 2', 1, 't1', '⚠ conflict'),
    line('r3', 'plain', 1, 't1'),
  ];
  const records = () => [
    inConflict('r1', 'theirs 1'),
    inConflict('r2', 'theirs 2'),
    agreed('r3', 't1', 'plain', 1),
  ];

  it('keep mine: cells stay, the base agrees with the service, so the cells read as edits to push', () => {
    const sheet = sheetOf(conflictLines(), records());
    const resolved = resolveConflictLines({ ...sheet, keep: 'mine', rowIds: null });
    expect(resolved).toEqual({ lines: 2, pullAfter: false });
    expect(sheet.grid.get(0, TITLE)).toBe('mine 1');
    expect(sheet.grid.get(0, STATUS_COLUMN)).toBe(STATUS.keepingMine);
    const record = sheet.base.get('r1') as BaseRecord;
    expect(record.conflict).toBeUndefined();
    expect(record.lMod).toBe('t2');
    expect(record.digests.title).toBe(valueDigest('theirs 1', 'text'));
    const at = live.map((column) => sheet.layout.columns.get(column.id) ?? -1);
    const edits = cellEdits(sheet.grid.lineCells(0) as unknown[], at, record, live, decode);
    expect(edits.values).toEqual({ title: 'mine 1' });
    // A line without a conflict is left alone.
    expect(sheet.grid.get(2, STATUS_COLUMN)).toBe('');
    expect(sheet.base.get('r3')).toEqual(agreed('r3', 't1', 'plain', 1));
  });

  it('take theirs: the service values go into the cells and the line is in sync', () => {
    const sheet = sheetOf(conflictLines(), records());
    resolveConflictLines({ ...sheet, keep: 'theirs', rowIds: null });
    expect(sheet.grid.get(1, TITLE)).toBe('theirs 2');
    expect(sheet.grid.get(1, AMOUNT)).toBe(1);
    expect(sheet.grid.get(1, STATUS_COLUMN)).toBe(STATUS.inSync);
    expect(sheet.base.get('r2')).toMatchObject({
      lMod: 't2',
      digests: { title: valueDigest('theirs 2', 'text') },
    });
  });

  it('settles only the rows named, wherever a sort has moved them', () => {
    // Sorted since the person chose r2 (then on sheet row 3): r2 is now the first line.
    const [first, second, third] = conflictLines();
    const sheet = sheetOf([second as unknown[], first as unknown[], third as unknown[]], records());
    const resolved = resolveConflictLines({ ...sheet, keep: 'theirs', rowIds: new Set(['r2']) });
    expect(resolved.lines).toBe(1);
    expect(sheet.grid.get(0, TITLE)).toBe('theirs 2');
    expect(sheet.grid.get(1, TITLE)).toBe('mine 1');
    expect(sheet.base.get('r1')?.conflict).toBeDefined();
  });

  it('leaves a row id carried by two lines alone: neither line is known to be the row', () => {
    // A person copied the line, id and all: writing theirs onto either copy is a guess.
    const copy = line('r1', 'copy of mine 1', 1, 't1', '⚠ conflict');
    const sheet = sheetOf([...conflictLines(), copy], records());
    const resolved = resolveConflictLines({ ...sheet, keep: 'theirs', rowIds: null });
    expect(resolved.lines).toBe(1);
    expect(sheet.grid.get(0, TITLE)).toBe('mine 1');
    expect(sheet.grid.get(0, STATUS_COLUMN)).toBe('⚠ conflict');
    expect(sheet.grid.get(3, TITLE)).toBe('copy of mine 1');
    expect(sheet.base.get('r1')?.conflict).toBeDefined();
    expect(sheet.grid.get(1, TITLE)).toBe('theirs 2');
  });

  it('take theirs of a value too large for the base: the cell stays agreed for now and a pull must follow', () => {
    const sheet = sheetOf([line('r1', 'mine 1', 1, 't1', '⚠ conflict')], [inConflict('r1', 'huge', false)]);
    expect(resolveConflictLines({ ...sheet, keep: 'theirs', rowIds: null })).toEqual({
      lines: 1,
      pullAfter: true,
    });
    expect(sheet.grid.get(0, TITLE)).toBe('mine 1');
    expect(sheet.base.get('r1')?.digests.title).toBe(cellDigest('mine 1'));
  });

  it('reads the choice and rows a person sent, refusing anything else with what to do', () => {
    expect(keepChoiceOf({ keep: 'mine' })).toBe('mine');
    expect(() => keepChoiceOf({ keep: 'both' })).toThrow('Choose Keep mine or Take theirs.');
    expect(() => keepChoiceOf(null)).toThrow('Choose Keep mine or Take theirs.');
    expect(chosenRowIds({ keep: 'mine' })).toBeNull();
    expect(chosenRowIds({ keep: 'mine', rowIds: [] })).toBeNull();
    expect(chosenRowIds({ keep: 'mine', rowIds: ['r1', 2] })).toEqual(new Set(['r1', '2']));
    expect(() => chosenRowIds({ keep: 'mine', rowIds: 'r1' })).toThrow(/list of row ids/);
  });
});
