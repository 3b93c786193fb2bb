// A live push's columns weighed over the whole sheet (weigh.ts) and a waiting hold's cells held again
// (hold.ts pendingHeldVerdict), on plain lines: a column sorted alone is held even when the push plans
// one line of it, and the common keystroke reads nothing more.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { valueDigest } from '../../../../src/core/codec';
import { LineGrid } from '../../../../src/core/line-grid';
import { editsToHold, holdEdits, pendingHeldVerdict } from '../../../../src/core/sync/push/hold';
import { type PushSession, startPushSession } from '../../../../src/core/sync/push/session';
import {
  columnsFromGrid,
  columnsToWeigh,
  holdsWholeSheet,
  widerUpdates,
} from '../../../../src/core/sync/push/weigh';
import {
  AMOUNT,
  agreed,
  baseOf,
  decode,
  HEADERS,
  ID,
  layoutOf,
  line,
  live,
  STATUS_COLUMN,
  TITLE,
} from '../fixtures';

// Each row its own lMod: a line is its row's by the lMod it shows (the plan's id-swap check).
const records = Array.from({ length: 12 }, (_, i) => agreed(`r${i}`, `t${i}`, `deal ${i}`, i + 1));
/** Amounts sorted alone from largest down: line i shows 12 - i (row r(11 - i)'s amount). */
const sorted = records.map((record, i) => line(record.id, `deal ${i}`, 12 - i, `t${i}`));

/** A live push's session of some lines; `lazy`: only the id and status columns read for the others. */
function liveSession(
  lines: readonly unknown[][],
  only: readonly number[],
  options: { lazy?: boolean; base?: readonly BaseRecord[] } = {},
): PushSession {
  const copies = lines.map((each) => [...each]);
  const grid = options.lazy
    ? new LineGrid(
        copies.map((each) => HEADERS.map((_, at) => (at === ID || at === STATUS_COLUMN ? each[at] : ''))),
        HEADERS.length,
        {
          loader: (first, rows) => copies.slice(first, first + rows).map((each) => [...each]),
          preloaded: [ID, STATUS_COLUMN],
        },
      )
    : new LineGrid(copies, HEADERS.length);
  grid.ensureLoaded(only);
  return startPushSession({
    grid,
    layout: layoutOf(),
    live,
    base: baseOf(options.base ?? records),
    decode,
    fixedText: () => '',
    only: new Set(only),
  });
}

describe('a live push weighs its columns over the whole sheet', () => {
  it('holds a column sorted alone though the push plans one of its lines (the guard alone sends it)', () => {
    const session = liveSession(sorted, [2]);
    expect(editsToHold(session, false)).toBeNull();
    expect(holdsWholeSheet(session)).toBe(true);
    const columns = columnsToWeigh(session, true);
    expect(columns).toEqual(['amount']);
    const wider = widerUpdates(session, columnsFromGrid(session, columns));
    expect(wider.map((update) => update.rowId)).toEqual(records.map((r) => r.id).filter((id) => id !== 'r2'));
    const toHold = editsToHold(session, false, wider);
    expect(toHold?.verdict.held).toMatchObject([{ columnId: 'amount', reason: 'moved', lines: 12 }]);
    // The same key as a whole push of the sheet: "Push anyway" of one confirms the other.
    const whole = liveSession(sorted, [...sorted.keys()]);
    expect(toHold?.key).toBe(editsToHold(whole, false)?.key);
    expect(holdEdits(session, toHold?.verdict as NonNullable<typeof toHold>['verdict'], wider)).toBe(12);
    expect(session.plan.updates).toEqual([]);
  });

  it('on a sheet not read whole, weighs only columns the push changes where the edit named no cell', () => {
    const typedAmount = { lines: [2], firstColumn: AMOUNT, lastColumn: AMOUNT };
    const typedTitle = { lines: [2], firstColumn: TITLE, lastColumn: TITLE };
    // A value typed into the line: named by the edit, nothing more is read.
    const typedFresh = records.map((r, i) => line(r.id, `deal ${i}`, i === 2 ? 999 : i + 1, `t${i}`));
    expect(columnsToWeigh(liveSession(typedFresh, [2], { lazy: true }), false, typedAmount)).toEqual([]);
    // A title typed into a line whose amount a sort moved: the amount is weighed, the title not.
    const titled = sorted.map((each, i) => (i === 2 ? line('r2', 'typed', 10, 't2') : each));
    const lazySorted = liveSession(titled, [2], { lazy: true });
    expect(holdsWholeSheet(lazySorted)).toBe(false);
    expect(columnsToWeigh(lazySorted, false, typedTitle)).toEqual(['amount']);
    // Lines another firing left (no cells named): every column they change.
    expect(columnsToWeigh(lazySorted, false, undefined)).toEqual(['title', 'amount']);
  });
});

describe('a live push weighs the columns of a new line it creates', () => {
  it('weighs a new line’s column when it carries a value another row had, where values are distinct', () => {
    const withNew = [
      ...records.map((r, i) => line(r.id, `deal ${i}`, i + 1, `t${i}`)),
      line('', 'deal 3', 99, ''),
    ];
    const typedElsewhere = { lines: [0], firstColumn: AMOUNT, lastColumn: AMOUNT };
    expect(columnsToWeigh(liveSession(withNew, [12], { lazy: true }), false, typedElsewhere)).toEqual([
      'title',
    ]);
    // A column of few values (every title the same): a value another row has is no sign of a move.
    const same = records.map((r) => ({
      ...r,
      digests: { ...r.digests, title: valueDigest('same', 'text') },
    }));
    const sameNew = [...records.map((r, i) => line(r.id, 'same', i + 1, `t${i}`)), line('', 'same', 99, '')];
    const session = liveSession(sameNew, [12], { lazy: true, base: same });
    expect(columnsToWeigh(session, false, typedElsewhere)).toEqual([]);
  });

  it('reads the weighed cells by id: lines moved since the grid was read keep their own rows', () => {
    const session = liveSession(sorted, [2], { lazy: true });
    // Read now, after a sort of the whole sheet by id descending; r5 shows twice (neither is weighed).
    const now = [...sorted].reverse();
    const ids = now.map((each, i) => (i === 0 ? 'r5' : each[ID]));
    const wider = widerUpdates(session, {
      ids,
      cells: new Map([['amount', now.map((each) => each[AMOUNT])]]),
    });
    expect(wider.find((update) => update.rowId === 'r5')).toBeUndefined();
    const r10 = wider.find((update) => update.rowId === 'r10');
    expect(r10?.line).toBe(10);
    expect(r10?.edits.values.amount).toBe(2);
  });
});

describe('a hold waiting for a person’s choice', () => {
  it('holds again the cells a live push finds as they were held, not one typed over since', () => {
    const session = liveSession(sorted, [2, 3]);
    const held = [
      { rowId: 'r2', columnId: 'amount', digest: valueDigest(10, 'number') },
      { rowId: 'r3', columnId: 'amount', digest: valueDigest(5, 'number') },
    ];
    const verdict = pendingHeldVerdict(session, held);
    expect([...(verdict?.heldCells.keys() ?? [])]).toEqual([2]);
    expect(pendingHeldVerdict(session, [])).toBeNull();
  });
});
