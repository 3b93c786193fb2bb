// When a pull reads only what changed, and the since it asks from: the service's lMods less an
// overlap, never the script's clock; the whole table listed on "Pull everything", a day after the
// last whole listing, and while added columns are being filled.
import { describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../../../src/core/records';
import {
  cursorAfter,
  FULL_LISTING_EVERY_MS,
  listingOptionsOf,
  newestLMod,
  POLL_OVERLAP_MS,
  pollRowsAtMost,
  pollSinceFor,
} from '../../../../src/core/sync/pull/poll';
import { owedColumnsAfter } from '../../../../src/core/sync/pull/owed';
import { newLink } from '../../../memory/memory-ports';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');

function linked(change: Partial<LinkRecord>): LinkRecord {
  return { ...newLink(), ...change };
}

describe('pollSinceFor', () => {
  const polling = { pollCursor: '2025-03-01T11:30:00.000Z', fullListingAt: '2025-03-01T06:00:00.000Z' };

  it('asks from the largest lMod seen, less the overlap of ten minutes', () => {
    expect(POLL_OVERLAP_MS).toBe(10 * 60 * 1000);
    expect(pollSinceFor(linked(polling), NOW, false)).toBe('2025-03-01T11:20:00.000Z');
  });

  it('never reads the script clock into since: a clock a year off asks the same since', () => {
    const since = pollSinceFor(linked(polling), Date.parse('2025-03-01T06:00:01.000Z'), false);
    expect(since).toBe('2025-03-01T11:20:00.000Z');
  });

  it('lists the whole table on "Pull everything"', () => {
    expect(pollSinceFor(linked(polling), NOW, true)).toBeUndefined();
  });

  it('lists the whole table before a pull left a cursor or a whole listing finished', () => {
    expect(pollSinceFor(linked({ fullListingAt: polling.fullListingAt }), NOW, false)).toBeUndefined();
    expect(pollSinceFor(linked({ pollCursor: polling.pollCursor }), NOW, false)).toBeUndefined();
    expect(pollSinceFor(linked({ ...polling, pollCursor: 'garbage' }), NOW, false)).toBeUndefined();
  });

  it('lists the whole table a day after the last whole listing', () => {
    const listed = Date.parse(polling.fullListingAt);
    expect(pollSinceFor(linked(polling), listed + FULL_LISTING_EVERY_MS - 1, false)).toBeDefined();
    expect(pollSinceFor(linked(polling), listed + FULL_LISTING_EVERY_MS, false)).toBeUndefined();
  });

  it('lists the whole table while columns a pull added are still being filled', () => {
    expect(pollSinceFor(linked({ ...polling, freshColumns: ['amount'] }), NOW, false)).toBeUndefined();
  });

  it('lists the whole table when the last whole listing wrote other display options than the link has', () => {
    const link = linked(polling);
    const listedWith = listingOptionsOf(link);
    expect(pollSinceFor({ ...link, listedWith }, NOW, false)).toBeDefined();
    // A fixed field turned on, or members shown as e-mails, while that listing went on.
    expect(
      pollSinceFor({ ...link, listedWith, fixedFields: [...link.fixedFields, 'cOn'] }, NOW, false),
    ).toBeUndefined();
    expect(pollSinceFor({ ...link, listedWith, showEmails: true }, NOW, false)).toBeUndefined();
    // A link whose listing recorded nothing (before this was kept) polls as it did.
    expect(pollSinceFor(link, NOW, false)).toBeDefined();
  });
});

describe('owedColumnsAfter', () => {
  it('a pull that found changes it could not write adds their columns', () => {
    expect(owedColumnsAfter(undefined, ['status'], undefined)).toEqual(['status']);
    expect(owedColumnsAfter(['amount'], ['status', 'amount'], undefined)).toEqual(['amount', 'status']);
    expect(owedColumnsAfter(undefined, [], undefined)).toBeUndefined();
  });

  it('a whole listing settles the earlier owed columns it could write, not those it found owed itself or lacked', () => {
    const present = new Set(['status', 'amount']);
    expect(owedColumnsAfter(['status'], [], { present })).toBeUndefined();
    // Found owed by one of its own executions (the header missing then): those rows still wait.
    expect(owedColumnsAfter(['status'], ['status'], { present })).toEqual(['status']);
    // Still without its header: nothing of it was written.
    expect(owedColumnsAfter(['title'], [], { present })).toEqual(['title']);
  });
});

describe('pollRowsAtMost', () => {
  it('a tenth of the table, at least 500, at most 5,000 rows', () => {
    expect(pollRowsAtMost(0)).toBe(500);
    expect(pollRowsAtMost(10_000)).toBe(1000);
    expect(pollRowsAtMost(1_000_000)).toBe(5000);
  });
});

describe('newestLMod and cursorAfter', () => {
  it('keep the largest lMod seen, skipping rows without a readable one', () => {
    const newest = newestLMod(Number.NEGATIVE_INFINITY, [
      { lMod: '2025-03-01T10:00:00.000Z' },
      { lMod: '2025-03-01T11:00:00.001Z' },
      { lMod: 'soon' },
      {},
      { lMod: '2025-03-01T09:00:00.000Z' },
    ]);
    expect(new Date(newest).toISOString()).toBe('2025-03-01T11:00:00.001Z');
    expect(cursorAfter('2025-03-01T12:00:00.000Z', newest, false)).toBe('2025-03-01T12:00:00.000Z');
    expect(cursorAfter('2025-03-01T08:00:00.000Z', newest, false)).toBe('2025-03-01T11:00:00.001Z');
    expect(cursorAfter(undefined, Number.NEGATIVE_INFINITY, false)).toBeUndefined();
  });

  it('a pull that went on over several executions keeps the cursor it started from', () => {
    const newest = Date.parse('2025-03-01T11:00:00.000Z');
    expect(cursorAfter('2025-03-01T08:00:00.000Z', newest, true)).toBe('2025-03-01T08:00:00.000Z');
    expect(cursorAfter(undefined, newest, true)).toBeUndefined();
  });
});
