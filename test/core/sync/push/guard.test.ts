// The accident guard: which push plans are held, and that ordinary edits go out unasked.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { cellDigest, type JsonValue } from '../../../../src/core/codec';
import {
  countValuedLines,
  GUARD_MIN_LINES,
  type GuardUpdate,
  guardPush,
  withoutHeld,
} from '../../../../src/core/sync/push/guard';
import type { LineEdits } from '../../../../src/core/sync/push/line-edits';

const COLUMNS = ['title', 'status', 'amount'];

/** A table of `count` lines: title "Deal i", status "open", amount i. */
function records(count: number): BaseRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    lMod: 't1',
    digests: { title: cellDigest(`Deal ${i}`), status: cellDigest('open'), amount: cellDigest(i) },
  }));
}

function update(record: BaseRecord, line: number, changes: Record<string, JsonValue>): GuardUpdate {
  const edits: LineEdits = { values: {}, digests: {}, errors: [] };
  for (const [id, value] of Object.entries(changes)) {
    edits.values[id] = value;
    edits.digests[id] = cellDigest(value === null ? '' : (value as string | number));
  }
  return { line, rowId: record.id, base: record, edits };
}

function verdict(all: BaseRecord[], updates: GuardUpdate[]) {
  return guardPush({
    updates,
    columnIds: COLUMNS,
    syncedLines: all.length,
    valuedLines: countValuedLines(all, COLUMNS),
  });
}

describe('the accident guard', () => {
  it('lets a fill-down of 5 cells and a correction of 9 lines go out', () => {
    const all = records(25);
    const fill = all.slice(0, 5).map((record, i) => update(record, i, { status: 'won' }));
    expect(verdict(all, fill).held).toEqual([]);
    const nine = all.slice(0, GUARD_MIN_LINES - 1).map((record, i) => update(record, i, { title: '' }));
    expect(verdict(all, nine).held).toEqual([]);
  });

  it('holds a one-column sort of 30 lines, even in a table of 2,500', () => {
    const all = records(2500);
    // Titles of lines 0..29 sorted in reverse: every new value is an old value of another line.
    const sorted = all
      .slice(0, 30)
      .map((record, i) => update(record, i, { title: `Deal ${29 - i}` }))
      .filter((_, i) => i !== 14 && i !== 15);
    const result = verdict(all, sorted);
    expect(result.held).toMatchObject([{ columnId: 'title', reason: 'moved', lines: 28 }]);
    expect(result.held[0]?.examples).toHaveLength(3);
    expect(result.held[0]?.examples[0]).toEqual({ line: 0, rowId: 'r0', after: 'Deal 29' });
    expect(result.heldCells.get(0)).toEqual(new Set(['title']));
  });

  it('holds a one-column sort of 30 lines made just after 7 real corrections in that column', () => {
    const all = records(2500);
    const sorted = all.slice(0, 30).map((record, i) => update(record, i, { title: `Deal ${29 - i}` }));
    // Seven lines whose title was corrected first: what the sort moved onto them is new text.
    for (const each of sorted.slice(0, 7)) {
      each.edits.values.title = `Corrected ${each.rowId}`;
      each.edits.digests.title = cellDigest(`Corrected ${each.rowId}`);
    }
    expect(verdict(all, sorted).held).toMatchObject([{ columnId: 'title', reason: 'moved', lines: 30 }]);
  });

  it('lets checkbox flips of a few lines each way go out (a two-valued column is no sort)', () => {
    const all = records(60).map((record, i) => ({
      ...record,
      digests: { ...record.digests, status: cellDigest(i % 2 === 0 ? 'TRUE' : 'FALSE') },
    }));
    // 6 ticked and 6 unticked: every new value is an old value of another changed line.
    const flips = all
      .slice(0, 12)
      .map((record, i) => update(record, i, { status: i % 2 === 0 ? 'FALSE' : 'TRUE' }));
    expect(verdict(all, flips).held).toEqual([]);
  });

  it('holds emptying a column on most lines that had a value, not on a few of many', () => {
    const all = records(12);
    const cleared = all.slice(0, 10).map((record, i) => update(record, i, { amount: null }));
    expect(verdict(all, cleared).held).toMatchObject([{ columnId: 'amount', lines: 10 }]);
    const big = records(1000);
    const few = big.slice(0, 10).map((record, i) => update(record, i, { amount: null }));
    expect(verdict(big, few).held).toEqual([]);
  });

  it('holds one column changed on half of the lines at once', () => {
    const all = records(40);
    const many = all.slice(0, 20).map((record, i) => update(record, i, { status: `s${i}` }));
    expect(verdict(all, many).held).toMatchObject([{ columnId: 'status', reason: 'share', lines: 20 }]);
    const fewer = all.slice(0, 19).map((record, i) => update(record, i, { status: `s${i}` }));
    expect(verdict(all, fewer).held).toEqual([]);
  });

  it('holds whole lines when many lines change most columns (data shifted by a line)', () => {
    const all = records(1000);
    const shifted = all
      .slice(0, 12)
      .map((record, i) => update(record, i, { title: `Deal ${i + 1}`, amount: i + 1 }));
    const result = verdict(all, shifted);
    expect(result.held.map((column) => [column.columnId, column.reason, column.lines])).toEqual([
      ['title', 'shifted', 12],
      ['amount', 'shifted', 12],
    ]);
    expect(result.heldCells.size).toBe(12);
  });

  it('leaves the other edits of a line to be sent', () => {
    const all = records(2);
    const edits = update(all[0] as BaseRecord, 0, { title: 'x', amount: 3 }).edits;
    expect(withoutHeld(edits, new Set(['title'])).values).toEqual({ amount: 3 });
    expect(withoutHeld(edits, undefined)).toBe(edits);
  });

  it('holds titles sorted alone over 15 synced and 15 new lines, and lets new lines beside edits go', () => {
    const all = records(15);
    const creates = (titles: string[]) =>
      titles.map((title, k) => ({
        line: 15 + k,
        digests: { title: cellDigest(title), amount: cellDigest(k) },
      }));
    // Reversed over all 30 lines: the synced lines carry the new lines' titles, the new lines the synced ones.
    const updates = all.map((record, i) => update(record, i, { title: `New ${14 - i}` }));
    const moved = creates(all.map((_, k) => `Deal ${14 - k}`));
    const result = guardPush({
      updates,
      creates: moved,
      columnIds: COLUMNS,
      syncedLines: 100,
      valuedLines: countValuedLines(records(100), COLUMNS),
    });
    expect(result.held).toMatchObject([{ columnId: 'title', reason: 'moved' }]);
    expect(result.heldCreates.size).toBe(15);
    // Ten corrections and twenty new lines of new titles: nothing moved, nothing held.
    const corrections = all.slice(0, 10).map((record, i) => update(record, i, { title: `Fixed ${i}` }));
    const fresh = creates(Array.from({ length: 20 }, (_, k) => `Lead ${k}`));
    const ordinary = guardPush({
      updates: corrections,
      creates: fresh,
      columnIds: COLUMNS,
      syncedLines: 100,
      valuedLines: countValuedLines(records(100), COLUMNS),
    });
    expect(ordinary.held).toEqual([]);
    expect(ordinary.heldCreates.size).toBe(0);
  });
});
