// planPush: every line of the sheet sorted into an update, a create, an error or unchanged, read
// against the base; read-only cells a person changed are put back.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { cellDigest, valueDigest } from '../../../../src/core/codec';
import { indexLines } from '../../../../src/core/lines';
import {
  clearedIdStatus,
  deletedColumnEditReason,
  duplicateStatus,
  notPushedStatus,
  pendingRecordLostStatus,
  pendingStatus,
  pendingTokenOf,
  unknownRowStatus,
} from '../../../../src/core/status';
import { planPush } from '../../../../src/core/sync/push/plan';
import { agreed, baseOf, decode, gridOf, HEADERS, LMOD, layoutOf, line, live } from '../fixtures';

function plan(
  lines: unknown[][],
  records: BaseRecord[],
  headers: string[] = HEADERS,
  deleted: string[] = [],
) {
  const grid = gridOf(lines);
  const layout = layoutOf(headers, deleted);
  const base = baseOf(records);
  const result = planPush({ grid, layout, live, base, index: indexLines(grid, layout) }, decode);
  return { result, grid };
}

describe('planPush', () => {
  const r1 = agreed('r1', 't1', 'first', 1);

  it('sends only the edited columns of a line, with their values and digests', () => {
    const { result } = plan([line('r1', 'second', 1, 't1')], [r1]);
    expect(result.updates).toHaveLength(1);
    expect(result.updates[0]).toMatchObject({ line: 0, rowId: 'r1', base: r1 });
    expect(result.updates[0]?.edits.values).toEqual({ title: 'second' });
    expect(result.updates[0]?.edits.digests).toEqual({ title: valueDigest('second', 'text') });
    expect(result.unchanged).toBe(0);
  });

  it('counts a line that agrees with the base as unchanged', () => {
    const { result } = plan([line('r1', 'first', 1, 't1')], [r1]);
    expect(result).toMatchObject({ updates: [], creates: [], errors: [], reverted: [], unchanged: 1 });
  });

  it('creates a line without an id from its values, an empty line not at all', () => {
    const { result } = plan([line('', 'new', 5, ''), line('', '', '', '')], []);
    expect(result.creates).toEqual([
      {
        line: 0,
        values: { title: 'new', amount: 5 },
        digests: { title: valueDigest('new', 'text'), amount: valueDigest(5, 'number') },
        pendingToken: null,
      },
    ]);
  });

  it('keeps the pending token of a new line whose create was sent before', () => {
    const sent = { id: 'pending:x1', lMod: '2024-01-01T00:00:00.000Z', digests: {} };
    const { result } = plan([line('', 'new', 5, '', pendingStatus('pending:x1'))], [sent]);
    expect(result.creates[0]?.pendingToken).toBe('pending:x1');
  });

  it('holds a new line whose create was sent when its record is gone (the base sheet removed)', () => {
    const { result, grid } = plan([line('', 'new', 5, '', pendingStatus('pending:x1'))], []);
    expect(result.creates).toEqual([]);
    expect(result.errors).toEqual([{ line: 0, status: pendingRecordLostStatus('pending:x1') }]);
    // The mark stays at the start of the status, so the next push holds it too.
    expect(pendingTokenOf(result.errors[0]?.status)).toBe('pending:x1');
    expect(grid.length).toBe(1);
  });

  it('refuses a new line with a value the column cannot hold', () => {
    const { result } = plan([line('', 'new', 'many' as unknown as number, '')], []);
    expect(result.creates).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.status).toMatch(/^✖ not created: amount/);
  });

  it('sends neither line of an id on two lines, and says where both are', () => {
    const { result } = plan([line('r1', 'a', 1, 't1'), line('r1', 'b', 1, 't1')], [r1]);
    expect(result.updates).toEqual([]);
    expect(result.errors).toEqual([
      { line: 0, status: duplicateStatus('r1', [2, 3]) },
      { line: 1, status: duplicateStatus('r1', [2, 3]) },
    ]);
  });

  it('refuses an id the base does not know', () => {
    const { result } = plan([line('r9', 'a', 1, 't1')], [r1]);
    expect(result.errors).toEqual([{ line: 0, status: unknownRowStatus('r9') }]);
  });

  it('puts back a read-only lMod a person typed over, and still sends the line’s edits', () => {
    const { result, grid } = plan([line('r1', 'second', 1, 'typed')], [r1]);
    expect(grid.get(0, LMOD)).toBe('t1');
    expect(result.reverted).toEqual([{ line: 0, fields: ['lMod'] }]);
    expect(result.updates).toHaveLength(1);
  });

  it('refuses an edit of a column deleted on the service, naming it', () => {
    const headers = ['id', 'title', 'amount', 'lMod', '_sync', 'gone'];
    const record: BaseRecord = { ...r1, digests: { ...r1.digests, gone: cellDigest('old') } };
    const edited = [[...line('r1', 'first', 1, 't1'), 'new']];
    const { result } = plan(edited, [record], headers, ['gone']);
    expect(result.errors).toEqual([{ line: 0, status: notPushedStatus([deletedColumnEditReason('gone')]) }]);
    const untouched = [[...line('r1', 'first', 1, 't1'), 'old']];
    expect(plan(untouched, [record], headers, ['gone']).result.unchanged).toBe(1);
  });

  it('never creates a line whose id cell was cleared: its lMod names its row, and it says so (issue 33 case 1)', () => {
    const r2 = agreed('r2', 't2', 'second', 2);
    const { result } = plan([line('r1', 'first', 1, 't1'), line('', 'second edited', 2, 't2')], [r1, r2]);
    expect(result.creates).toEqual([]);
    expect(result.updates).toEqual([]);
    expect(result.errors).toEqual([{ line: 1, status: clearedIdStatus(['r2'], true) }]);
  });

  it('nor one whose lMod and values match a row whose line shows another row’s lMod (ids shifted)', () => {
    const r2 = agreed('r2', 't2', 'second', 2);
    const shifted = [line('', 'first', 1, 't1'), line('r1', 'second', 2, 't2')];
    const { result } = plan(shifted, [r1, r2]);
    expect(result.creates).toEqual([]);
    expect(result.errors.map((error) => error.line)).toEqual([0, 1]);
    expect(result.errors[0]?.status).toBe(clearedIdStatus(['r1'], true));
  });

  it('a copy of a line still in the sheet, its id cleared, is created as before', () => {
    const { result } = plan([line('r1', 'first', 1, 't1'), line('', 'first', 1, 't1')], [r1]);
    expect(result.creates.map((create) => create.line)).toEqual([1]);
    expect(result.errors).toEqual([]);
  });
});
