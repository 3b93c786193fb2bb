// The push session's steps, each stated over in-memory lines, base and service answers: adopting lost
// creates, meeting edits with the service's changes, and settling what each answer says.
import { describe, expect, it } from 'vitest';
import type { BaseRecord } from '../../../../src/core/base';
import { valueDigest } from '../../../../src/core/codec';
import { SyncError } from '../../../../src/core/errors';
import {
  conflictStatus,
  cutNotSentReason,
  deletedColumnEditReason,
  freshColumnsText,
  heldStatus,
  notCreatedStatus,
  notPushedStatus,
  partlyPushedStatus,
  pendingStatus,
  readOnlyRestoredStatus,
  STATUS,
} from '../../../../src/core/status';
import { LOST } from '../../../../src/core/sync/locate-lines';
import { pendingRecord, sentDigests } from '../../../../src/core/sync/lost-creates';
import {
  adoptLostCreates,
  claimPendingCreates,
  keepUnwrittenAdoptionsPending,
  listingPagesLeft,
} from '../../../../src/core/sync/push/adopt';
import {
  keepMarkedCreates,
  keepUnwrittenCreatesPending,
  markCreatesPending,
  settleCreates,
  unmarkUnsentCreates,
} from '../../../../src/core/sync/push/creates';
import {
  beforesFromRows,
  editsToHold,
  exampleBefores,
  heldPushOf,
  holdEdits,
  markHeldLines,
  UNREAD_BEFORE,
  unknownExampleRowIds,
} from '../../../../src/core/sync/push/hold';
import {
  markSettledLines,
  type PushSession,
  pushLayoutWarnings,
  type RowAnswer,
  type ServiceRow,
  startPushSession,
} from '../../../../src/core/sync/push/session';
import {
  checkedRows,
  editedRowIds,
  editedRowsCheck,
  settleLinesShown,
  reconcileUpdates,
  settleUpdates,
} from '../../../../src/core/sync/push/updates';
import {
  AMOUNT,
  agreed,
  baseOf,
  decode,
  gridOf,
  HEADERS,
  ID,
  LMOD,
  layoutOf,
  line,
  live,
  STATUS_COLUMN,
  TITLE,
} from '../fixtures';

const ME = 'u1';

function sessionOf(
  lines: readonly unknown[][],
  records: readonly BaseRecord[],
  options: { headers?: string[]; freshColumns?: string[] } = {},
): PushSession {
  const grid = gridOf(lines);
  const base = baseOf(records);
  const layout = layoutOf(options.headers ?? HEADERS);
  pushLayoutWarnings({
    grid,
    layout,
    live,
    base,
    syncedBefore: live.map((column) => column.id),
    freshColumns: options.freshColumns ?? [],
  });
  return startPushSession({
    grid,
    layout,
    live,
    base,
    decode,
    fixedText: (field, value) => (value === undefined || value === null ? '' : `${field}:${value}`),
  });
}

function status(session: PushSession, at: number): unknown {
  return session.grid.get(at, STATUS_COLUMN);
}

const ok = (row: ServiceRow): RowAnswer => ({ ok: true, row });
const failed = (error: SyncError): RowAnswer => ({ ok: false, error });

describe('starting a push', () => {
  it('refuses a sheet without an id or status column: pull first', () => {
    const layout = layoutOf(['title', 'amount', '_sync']);
    const input = { grid: gridOf([]), layout, live, base: baseOf([]), syncedBefore: [], freshColumns: [] };
    expect(() => pushLayoutWarnings(input)).toThrow(/pull the table first/);
    expect(() => pushLayoutWarnings({ ...input, layout: layoutOf(['id', 'title', 'amount']) })).toThrow(
      SyncError,
    );
  });

  it('says which synced header is missing, and reads no edits of it', () => {
    const headers = ['id', 'title', 'lMod', '_sync'];
    const grid = gridOf([['r1', 'changed', 't1', '']]);
    const layout = layoutOf(headers);
    const warnings = pushLayoutWarnings({
      grid,
      layout,
      live,
      base: baseOf([agreed('r1', 't1', 'first', 3)]),
      syncedBefore: ['title', 'amount'],
      freshColumns: [],
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"amount" is missing/);
  });

  it('writes the status of every line that cannot be sent at once', () => {
    const session = sessionOf([line('r9', 'x', 1, 't1')], [agreed('r1', 't1', 'a', 1)]);
    expect(String(status(session, 0))).toMatch(/row id r9 is not from the last pull/);
    expect(session.counts.errors).toBe(1);
  });

  it('reads no edits from a column a pull has not finished filling', () => {
    const lines = [line('r1', 'a', '', 't1')];
    const records = [agreed('r1', 't1', 'a', 5)];
    expect(sessionOf(lines, records).plan.updates).toHaveLength(1);
    const fresh = sessionOf(lines, records, { freshColumns: ['amount'] });
    expect(fresh.plan.updates).toHaveLength(0);
    expect(fresh.counts.unchanged).toBe(1);
  });

  it('says a column a pull is still filling apart, not as a missing header', () => {
    const input = () => ({
      grid: gridOf([line('r1', 'a', 1, 't1')]),
      layout: layoutOf(HEADERS),
      live,
      base: baseOf([agreed('r1', 't1', 'a', 1)]),
      syncedBefore: ['title', 'amount'],
      freshColumns: ['amount'],
    });
    const warnings = pushLayoutWarnings(input());
    expect(warnings).toEqual([freshColumnsText(['amount'])]);
    expect(warnings[0]).toMatch(/still filling "amount".*sent by the first push after it has finished/);
    // A fresh column whose header is gone is missing all the same.
    const gone = { ...input(), layout: layoutOf(HEADERS.filter((header) => header !== 'amount')) };
    expect(pushLayoutWarnings(gone)).toEqual([expect.stringMatching(/"amount" is missing/)]);
  });
});

describe('statuses settled without the service', () => {
  it('replaces a stale pending mark on a line whose row the base knows, and says read-only cells were put back', () => {
    const session = sessionOf(
      [line('r1', 'a', 1, 't1', pendingStatus('pending:abc')), line('r2', 'b', 2, 'typed over')],
      [agreed('r1', 't1', 'a', 1), agreed('r2', 't2', 'b', 2)],
    );
    markSettledLines(session);
    expect(status(session, 0)).toBe(STATUS.created);
    expect(status(session, 1)).toBe(readOnlyRestoredStatus(['lMod']));
    expect(session.grid.get(1, LMOD)).toBe('t2');
  });
});

describe('the accident guard in a push', () => {
  const records = Array.from({ length: 12 }, (_, i) => agreed(`r${i}`, 't1', `deal ${i}`, i + 1));
  const cleared = records.map((record, i) => line(record.id, `deal ${i}`, '', 't1'));

  it('holds a cleared column until a person confirms exactly what they saw', () => {
    const session = sessionOf(cleared, records);
    const toHold = editsToHold(session, false);
    expect(toHold?.verdict.held).toMatchObject([{ columnId: 'amount', lines: 12 }]);
    expect(editsToHold(sessionOf(cleared, records), toHold?.key)).toBeNull();
    expect(editsToHold(sessionOf(cleared, records), 'some older key')).not.toBeNull();
    expect(editsToHold(sessionOf(cleared, records), true)).toBeNull();
    expect(holdEdits(session, toHold?.verdict as NonNullable<typeof toHold>['verdict'])).toBe(12);
    expect(session.plan.updates).toEqual([]);
    markHeldLines(session);
    expect(status(session, 3)).toBe(heldStatus(['amount']));
  });

  it('shows a person each held column with examples: the service value now and the value it would send', () => {
    const session = sessionOf(cleared, records);
    const toHold = editsToHold(session, false) as NonNullable<ReturnType<typeof editsToHold>>;
    // r0 was read with the listing; r1 and r2 were not, and their amounts are gone from the sheet.
    const read = new Map<string, ServiceRow>([['r0', { id: 'r0', amount: 41 }]]);
    const befores = exampleBefores(session, toHold, read, session.plan.updates);
    expect(unknownExampleRowIds(toHold, befores)).toEqual(['r1', 'r2']);
    // A GET answers fixed fields only: it says nothing of the amount.
    beforesFromRows(toHold, befores, new Map([['r1', { id: 'r1', lMod: 't1' }]]));
    const held = heldPushOf(toHold, befores, false);
    expect(held.key).toBe(toHold.key);
    expect(held.message).toMatch(/^Held, not sent: amount on 12 lines/);
    expect(held.columns[0]?.examples[0]).toEqual({ row: 2, rowId: 'r0', before: '41', after: '(empty)' });
    // Not "(empty)": the service holds an amount there that was not read.
    expect(held.columns[0]?.examples[1]?.before).toBe(UNREAD_BEFORE);
    expect(heldPushOf(toHold, befores, true).message).toMatch(/push by hand/);
  });

  it('shows as "before" of a column sorted alone the value the base agreed, found on the line it moved to', () => {
    // Amounts 1..12 sorted from largest down: line i shows row r(11-i)'s amount.
    const sorted = records.map((record, i) => line(record.id, `deal ${i}`, 12 - i, 't1'));
    const session = sessionOf(sorted, records);
    const toHold = editsToHold(session, false) as NonNullable<ReturnType<typeof editsToHold>>;
    expect(toHold.verdict.held).toMatchObject([{ columnId: 'amount', reason: 'moved' }]);
    const befores = exampleBefores(session, toHold, new Map(), session.plan.updates);
    expect(unknownExampleRowIds(toHold, befores)).toEqual([]);
    const examples = heldPushOf(toHold, befores, false).columns[0]?.examples;
    expect(examples?.map((each) => `${each.rowId}: ${each.before} -> ${each.after}`)).toEqual([
      'r0: 1 -> 12',
      'r1: 2 -> 11',
      'r2: 3 -> 10',
    ]);
  });

  it('finds a "before" on an unchanged line holding the same value, and says an empty one', () => {
    // r0 to r10 cleared but r2, which had no amount and now has one; r11 unchanged. r1 had r11's amount.
    const valued = records.map((record, i) =>
      agreed(record.id, 't1', `deal ${i}`, i === 1 ? 12 : i === 2 ? null : i + 1),
    );
    const lines = valued.map((record, i) =>
      line(record.id, `deal ${i}`, i === 11 ? 12 : i === 2 ? 5 : '', 't1'),
    );
    const session = sessionOf(lines, valued);
    const toHold = editsToHold(session, false) as NonNullable<ReturnType<typeof editsToHold>>;
    const befores = exampleBefores(session, toHold, new Map(), session.plan.updates);
    const examples = heldPushOf(toHold, befores, false).columns[0]?.examples;
    expect(examples?.map((each) => `${each.rowId}: ${each.before}`)).toEqual([
      `r0: ${UNREAD_BEFORE}`,
      'r1: 12',
      'r2: (empty)',
    ]);
  });

  it('counts the values a column had on the lines in the sheet, not on rows no line shows', () => {
    // 24 lines, 12 with an amount, 11 of them cleared: fewer than half the lines change (no "share"),
    // but most of the amounts the sheet had go. 20 rows the base still follows are on no line (their
    // lines were deleted from the sheet): their amounts are not the sheet's and must not dilute it.
    const onLines = Array.from({ length: 24 }, (_, i) =>
      agreed(`r${i}`, 't1', `deal ${i}`, i < 12 ? i + 1 : null),
    );
    const offSheet = Array.from({ length: 20 }, (_, i) => agreed(`x${i}`, 't1', `gone ${i}`, i + 1));
    const lines = onLines.map((record, i) =>
      line(record.id, `deal ${i}`, i < 12 && i !== 0 ? '' : i < 12 ? i + 1 : '', 't1'),
    );
    const toHold = editsToHold(sessionOf(lines, [...onLines, ...offSheet]), false);
    expect(toHold?.verdict.held).toMatchObject([{ columnId: 'amount', reason: 'emptied', lines: 11 }]);
  });

  it('sends a few edits unasked', () => {
    const few = cleared.map((each, i) => (i < 5 ? each : line(`r${i}`, `deal ${i}`, i + 1, 't1')));
    expect(editsToHold(sessionOf(few, records), false)).toBeNull();
  });
});

describe('adopting lost creates', () => {
  const sentAt = '2024-01-01T10:00:00.000Z';
  const token = 'pending:lost1';
  const sent = { title: 'new deal', amount: 7 };
  const pending = pendingRecord(token, sentAt, '', { digests: sentDigests(sent, live) });
  const created = (extra: Record<string, unknown> = {}): ServiceRow => ({
    id: 'r50',
    cOn: '2024-01-01T10:00:01.000Z',
    lMod: '2024-01-01T10:00:01.000Z',
    createdBy: ME,
    ...sent,
    ...extra,
  });

  function lostCreate(title = 'new deal', lineStatus = pendingStatus(token)) {
    const session = sessionOf([line('', title, 7, '', lineStatus)], [pending]);
    return { session, pendingCreates: claimPendingCreates(session) };
  }

  it('finds the row the create made: its id and fields go onto the line, the base agrees on what was sent', () => {
    const { session, pendingCreates } = lostCreate();
    expect(pendingCreates).toHaveLength(1);
    const adopted = adoptLostCreates(session, pendingCreates, new Map([['r50', created()]]), ME);
    expect(adopted).toEqual([{ line: 0, rowId: 'r50', pending }]);
    expect(session.grid.get(0, ID)).toBe('r50');
    expect(session.grid.get(0, LMOD)).toBe(`lMod:${created().lMod}`);
    expect(status(session, 0)).toBe(STATUS.created);
    expect(session.base.has(token)).toBe(false);
    expect(session.base.get('r50')).toMatchObject({ lMod: created().lMod, digests: pending.digests });
    expect(session.plan.creates).toEqual([]);
    expect(session.plan.updates).toEqual([]);
    expect(session.counts.created).toBe(1);
  });

  it('matches a line whose pending mark was wiped by what it holds', () => {
    const { pendingCreates } = lostCreate('new deal', '');
    expect(pendingCreates.map((create) => create.pendingToken)).toEqual([token]);
  });

  it('pushes what the person changed on the line since the create was sent', () => {
    const { session, pendingCreates } = lostCreate('new deal, corrected');
    // The line no longer holds what was sent, so only its status names the create.
    adoptLostCreates(session, pendingCreates, new Map([['r50', created()]]), ME);
    expect(session.plan.updates).toMatchObject([
      { line: 0, rowId: 'r50', edits: { values: { title: 'new deal, corrected' } } },
    ]);
  });

  it('adopts a row someone changed since its creation as created, so their change is pulled in', () => {
    // Three values sent (note by a create of a column the sheet does not show); the row holds two.
    const sentThree = { ...sent, note: 'from the form' };
    const pendingThree = pendingRecord(token, sentAt, '', { digests: sentDigests(sentThree, live) });
    const session = sessionOf([line('', 'new deal', 7, '', pendingStatus(token))], [pendingThree]);
    const changed = created({ note: 'from the form', amount: 8, lMod: '2024-01-01T11:00:00.000Z' });
    const adopted = adoptLostCreates(session, claimPendingCreates(session), new Map([['r50', changed]]), ME);
    expect(adopted).toHaveLength(1);
    expect(session.base.get('r50')?.lMod).toBe(changed.cOn);
    // Unchanged since its creation, a row holding only two of three values sent is not that create's.
    const again = sessionOf([line('', 'new deal', 7, '', pendingStatus(token))], [pendingThree]);
    const unchanged = created({ note: 'from the form', amount: 8 });
    expect(adoptLostCreates(again, claimPendingCreates(again), new Map([['r50', unchanged]]), ME)).toEqual(
      [],
    );
  });

  it('finds nothing in another person’s row or a row already on a line: the create stays to be sent, its pending record goes', () => {
    const { session, pendingCreates } = lostCreate();
    const listing = new Map([['r50', created({ createdBy: 'someone else' })]]);
    expect(adoptLostCreates(session, pendingCreates, listing, ME)).toEqual([]);
    expect(session.base.has(token)).toBe(false);
    expect(session.plan.creates).toMatchObject([{ line: 0, pendingToken: null }]);
    expect(session.counts.created).toBe(0);
  });

  it('keeps the pending record when the adopted line could not be written (moved while the run waited)', () => {
    const { session, pendingCreates } = lostCreate('new deal, corrected');
    const adopted = adoptLostCreates(session, pendingCreates, new Map([['r50', created()]]), ME);
    session.grid.relocate({ rows: [LOST], moved: true }, 1);
    expect(keepUnwrittenAdoptionsPending(session, adopted)).toBe(true);
    expect(session.base.has('r50')).toBe(false);
    expect(session.base.get(token)).toEqual(pending);
    expect(session.plan.updates).toEqual([]);
    expect(session.counts.created).toBe(0);
  });

  it('changes nothing more when every adopted line was written', () => {
    const { session, pendingCreates } = lostCreate();
    const adopted = adoptLostCreates(session, pendingCreates, new Map([['r50', created()]]), ME);
    expect(keepUnwrittenAdoptionsPending(session, adopted)).toBe(false);
    expect(session.base.has('r50')).toBe(true);
  });
});

describe('knowing the service state of edited rows', () => {
  const records = [agreed('r1', 't1', 'a', 1), agreed('r2', 't1', 'b', 2)];
  const edited = [line('r1', 'a2', 1, 't1'), line('r2', 'b2', 2, 't1')];

  it('reads one GET per edited row when few, the listing when cheaper or already read', () => {
    const session = sessionOf(edited, records);
    expect(editedRowsCheck(session, false, 3)).toBe('get');
    expect(editedRowsCheck(session, false, 1)).toBe('listing');
    expect(editedRowsCheck(session, true, 3)).toBe('listing');
    expect(editedRowsCheck(sessionOf([line('r1', 'a', 1, 't1')], records), false, 3)).toBe('none');
    expect(editedRowIds(session)).toEqual(['r1', 'r2']);
  });

  it('counts only the edited rows the first page wave did not bring', () => {
    const session = sessionOf(edited, records);
    const read = new Map([['r1', { id: 'r1', lMod: 't1', title: 'a' }]]);
    expect(editedRowsCheck(session, false, 1, read)).toBe('get');
    expect(editedRowsCheck(session, false, 0, read)).toBe('listing');
    expect(editedRowIds(session, read)).toEqual(['r2']);
    const checked = checkedRows(session, ['r2'], [ok({ id: 'r2', lMod: 't1' })], read);
    expect([...checked.rows.keys()].sort()).toEqual(['r1', 'r2']);
    expect(checked.changed).toBe(false);
  });

  it('lists no more pages once the first wave covered the table, and fewer after a partial one', () => {
    const session = sessionOf(edited, records);
    expect(listingPagesLeft(session, null)).toBe(2);
    expect(listingPagesLeft(session, { done: true, pageRequests: 1 })).toBe(0);
    expect(listingPagesLeft(session, { done: false, pageRequests: 1 })).toBe(0);
  });

  it('asks for the listing when a row moved on since its base; a row gone is left out', () => {
    const session = sessionOf(edited, records);
    const gone = failed(new SyncError('NOT_FOUND', 'gone'));
    const same = checkedRows(session, ['r1', 'r2'], [ok({ id: 'r1', lMod: 't1' }), gone]);
    expect([...same.rows.keys()]).toEqual(['r1']);
    expect(same.changed).toBe(false);
    expect(checkedRows(session, ['r1', 'r2'], [ok({ id: 'r1', lMod: 't2' }), gone]).changed).toBe(true);
  });

  it('stops on any other refusal', () => {
    const session = sessionOf(edited, records);
    const refused = failed(new SyncError('FORBIDDEN', 'no access'));
    expect(() => checkedRows(session, ['r1', 'r2'], [ok({ id: 'r1', lMod: 't1' }), refused])).toThrow(
      'no access',
    );
  });
});

describe('reconciling edits with the service', () => {
  const base = agreed('r1', 't1', 'first', 1);
  const edit = (title: string, amount: number) => sessionOf([line('r1', title, amount, 't1')], [base]);
  const service = (values: Record<string, unknown>): Map<string, ServiceRow> =>
    new Map([['r1', { id: 'r1', lMod: 't1', title: 'first', amount: 1, ...values }]]);

  it('sends every edit of a row unchanged on the service', () => {
    const session = edit('second', 1);
    const requests = reconcileUpdates(session, service({}));
    expect(requests).toMatchObject([{ patch: { title: 'second' }, stale: false }]);
  });

  it('sends an edit of a column the service did not change, though it changed another', () => {
    const session = edit('second', 1);
    const requests = reconcileUpdates(session, service({ lMod: 't2', amount: 9 }));
    expect(requests).toMatchObject([{ patch: { title: 'second' }, stale: true }]);
  });

  it('keeps a cell edited here and changed on the service to something else as a conflict, sending nothing of it', () => {
    const session = edit('mine', 1);
    const requests = reconcileUpdates(session, service({ lMod: 't2', title: 'theirs', lModBy: 'u2' }));
    expect(requests).toEqual([]);
    expect(status(session, 0)).toBe(conflictStatus(['title']));
    expect(session.counts.conflicts).toBe(1);
    const record = session.base.get('r1');
    expect(record?.lMod).toBe('t1');
    expect(record?.conflict).toMatchObject({ lMod: 't2', theirs: { title: 'theirs' }, by: 'u2' });
  });

  it('agrees where the service already holds the edited value: in sync, nothing sent', () => {
    const session = edit('same', 1);
    expect(reconcileUpdates(session, service({ lMod: 't2', title: 'same' }))).toEqual([]);
    expect(status(session, 0)).toBe(STATUS.inSync);
    expect(session.base.get('r1')?.digests.title).toBe(valueDigest('same', 'text'));
  });

  it('marks a line whose row is gone from the service as removed', () => {
    const session = edit('second', 1);
    expect(reconcileUpdates(session, new Map())).toEqual([]);
    expect(status(session, 0)).toBe(STATUS.removed);
    expect(session.counts.errors).toBe(1);
  });

  it('never sends an edit of a value longer than a cell holds, and the line says so once the rest went', () => {
    const session = edit('second', 2);
    const long = 'x'.repeat(60000);
    const requests = reconcileUpdates(session, service({ title: long }));
    expect(requests).toMatchObject([{ patch: { amount: 2 } }]);
    expect(requests[0]?.patch).not.toHaveProperty('title');
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    // Not "✓ pushed": the cut cell's edit did not go (issue 33 case 10's sibling).
    expect(status(session, 0)).toBe(partlyPushedStatus(['amount'], [cutNotSentReason('title')]));
    expect(session.counts).toMatchObject({ updated: 1, errors: 1 });
  });

  it('an edit alone of a value longer than a cell holds sends nothing and says why', () => {
    const session = edit('second', 1);
    expect(reconcileUpdates(session, service({ title: 'x'.repeat(60000) }))).toEqual([]);
    expect(status(session, 0)).toBe(notPushedStatus([cutNotSentReason('title')]));
    expect(session.counts.errors).toBe(1);
  });

  it('an edit in a column deleted on the service: the others go, and the line says which did not (issue 33 case 10)', () => {
    const headers = [...HEADERS, 'gone'];
    const record: BaseRecord = {
      ...agreed('r1', 't1', 'first', 1),
      digests: { ...agreed('r1', 't1', 'first', 1).digests, gone: valueDigest('old', 'text') },
    };
    const grid = gridOf([[...line('r1', 'first', 2, 't1'), 'new']]);
    const layout = layoutOf(headers, ['gone']);
    const session = startPushSession({
      grid,
      layout,
      live,
      base: baseOf([record]),
      decode,
      fixedText: (field, value) => `${field}:${value}`,
    });
    expect(session.plan.updates[0]?.notSent).toEqual([deletedColumnEditReason('gone')]);
    const requests = reconcileUpdates(
      session,
      new Map([['r1', { id: 'r1', lMod: 't1', title: 'first', amount: 1 }]]),
    );
    expect(requests.map((request) => request.patch)).toEqual([{ amount: 2 }]);
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    expect(status(session, 0)).toBe(partlyPushedStatus(['amount'], [deletedColumnEditReason('gone')]));
    expect(session.counts).toMatchObject({ updated: 1, errors: 1 });
    expect(grid.get(0, 5)).toBe('new');
  });
});

describe('settling PATCH answers', () => {
  const base = agreed('r1', 't1', 'first', 1);

  function sent(serviceLMod: string) {
    const session = sessionOf([line('r1', 'second', 1, 't1')], [base]);
    const requests = reconcileUpdates(
      session,
      new Map([
        ['r1', { id: 'r1', lMod: serviceLMod, title: 'first', amount: serviceLMod === 't1' ? 1 : 5 }],
      ]),
    );
    return { session, requests };
  }

  it('agrees on what was sent at the answered lMod, shows it, and says pushed', () => {
    const { session, requests } = sent('t1');
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    expect(session.base.get('r1')).toMatchObject({
      lMod: 't3',
      digests: { title: valueDigest('second', 'text') },
    });
    expect(session.grid.get(0, LMOD)).toBe('lMod:t3');
    expect(status(session, 0)).toBe(STATUS.pushed);
    expect(session.counts.updated).toBe(1);
  });

  it('keeps the older lMod of a row that moved on since its base (the next pull brings the other change)', () => {
    const { session, requests } = sent('t2');
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    expect(session.base.get('r1')?.lMod).toBe('t1');
  });

  it('a line the write lost keeps, as its record says, the lMod it shows; the agreed lMod is the answer’s (issue 33 case 13)', () => {
    const { session, requests } = sent('t1');
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    // Columns moved while the run waited: no line of it was written.
    session.grid.relocate({ rows: [LOST], moved: true }, 1);
    settleLinesShown(session);
    expect(session.base.get('r1')).toMatchObject({
      lMod: 't3',
      shown: { lMod: 'lMod:t3' },
      lineShows: { lMod: 't1' },
    });
    const kept = session.base.get('r1');
    settleLinesShown(session);
    expect(session.base.get('r1')).toBe(kept);
  });

  it('a line written shows the answer’s fixed fields, as its record says', () => {
    const { session, requests } = sent('t1');
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't3' })]);
    settleLinesShown(session);
    expect(session.base.get('r1')?.shown).toEqual({ lMod: 'lMod:t3' });
    expect(session.base.get('r1')?.lineShows).toBeUndefined();
  });

  it('a line still showing a lost write’s fields: the next PATCH written onto it settles what it shows', () => {
    const stale: BaseRecord = { ...base, lMod: 't3', shown: { lMod: 't3' }, lineShows: { lMod: 't1' } };
    const session = sessionOf([line('r1', 'second', 1, 't1')], [stale]);
    // The stale lMod is put back as the shown one without saying it was typed over.
    expect(session.plan.reverted).toEqual([]);
    expect(session.grid.get(0, LMOD)).toBe('t3');
    const requests = reconcileUpdates(session, new Map([['r1', { id: 'r1', lMod: 't3', title: 'first' }]]));
    settleUpdates(session, requests, [ok({ id: 'r1', lMod: 't4' })]);
    settleLinesShown(session);
    expect(session.base.get('r1')).toMatchObject({ lMod: 't4', shown: { lMod: 'lMod:t4' } });
    expect(session.base.get('r1')?.lineShows).toBeUndefined();
  });

  it('says removed for a row gone, and why for any other refusal', () => {
    const { session, requests } = sent('t1');
    settleUpdates(session, requests, [failed(new SyncError('NOT_FOUND', 'gone'))]);
    expect(status(session, 0)).toBe(STATUS.removed);
    settleUpdates(session, requests, [failed(new SyncError('REJECTED', 'bad value'))]);
    expect(status(session, 0)).toBe(notPushedStatus(['bad value']));
    expect(session.counts.errors).toBe(2);
    expect(session.base.get('r1')).toEqual(base);
  });
});

describe('creates', () => {
  const newLines = [line('', 'one', 1, ''), line('', 'two', 2, '', 'what it said before')];

  function marked() {
    const session = sessionOf(newLines, []);
    const tokens = ['pending:a', 'pending:b'];
    const batch = markCreatesPending(session, session.plan.creates, () => tokens.shift() ?? '', {
      at: 'now',
      by: 'u_alice',
    });
    return { session, batch };
  }

  it('are marked pending, what is sent in the base, before any is sent', () => {
    const { session } = marked();
    expect(status(session, 0)).toBe(pendingStatus('pending:a'));
    expect(session.base.get('pending:b')).toMatchObject({
      lMod: 'now',
      digests: sentDigests({ title: 'two', amount: 2 }, live),
    });
  });

  it('are not sent from a line the write could not find again', () => {
    const { session, batch } = marked();
    session.grid.relocate({ rows: [0, LOST], moved: true }, 2);
    expect(keepMarkedCreates(session, batch)).toBe(true);
    expect(batch.creates.map((create) => create.plan.line)).toEqual([0]);
    expect(session.base.has('pending:b')).toBe(false);
    expect(keepMarkedCreates(session, batch)).toBe(false);
  });

  it('settle: the created row on its line; an answer lost stays pending; a refusal says why', () => {
    const { session, batch } = marked();
    settleCreates(session, batch, 0, [ok({ id: 'r7', lMod: 't7' })]);
    expect(session.grid.get(0, ID)).toBe('r7');
    expect(status(session, 0)).toBe(STATUS.created);
    expect(session.base.has('pending:a')).toBe(false);
    expect(session.base.get('r7')).toMatchObject({
      lMod: 't7',
      digests: sentDigests({ title: 'one', amount: 1 }, live),
    });
    const lost = new SyncError('NETWORK', 'no answer', { outcomeUnknown: true });
    settleCreates(session, batch, 1, [failed(lost)]);
    expect(status(session, 1)).toBe(pendingStatus('pending:b'));
    expect(session.base.has('pending:b')).toBe(true);
    expect(batch.sent).toBe(2);
    expect(session.counts).toMatchObject({ created: 1, errors: 1 });

    const again = marked();
    settleCreates(again.session, again.batch, 0, [
      ok({ id: 'r7', lMod: 't7' }),
      failed(new SyncError('REJECTED', 'too big')),
    ]);
    expect(again.session.grid.get(1, STATUS_COLUMN)).toBe(notCreatedStatus(['too big']));
    expect(again.session.base.has('pending:b')).toBe(false);
  });

  it('keep a created row pending when its line could not be written, so the next push adopts it', () => {
    const { session, batch } = marked();
    settleCreates(session, batch, 0, [ok({ id: 'r7', lMod: 't7' }), ok({ id: 'r8', lMod: 't8' })]);
    session.grid.relocate({ rows: [0, LOST], moved: true }, 2);
    keepUnwrittenCreatesPending(session, batch);
    expect(session.base.has('r7')).toBe(true);
    expect(session.base.has('r8')).toBe(false);
    expect(session.base.get('pending:b')?.lMod).toBe('now');
    expect(session.counts).toMatchObject({ created: 1, errors: 1 });
  });

  it('not sent in time are not pending: record gone, status as it was', () => {
    const { session, batch } = marked();
    settleCreates(session, batch, 0, [ok({ id: 'r7', lMod: 't7' })]);
    unmarkUnsentCreates(session, batch);
    expect(status(session, 1)).toBe('what it said before');
    expect(session.base.has('pending:b')).toBe(false);
    expect(session.grid.get(0, TITLE)).toBe('one');
    expect(session.grid.get(0, AMOUNT)).toBe(1);
  });
});
