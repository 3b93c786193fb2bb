// The live check's pure decisions (issue 25): when a poll answer is no change, and when the schema rides along.
import { describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../../../src/core/records';
import {
  checkHeadline,
  checkPlanFor,
  PollWindow,
  pollEchoOf,
  SCHEMA_RECHECK_MS,
  unchangedSince,
} from '../../../../src/core/sync/pull/live-check';

const SINCE = '2026-01-05T08:50:00.000Z';
const rows = [
  { id: 'r1', lMod: '2026-01-05T08:55:00.000Z' },
  { id: 'r2', lMod: '2026-01-05T08:56:00.000Z' },
];
const link = (extra: Partial<LinkRecord>): LinkRecord => extra as LinkRecord;

describe('the echo a pull leaves', () => {
  it('matches the same rows at the same lMods in any order, and nothing else', () => {
    const echo = pollEchoOf(SINCE, rows);
    expect(unchangedSince(link({ pollEcho: echo }), SINCE, [...rows].reverse(), undefined)).toBe(true);
    const edited = [rows[0] as (typeof rows)[0], { id: 'r2', lMod: '2026-01-05T08:57:00.000Z' }];
    expect(unchangedSince(link({ pollEcho: echo }), SINCE, edited, undefined)).toBe(false);
    expect(
      unchangedSince(
        link({ pollEcho: echo }),
        SINCE,
        [...rows, { id: 'r3', lMod: rows[1]?.lMod as string }],
        undefined,
      ),
    ).toBe(false);
    expect(unchangedSince(link({ pollEcho: echo }), '2026-01-05T08:51:00.000Z', rows, undefined)).toBe(false);
    expect(unchangedSince(link({}), SINCE, [], undefined)).toBe(false);
  });

  it('a schema read that differs from the recorded one is a change', () => {
    const echo = pollEchoOf(SINCE, rows);
    expect(unchangedSince(link({ pollEcho: echo, schemaDigest: 'a' }), SINCE, rows, 'a')).toBe(true);
    expect(unchangedSince(link({ pollEcho: echo, schemaDigest: 'a' }), SINCE, rows, 'b')).toBe(false);
  });
});

describe('the check plan', () => {
  const now = Date.parse('2026-01-05T09:00:00.000Z');
  it('polls alone while the schema is fresh, with it once SCHEMA_RECHECK_MS old, and pulls when a pull is owed', () => {
    const fresh = link({ schemaDigest: 'a', schemaReadAt: new Date(now - 60_000).toISOString() });
    expect(checkPlanFor(fresh, SINCE, now)).toEqual({ kind: 'poll', since: SINCE, withSchema: false });
    const old = link({ schemaDigest: 'a', schemaReadAt: new Date(now - SCHEMA_RECHECK_MS).toISOString() });
    expect(checkPlanFor(old, SINCE, now)).toEqual({ kind: 'poll', since: SINCE, withSchema: true });
    expect(checkPlanFor(link({}), SINCE, now)).toEqual({ kind: 'poll', since: SINCE, withSchema: true });
    expect(checkPlanFor(fresh, undefined, now)).toEqual({ kind: 'pull' });
  });

  it('hands every look to a pull while a column owes changes (only the sheet says whether its header is back)', () => {
    const fresh = link({ schemaDigest: 'a', schemaReadAt: new Date(now - 60_000).toISOString() });
    expect(checkPlanFor({ ...fresh, owedColumns: ['status'] }, SINCE, now)).toEqual({ kind: 'pull' });
  });
});

describe('the words of a check', () => {
  const none = { added: 0, updated: 0, conflicts: 0, errors: 0 };
  it('says what came in, "Up to date" when nothing did, and what waits for a header rather than "Up to date"', () => {
    expect(checkHeadline({ ...none, updated: 1 })).toBe('1 row updated');
    expect(checkHeadline(none)).toBe('Up to date');
    expect(checkHeadline({ ...none, warnings: ['Restore the header "status".'] })).toBe(
      'Restore the header "status".',
    );
    expect(checkHeadline({ ...none, updated: 2, warnings: ['Restore the header "status".'] })).toBe(
      '2 rows updated',
    );
  });
});

describe('the poll window a listing fills', () => {
  const at = (minutes: number): string =>
    new Date(Date.UTC(2026, 0, 5, 8, 0) + minutes * 60_000).toISOString();
  const page = (from: number, count: number, minutes: number) =>
    Array.from({ length: count }, (_, i) => ({ id: `r${from + i}`, lMod: at(minutes) }));

  it('keeps every row of a listing whose rows all sit within the overlap, past any prune', () => {
    const window = new PollWindow();
    for (let p = 0; p < 120; p += 1) window.add(page(p * 100, 100, 30));
    const kept = window.since(Date.parse(at(20)));
    expect(kept).toHaveLength(12_000);
    expect(new Set(kept.map((row) => row.id)).size).toBe(12_000);
  });

  it('drops rows a newer page pushed out of the overlap, and never a row inside it', () => {
    const window = new PollWindow();
    for (let p = 0; p < 60; p += 1) window.add(page(p * 100, 100, 0));
    // The newest lMod moves 15 minutes on: the rows at minute 0 fall out of the 10-minute overlap.
    for (let p = 60; p < 120; p += 1) window.add(page(p * 100, 100, 15));
    const kept = window.since(Number.NEGATIVE_INFINITY);
    expect(kept).toHaveLength(6_000);
    expect(kept.every((row) => row.lMod === at(15))).toBe(true);
    window.add([{ id: 'late', lMod: at(7) }]);
    expect(window.since(Date.parse(at(5))).map((row) => row.id)).toContain('late');
  });
});
