// Where a push's listing goes on in a later execution: from where the earlier one stopped, unless a
// create became pending since (its row may be in the pages before that offset, read for no one).
import { describe, expect, it } from 'vitest';
import { type PushListingProgress, resumableListing } from '../../../../src/core/sync/push/service-reads';

const stopped: PushListingProgress = { nextOffset: 900, candidates: [], pending: ['pending:a'] };

describe('resumableListing', () => {
  it('goes on from the offset while the pending creates are those its candidates were looked for', () => {
    expect(resumableListing(stopped, ['pending:a'])).toBe(stopped);
    // One adopted since: still fine.
    expect(resumableListing(stopped, [])).toBe(stopped);
  });

  it('starts over when a create became pending after the pages before the offset were read', () => {
    expect(resumableListing(stopped, ['pending:a', 'pending:b'])).toBeUndefined();
  });

  it('starts over from a progress that does not say which creates it looked for (a job saved before)', () => {
    expect(resumableListing({ nextOffset: 900, candidates: [] }, [])).toBeUndefined();
  });

  it('has nothing to go on from without an earlier stop', () => {
    expect(resumableListing(undefined, [])).toBeUndefined();
  });
});
