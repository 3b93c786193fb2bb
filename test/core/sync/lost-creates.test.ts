// Lost creates: what was sent lives in the base; a line is matched to it by what it holds, and edits
// made after sending stay edits once the row is adopted.
import { describe, expect, it } from 'vitest';
import { type JsonValue, valueDigest } from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import {
  adoptedBase,
  findChangedLostCreate,
  findLostCreate,
  isPendingRecord,
  matchPendingByContent,
  pendingRecord,
  sentDigests,
} from '../../../src/core/sync/lost-creates';
import { cellEdits } from '../../../src/core/sync/push/line-edits';

const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'amount', name: 'Amount', type: 'number', kind: 'number', deleted: false },
];
const context = { formatDate: () => '2024-01-01' };

function pendingOf(token: string, values: Record<string, string | number>) {
  return pendingRecord(token, '2024-01-01T00:00:00.000Z', '', { digests: sentDigests(values, live) });
}

describe('a lost create', () => {
  it('is matched to the line that still holds exactly what was sent, once', () => {
    const first = pendingOf('pending:a', { title: 'first' });
    const second = pendingOf('pending:b', { title: 'second', amount: 2 });
    expect(isPendingRecord(first)).toBe(true);
    const lines: Array<{ values: Record<string, JsonValue>; digests: Record<string, number> }> = [
      { values: { title: 'second', amount: 2 }, digests: {} },
      { values: { title: 'first', amount: 5 }, digests: {} },
      { values: { title: 'first' }, digests: {} },
      { values: { title: 'first' }, digests: {} },
    ];
    const found = matchPendingByContent(lines, [first, second], new Set(), live);
    expect([...found]).toEqual([
      [0, 'pending:b'],
      [2, 'pending:a'],
    ]);
    // A token already claimed by a line's status is not matched again.
    expect([...matchPendingByContent(lines, [first], new Set(['pending:a']), live)]).toEqual([]);
  });

  it('adopted, agrees on what was sent, so later edits of the line are pushed', () => {
    const pending = pendingOf('pending:a', { title: 'first wording' });
    const base = adoptedBase(pending, 'r9', 't1', live);
    expect(base).toEqual({
      id: 'r9',
      lMod: 't1',
      digests: { title: valueDigest('first wording', 'text'), amount: valueDigest(null, 'number') },
    });
    const edits = cellEdits(['corrected wording', 42], [0, 1], base, live, context);
    expect(edits.values).toEqual({ title: 'corrected wording', amount: 42 });
    expect(cellEdits(['first wording', ''], [0, 1], base, live, context).values).toEqual({});
  });
});

describe('a lost create someone changed before it was recovered (chaos seed 20240141)', () => {
  const three: ColumnSpec[] = [
    ...live,
    { id: 'status', name: 'Status', type: 'text', kind: 'text', deleted: false },
  ];
  const sent = { title: 'deal', amount: 3, status: 'open' };
  const pending = pendingRecord('pending:c', '2024-01-01T00:00:00.000Z', '', {
    digests: sentDigests(sent, three),
  });
  const row = (id: string, values: Record<string, unknown>, lMod = '2024-01-01T00:05:00.000Z') => ({
    id,
    cOn: '2024-01-01T00:00:01.000Z',
    createdBy: 'u_me',
    row: { id, cOn: '2024-01-01T00:00:01.000Z', lMod, ...values },
  });

  it('is the single row changed since its creation holding most of what was sent', () => {
    const changed = row('r_1', { title: 'deal', amount: 3, status: 'won' });
    expect(findChangedLostCreate(pending, [changed], three, new Set())?.id).toBe('r_1');
  });

  it('is not guessed: unchanged rows, rows holding half or less, two candidates, or rows taken', () => {
    const unchanged = row('r_1', { title: 'deal', amount: 3, status: 'won' }, '2024-01-01T00:00:01.000Z');
    expect(findChangedLostCreate(pending, [unchanged], three, new Set())).toBeUndefined();
    const mostlyOther = row('r_2', { title: 'other', amount: 3, status: 'won' });
    expect(findChangedLostCreate(pending, [mostlyOther], three, new Set())).toBeUndefined();
    const a = row('r_3', { title: 'deal', amount: 3, status: 'won' });
    const b = row('r_4', { title: 'deal', amount: 9, status: 'open' });
    expect(findChangedLostCreate(pending, [a, b], three, new Set())).toBeUndefined();
    expect(findChangedLostCreate(pending, [a], three, new Set(['r_3']))).toBeUndefined();
  });

  it('is never a row created before the attempt', () => {
    const early = {
      ...row('r_5', { title: 'deal', amount: 3, status: 'won' }),
      cOn: '2023-12-31T00:00:00.000Z',
    };
    expect(findChangedLostCreate(pending, [early], three, new Set())).toBeUndefined();
  });
});

describe('the row a lost create made (findLostCreate)', () => {
  const pending = pendingOf('pending:d', { title: 'sent', amount: 4 });
  const row = (id: string, values: Record<string, unknown>, cOn = '2024-01-01T00:00:01.000Z') => ({
    id,
    cOn,
    createdBy: 'u_me',
    row: { id, cOn, ...values },
  });

  it('is the first row not taken holding exactly what was sent, and is taken once', () => {
    const other = row('r_1', { title: 'sent', amount: 5 });
    const made = row('r_2', { title: 'sent', amount: 4 });
    const taken = new Set<string>();
    expect(findLostCreate(pending, [other, made], live, taken)?.id).toBe('r_2');
    expect([...taken]).toEqual(['r_2']);
    expect(findLostCreate(pending, [other, made], live, taken)).toBeUndefined();
  });

  it('reads a value the row lacks as empty, and skips columns no longer in the schema', () => {
    const titleOnly = pendingOf('pending:e', { title: 'sent' });
    expect(findLostCreate(titleOnly, [row('r_3', { title: 'sent' })], live, new Set())?.id).toBe('r_3');
    expect(findLostCreate(pending, [row('r_4', { title: 'sent' })], live, new Set())).toBeUndefined();
    const titleColumn = live.filter((column) => column.id === 'title');
    expect(findLostCreate(pending, [row('r_5', { title: 'sent' })], titleColumn, new Set())?.id).toBe('r_5');
  });

  it('is never a row created before the attempt, less two minutes of clock skew', () => {
    const skewed = row('r_6', { title: 'sent', amount: 4 }, '2023-12-31T23:58:30.000Z');
    expect(findLostCreate(pending, [skewed], live, new Set())?.id).toBe('r_6');
    const early = row('r_7', { title: 'sent', amount: 4 }, '2023-12-31T23:57:00.000Z');
    expect(findLostCreate(pending, [early], live, new Set())).toBeUndefined();
  });
});
