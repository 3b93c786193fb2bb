// Live sync's decisions on plain records (src/core/live-sync.ts): the line being typed, the queue of
// firings that found a run going, whose key sends, and what a run leaves of a hold waiting for a choice.
import { describe, expect, it } from 'vitest';
import {
  type HeldRecordState,
  heldAfterPush,
  isBackSince,
  linesOfEdit,
  MAX_QUEUED,
  MAX_QUEUED_LINES,
  MAX_TYPING_EDITORS,
  queueEntryOf,
  sentWithText,
  servingSender,
  takenFromQueue,
  typingLines,
  typingRecordOf,
  withSenderBack,
  withSenderOut,
} from '../../src/core/live-sync';
import type { LiveSender } from '../../src/core/records';

const ANN = 'ann@example.com';
const BEN = 'ben@example.com';

describe('the line being typed', () => {
  it('one typed cell is the line its editor is on; the line before goes once they edit another', () => {
    const first = linesOfEdit({}, ANN, { lines: [30], firstLine: 30, single: true });
    expect(first).toEqual({ lines: [30], record: { [ANN]: 30 }, changed: true });
    const same = linesOfEdit(first.record, ANN, { lines: [30], firstLine: 30, single: true });
    expect(same.changed).toBe(false);
    const moved = linesOfEdit(first.record, ANN, { lines: [4], firstLine: 4, single: true });
    expect(moved).toEqual({ lines: [4, 30], record: { [ANN]: 4 }, changed: true });
    // A pasted block is no line being typed: the editor's line goes with it, and none is kept.
    const pasted = linesOfEdit(moved.record, ANN, { lines: [7, 8], firstLine: 7, single: false });
    expect(pasted).toEqual({ lines: [7, 8, 4], record: {}, changed: true });
  });

  it('keeps each editor’s line apart, the latest editors only, and any of them is not created', () => {
    const both = linesOfEdit({ [BEN]: 12 }, ANN, { lines: [30], firstLine: 30, single: true });
    expect(both.record).toEqual({ [BEN]: 12, [ANN]: 30 });
    expect(typingLines(both.record)).toEqual([12, 30]);
    let record = {};
    for (let i = 0; i <= MAX_TYPING_EDITORS; i++)
      record = linesOfEdit(record, `e${i}`, { lines: [i], firstLine: i, single: true }).record;
    expect(Object.keys(record)).toHaveLength(MAX_TYPING_EDITORS);
    expect(Object.keys(record)).not.toContain('e0');
    expect(typingRecordOf('not json')).toEqual({});
    expect(typingRecordOf('[1]')).toEqual({});
    expect(typingLines(typingRecordOf('{"a": -1, "b": 2.5, "c": 3}'))).toEqual([3]);
  });
});

describe('the queue of firings that found a run going', () => {
  it('keeps each firing’s lines until it is full or an edit is too large, then marks the overflow', () => {
    expect(queueEntryOf([3, 4], 0)).toBe('{"lines":[3,4]}');
    expect(queueEntryOf([3], MAX_QUEUED)).toBe('overflow');
    expect(
      queueEntryOf(
        Array.from({ length: MAX_QUEUED_LINES + 1 }, (_, i) => i),
        0,
      ),
    ).toBe('overflow');
  });

  it('what a run takes: every line named, and every line of the sheet when nothing may be dropped', () => {
    expect(takenFromQueue(['{"lines":[5,2]}', '{"lines":[2,9]}'], false)).toEqual({
      lines: [2, 5, 9],
      everyLine: false,
    });
    expect(takenFromQueue(['{"lines":[5]}'], true)).toEqual({ lines: [5], everyLine: true });
    expect(takenFromQueue(['{"lines":[5]}', 'damaged', null], false)).toEqual({
      lines: [5],
      everyLine: true,
    });
  });
});

describe('whose key sends', () => {
  const alice: LiveSender = { email: 'a@x', userId: 'u_a', name: 'Alice', triggerId: 't_a' };
  const bob: LiveSender = { email: 'b@x', userId: 'u_b', name: 'Bob', triggerId: 't_b' };

  it('the first sender whose key works; the next when it is marked out; theirs again once back', () => {
    expect(servingSender([alice, bob])).toBe(alice);
    const out = withSenderOut([alice, bob], 'u_a', '2025-01-02T00:00:00.000Z', 'refused');
    expect(servingSender(out)?.userId).toBe('u_b');
    // Marked once: a later refusal keeps the first time (its mail went then).
    expect(withSenderOut(out, 'u_a', '2025-01-03T00:00:00.000Z', 'refused')[0]?.outSince).toBe(
      '2025-01-02T00:00:00.000Z',
    );
    const [marked] = out as [LiveSender];
    expect(isBackSince(marked, '2025-01-01T00:00:00.000Z')).toBe(false);
    expect(isBackSince(marked, '2025-01-02T00:00:01.000Z')).toBe(true);
    expect(isBackSince(alice, '2025-01-02T00:00:01.000Z')).toBe(false);
    expect(withSenderBack(out, 'u_a')).toEqual([alice, bob]);
    expect(
      servingSender(withSenderOut(out, 'u_b', '2025-01-02T00:00:00.000Z', 'disconnected')),
    ).toBeUndefined();
  });

  it('the sidebar says whose key sends, and why not the caller’s', () => {
    expect(sentWithText([], 'u_a')).toBeNull();
    expect(sentWithText([alice, bob], 'u_a')).toBe('Edits you type are sent with your key.');
    expect(sentWithText([alice, bob], 'u_b')).toBe("Edits you type are sent with Alice's key.");
    const refused = withSenderOut([alice, bob], 'u_a', '2025-01-02T00:00:00.000Z', 'refused');
    expect(sentWithText(refused, 'u_b')).toBe('Edits you type are sent with your key.');
    expect(sentWithText(refused, 'u_a')).toMatch(
      /^Edits you type are sent with Bob's key\. The service refused your key/,
    );
    const gone = withSenderOut(refused, 'u_b', '2025-01-02T00:00:00.000Z', 'disconnected');
    expect(sentWithText(gone, 'u_c')).toMatch(/^Nothing you type is sent as you type.*\(Alice, Bob\)/);
  });
});

describe('a hold waiting for a person’s choice, through a run’s pushes', () => {
  const stored: HeldRecordState<string> = { kind: 'stored' };
  const none: HeldRecordState<string> = { kind: 'none' };

  it('a person’s push or a schedule shows its own result: its hold, or none', () => {
    expect(heldAfterPush(stored, false, 'theirs')).toEqual({ kind: 'new', hold: 'theirs' });
    expect(heldAfterPush(stored, false, null)).toEqual(none);
  });

  it('a live push never clears or replaces a waiting hold, and records its own only when none waits', () => {
    expect(heldAfterPush(stored, true, null)).toBe(stored);
    expect(heldAfterPush(stored, true, 'a keystroke’s')).toBe(stored);
    expect(heldAfterPush(none, true, 'a keystroke’s')).toEqual({ kind: 'new', hold: 'a keystroke’s' });
    const made = heldAfterPush(none, false, 'the push’s');
    expect(heldAfterPush(made, true, 'a round’s')).toBe(made);
    expect(heldAfterPush(none, true, null)).toBe(none);
  });
});
