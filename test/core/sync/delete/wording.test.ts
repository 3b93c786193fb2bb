// The words of deleting rows: counts and titles named, singular and plural, what a run says of rows
// held for review, and when deleting is offered again after a service said it does not serve it.
import { describe, expect, it } from 'vitest';
import { awaitingReviewText, runMessage } from '../../../../src/core/summary';
import { deleteOffered, reviewMessage } from '../../../../src/core/sync/delete/missing-rows';
import { deleteConfirmation, namedTitles, othersStayHeld } from '../../../../src/core/sync/delete/wording';
import type { MissingRow } from '../../../../src/shared/types';

const row = (
  title: string,
  state: MissingRow['state'] = 'unchanged',
  changes: MissingRow['changes'] = [],
) => ({
  rowId: `id-${title}`,
  title,
  state,
  lMod: '2025-01-01T00:00:00.000Z',
  changes,
});

describe('naming rows', () => {
  it('names one, two, three, then says how many more', () => {
    expect(namedTitles([row('a')])).toBe('“a”');
    expect(namedTitles([row('a'), row('b')])).toBe('“a” and “b”');
    expect(namedTitles([row('a'), row('b'), row('c')])).toBe('“a”, “b” and “c”');
    expect(namedTitles([row('a'), row('b'), row('c'), row('d')])).toBe('“a”, “b”, “c” and 1 more');
    expect(namedTitles([row('a'), row('b'), row('c')], 300)).toBe('“a”, “b”, “c” and 297 more');
  });
});

describe('the confirmation of a delete', () => {
  it('names the count, the titles, and what changed on the service', () => {
    expect(
      deleteConfirmation({ rows: [row('a'), row('b', 'changed', [{ columnId: 'amount', value: '7' }])] }),
    ).toBe(
      [
        'Delete 2 rows on the service: “a” and “b”?',
        'Everyone who uses the table loses them; this cannot be undone from the sheet.',
        '“b” changed on the service since your last sync: amount is now 7.',
      ].join('\n'),
    );
    expect(deleteConfirmation({ rows: [row('a')] }).split('\n')).toEqual([
      'Delete 1 row on the service: “a”?',
      'Everyone who uses the table loses it; this cannot be undone from the sheet.',
    ]);
  });

  it('says which of the rows it does not list stay held, one or more', () => {
    expect(othersStayHeld(1)).toBe('The other row stays held.');
    expect(othersStayHeld(12)).toBe('The other 12 rows stay held.');
  });
});

describe('what a run says of rows held for review', () => {
  it('says how many wait, in the singular and the plural, after the counts', () => {
    expect(awaitingReviewText(1)).toBe(
      '1 row whose line was deleted from this sheet waits for review: nothing was deleted on the service and nothing added back. Choose in the sidebar (or after Push in the menu): delete it on the service, or bring it back.',
    );
    expect(awaitingReviewText(3)).toMatch(
      /^3 rows whose lines were deleted from this sheet wait for review: .* delete them on the service, or bring them back\.$/,
    );
    const counts = {
      operation: 'pull' as const,
      created: 0,
      added: 0,
      updated: 0,
      keptLocal: 0,
      conflicts: 0,
      errors: 0,
      removedOnService: 0,
      unchanged: 4,
      seconds: 1,
    };
    expect(runMessage({ ...counts, awaitingReview: 2 }, null, [])).toContain(
      '. 2 rows whose lines were deleted',
    );
    expect(runMessage({ ...counts, awaitingReview: 0 }, null, [])).not.toContain('deleted from this sheet');
  });

  it('the review says whether deleting is offered', () => {
    expect(reviewMessage(0, [], true)).toBe(
      'No lines are missing from this sheet: nothing waits for review.',
    );
    expect(reviewMessage(1, [row('a')], true)).toBe(
      '1 row whose line was deleted from this sheet (“a”) is held: nothing was deleted on the service, and pulls do not add it back. Delete it on the service, or bring it back.',
    );
    expect(reviewMessage(1, [row('a', 'gone')], false)).toContain(
      '1 row no longer on the service. The service does not allow deleting rows through its API: bring it back',
    );
  });
});

describe('a service that said it does not serve deleting', () => {
  it('is asked again a day later, not before', () => {
    const at = '2025-01-01T00:00:00.000Z';
    const day = 24 * 60 * 60 * 1000;
    expect(deleteOffered(undefined, Date.parse(at))).toBe(true);
    expect(deleteOffered(at, Date.parse(at) + day - 1)).toBe(false);
    expect(deleteOffered(at, Date.parse(at) + day)).toBe(true);
  });
});
