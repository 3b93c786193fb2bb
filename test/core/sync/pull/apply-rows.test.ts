// The pull engine's rules, stated directly over in-memory lines: each service row is matched to its
// line by row id and merged three-way (sheet, base, service); rows gone from the service are marked.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { BaseTable } from '../../../../src/core/base-table';
import { cellDigest, valueDigest } from '../../../../src/core/codec';
import type { ColumnSpec } from '../../../../src/core/columns';
import { readLayout } from '../../../../src/core/layout';
import { LineGrid } from '../../../../src/core/line-grid';
import { indexLines } from '../../../../src/core/lines';
import {
  conflictStatus,
  deletedColumnEditReason,
  duplicateStatus,
  keptLocalStatus,
  notPushedStatus,
  pendingStatus,
  STATUS,
} from '../../../../src/core/status';
import { applyServiceRows } from '../../../../src/core/sync/pull/apply-rows';
import { emptyPullCounts, type PullState } from '../../../../src/core/sync/pull/pull-state';
import { markRemovedRows } from '../../../../src/core/sync/pull/removed-rows';
import { agreedCounter } from '../../../../src/core/sync/renamed-columns';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'size', name: 'Size', type: 'number', kind: 'number', deleted: false },
];
const HEADERS = ['id', 'title', 'size', 'lMod', '_sync'];
const [ID, TITLE, SIZE, LMOD, STATUS_COLUMN] = [0, 1, 2, 3, 4];

/** The row as the service lists it. */
function serviceRow(id: string, title: string, size: number | null, lMod = `${id}-v1`) {
  return { id, title, size, lMod, cOn: '2024-01-01T00:00:00Z', createdBy: 'someone' };
}

/** A pull state over these lines; `agreed` rows are in the base with these values at lMod `<id>-v1`. */
function stateOf(lines: unknown[][], agreed: Array<[string, string, number | null]> = []): PullState {
  const grid = new LineGrid(lines, HEADERS.length);
  const base = new BaseTable([], ['title', 'size']);
  for (const [id, title, size] of agreed) {
    base.set({
      id,
      lMod: `${id}-v1`,
      digests: { title: valueDigest(title, 'text'), size: valueDigest(size, 'number') },
    });
  }
  const layout = readLayout(HEADERS, live);
  return {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: 'pull-1',
    counts: emptyPullCounts(),
    decode: { formatDate: (date) => String(date.getTime()) },
  };
}

const line = (state: PullState, at: number) => state.grid.lines[at] as unknown[];

describe('applyServiceRows', () => {
  it('appends a row new on the service as a line, marked pulled, and records it in the base', () => {
    const state = stateOf([]);
    applyServiceRows(state, [serviceRow('r1', 'One', 5)]);
    expect(state.grid.length).toBe(1);
    expect(line(state, 0).slice(0, 4)).toEqual(['r1', 'One', 5, 'r1-v1']);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(STATUS.pulled);
    expect(state.counts.added).toBe(1);
    expect(state.index.lineById.get('r1')).toBe(0);
    const record = state.base.get('r1');
    expect(record?.lMod).toBe('r1-v1');
    expect(record?.digests.title).toBe(valueDigest('One', 'text'));
    expect(state.base.seenOf('r1')).toBe('pull-1');
  });

  it('takes a value changed on the service when the line still holds the agreed one', () => {
    const state = stateOf([['r1', 'One', 5, 'r1-v1', STATUS.pulled]], [['r1', 'One', 5]]);
    applyServiceRows(state, [serviceRow('r1', 'One, renamed', 5, 'r1-v2')]);
    expect(line(state, 0).slice(0, 4)).toEqual(['r1', 'One, renamed', 5, 'r1-v2']);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(STATUS.updated);
    expect(state.counts.updated).toBe(1);
    expect(state.base.get('r1')?.lMod).toBe('r1-v2');
    expect(state.base.get('r1')?.digests.title).toBe(valueDigest('One, renamed', 'text'));
  });

  it('keeps a local edit when the service still holds the agreed value, and says it is not pushed yet', () => {
    const state = stateOf([['r1', 'Mine', 5, 'r1-v1', STATUS.pulled]], [['r1', 'One', 5]]);
    applyServiceRows(state, [serviceRow('r1', 'One', 5)]);
    expect(line(state, 0)[TITLE]).toBe('Mine');
    expect(line(state, 0)[STATUS_COLUMN]).toBe(keptLocalStatus(['title']));
    expect(state.counts.keptLocal).toBe(1);
    // The base keeps the agreed value: the edit is still an edit for the next push.
    expect(state.base.get('r1')?.digests.title).toBe(valueDigest('One', 'text'));
  });

  it('says why a kept edit cannot be sent, as a push would', () => {
    const state = stateOf([['r1', 'One', 'five', 'r1-v1', '']], [['r1', 'One', 5]]);
    applyServiceRows(state, [serviceRow('r1', 'One', 5)]);
    expect(line(state, 0)[SIZE]).toBe('five');
    expect(line(state, 0)[STATUS_COLUMN]).toBe(notPushedStatus(['size: "five" is not a number.']));
    expect(state.counts.errors).toBe(1);
    expect(state.counts.keptLocal).toBe(0);
  });

  it('flags a conflict when the line and the service both changed a column, keeping the line', () => {
    const state = stateOf([['r1', 'Mine', 5, 'r1-v1', '']], [['r1', 'One', 5]]);
    applyServiceRows(state, [serviceRow('r1', 'Theirs', 5, 'r1-v2')]);
    expect(line(state, 0)[TITLE]).toBe('Mine');
    expect(line(state, 0)[STATUS_COLUMN]).toBe(conflictStatus(['title']));
    expect(state.counts.conflicts).toBe(1);
    expect(state.base.get('r1')?.conflict?.theirs).toEqual({ title: 'Theirs' });
  });

  it('merges per column: an edit here and a change there in different columns both land', () => {
    const state = stateOf([['r1', 'Mine', 5, 'r1-v1', '']], [['r1', 'One', 5]]);
    applyServiceRows(state, [serviceRow('r1', 'One', 6, 'r1-v2')]);
    expect(line(state, 0).slice(0, 3)).toEqual(['r1', 'Mine', 6]);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(keptLocalStatus(['title']));
  });

  it('counts an unchanged row, only marks it seen, and clears a stale problem status', () => {
    const state = stateOf(
      [
        ['r1', 'One', 5, 'r1-v1', STATUS.removed],
        ['r2', 'Two', 2, 'r2-v1', STATUS.pulled],
      ],
      [
        ['r1', 'One', 5],
        ['r2', 'Two', 2],
      ],
    );
    applyServiceRows(state, [serviceRow('r1', 'One', 5), serviceRow('r2', 'Two', 2)]);
    expect(state.counts.unchanged).toBe(2);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(STATUS.inSync);
    expect(line(state, 1)[STATUS_COLUMN]).toBe(STATUS.pulled);
    expect(state.base.seenOf('r1')).toBe('pull-1');
  });

  it('writes nothing into lines whose id is on two lines, and says so on both', () => {
    const state = stateOf(
      [
        ['r1', 'One', 5, 'r1-v1', ''],
        ['r1', 'Copy', 5, 'r1-v1', ''],
      ],
      [['r1', 'One', 5]],
    );
    applyServiceRows(state, [serviceRow('r1', 'Changed', 7, 'r1-v2')]);
    expect(line(state, 0)[TITLE]).toBe('One');
    expect(line(state, 1)[TITLE]).toBe('Copy');
    expect(line(state, 0)[STATUS_COLUMN]).toBe(duplicateStatus('r1', [2, 3]));
    expect(line(state, 1)[STATUS_COLUMN]).toBe(duplicateStatus('r1', [2, 3]));
    expect(state.counts.errors).toBe(1);
    expect(state.grid.length).toBe(2);
    expect(state.base.seenOf('r1')).toBe('pull-1');
  });

  it('skips rows without a usable id', () => {
    const state = stateOf([]);
    applyServiceRows(state, [{ id: '', title: 'x' }, { title: 'y' }, { id: 7, title: 'z' }]);
    expect(state.grid.length).toBe(0);
    expect(state.counts).toEqual(emptyPullCounts());
  });

  describe('a create whose answer was lost', () => {
    const sentAt = '2024-01-01T00:00:00Z';
    function pendingState(status: string) {
      const state = stateOf([['', 'Draft', 3, '', status]]);
      const record = {
        id: 'pending:a1',
        lMod: sentAt,
        digests: { title: valueDigest('Draft', 'text'), size: valueDigest(3, 'number') },
      };
      state.base.set(record);
      state.pending = { me: 'me', lines: [{ line: 0, record }] };
      return state;
    }
    const created = { id: 'r9', title: 'Draft', size: 3, lMod: 'r9-v1', cOn: sentAt, createdBy: 'me' };

    it('is adopted by the line that sent it: no second line, the id written, the pending record gone', () => {
      const state = pendingState(pendingStatus('pending:a1'));
      applyServiceRows(state, [created]);
      expect(state.grid.length).toBe(1);
      expect(line(state, 0)[ID]).toBe('r9');
      expect(line(state, 0)[LMOD]).toBe('r9-v1');
      expect(line(state, 0)[STATUS_COLUMN]).toBe(STATUS.created);
      expect(state.counts.unchanged).toBe(1);
      expect(state.counts.added).toBe(0);
      expect(state.base.has('pending:a1')).toBe(false);
      expect(state.base.get('r9')?.lMod).toBe('r9-v1');
    });

    it('is not adopted from a row someone else created: that row is a new line', () => {
      const state = pendingState(pendingStatus('pending:a1'));
      applyServiceRows(state, [{ ...created, createdBy: 'another' }]);
      expect(state.grid.length).toBe(2);
      expect(line(state, 0)[ID]).toBe('');
      expect(state.counts.added).toBe(1);
    });
  });
});

describe('markRemovedRows', () => {
  it('marks lines whose row this pull did not see, but not duplicates or pending creates', () => {
    const state = stateOf(
      [
        ['r1', 'One', 1, 'l', ''],
        ['r2', 'Two', 2, 'l', ''],
        ['r3', 'Three', 3, 'l', ''],
        ['r3', 'Three', 3, 'l', ''],
        ['', 'New', 4, '', pendingStatus('pending:x1')],
      ],
      [
        ['r1', 'One', 1],
        ['r2', 'Two', 2],
        ['r3', 'Three', 3],
      ],
    );
    // r1 seen by this pull (in an earlier execution: its record says so); r2 only by an earlier pull.
    state.base.set({ ...(state.base.get('r1') as BaseRecord), seen: 'pull-1' });
    state.base.set({ ...(state.base.get('r2') as BaseRecord), seen: 'an earlier pull' });
    expect(markRemovedRows(state)).toEqual([1]);
    expect(state.grid.lines.map((cells) => cells[STATUS_COLUMN])).toEqual([
      '',
      STATUS.removed,
      '',
      '',
      pendingStatus('pending:x1'),
    ]);
    expect(state.counts.removedOnService).toBe(1);
  });
});

describe('agreedCounter', () => {
  it('counts, per sheet column, the known lines and those still holding the agreed value', () => {
    const state = stateOf(
      [
        ['r1', 'One', 1, 'l', ''],
        ['r2', 'Edited', 2, 'l', ''],
        ['r3', 'Three', 3, 'l', ''],
        ['', 'New', 4, '', ''],
      ],
      [
        ['r1', 'One', 1],
        ['r2', 'Two', 2],
      ],
    );
    const agreed = agreedCounter(state.grid, state.layout, state.base);
    expect(agreed('title', TITLE)).toEqual([1, 2]);
    expect(agreed('size', SIZE)).toEqual([2, 2]);
    expect(agreed('title', SIZE)).toEqual([0, 2]);
  });

  it('counts no line whose agreed value is empty: an empty column matches every mostly empty one', () => {
    const state = stateOf(
      [
        ['r1', 'One', null, 'l', ''],
        ['r2', '', null, 'l', ''],
        ['r3', '', 3, 'l', ''],
      ],
      [
        ['r1', 'One', null],
        ['r2', '', null],
        ['r3', '', 3],
      ],
    );
    const agreed = agreedCounter(state.grid, state.layout, state.base);
    // Only r1's title and r3's size were agreed with a value.
    expect(agreed('title', TITLE)).toEqual([1, 1]);
    expect(agreed('size', SIZE)).toEqual([1, 1]);
    // Before, the empty cells made the title column a 2-in-3 match for the size column.
    expect(agreed('size', TITLE)).toEqual([0, 1]);
  });

  it('counts nothing in a sheet without an id column', () => {
    const layout = readLayout(['title', 'size'], live);
    const agreed = agreedCounter(new LineGrid([['One', 1]], 2), layout, new BaseTable([], ['title']));
    expect(agreed('title', 0)).toEqual([0, 0]);
  });
});

it('reads a cell and a service value of the same text as the same digest', () => {
  // The rules above rely on it: a line holding the agreed value is "unchanged here".
  expect(cellDigest('One')).toBe(valueDigest('One', 'text'));
});

describe('edits in a column deleted on the service', () => {
  it('keeps saying why an edit in a column deleted on the service is not sent, whatever else it merges (issue 33 case 10)', () => {
    const headers = [...HEADERS, 'gone'];
    const grid = new LineGrid(
      [
        ['r1', 'One', 5, 'r1-v1', '✖ size pushed; not pushed: gone: …', 'typed'],
        ['r2', 'Two', 6, 'r2-v1', '✓ pushed', 'agreed'],
      ],
      headers.length,
    );
    const base = new BaseTable([], ['title', 'size', 'gone']);
    for (const [id, title, size] of [
      ['r1', 'One', 5],
      ['r2', 'Two', 6],
    ] as const)
      base.set({
        id,
        lMod: `${id}-v1`,
        digests: {
          title: valueDigest(title, 'text'),
          size: valueDigest(size, 'number'),
          gone: cellDigest('agreed'),
        },
      });
    const layout = readLayout(headers, live, ['gone']);
    const state: PullState = {
      grid,
      layout,
      live,
      base,
      index: indexLines(grid, layout),
      pullId: 'pull-1',
      counts: emptyPullCounts(),
    };
    applyServiceRows(state, [serviceRow('r1', 'One', 5), serviceRow('r2', 'Two', 6)]);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(notPushedStatus([deletedColumnEditReason('gone')]));
    expect(line(state, 0)[5]).toBe('typed');
    expect(line(state, 1)[STATUS_COLUMN]).toBe('✓ pushed');
    expect(state.counts).toMatchObject({ unchanged: 2, errors: 1 });
    applyServiceRows(state, [serviceRow('r1', 'One on the service', 5, 'r1-v2')]);
    expect(line(state, 0)[STATUS_COLUMN]).toBe(
      notPushedStatus([deletedColumnEditReason('gone')], ['title updated from the service']),
    );
  });
});
