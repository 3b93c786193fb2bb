// A run's summary in words, from its counts: the sentence the sidebar, the toast and the log show.
import { describe, expect, it } from 'vitest';
import {
  countOf,
  headedMessage,
  logsRun,
  membersMessage,
  resolvedMessage,
  runCountsText,
  runHeadline,
  runMessage,
  runOutcome,
  SKIPPED_MESSAGE,
  schedulePausedMessage,
} from '../../src/core/summary';

const none = {
  operation: 'pull' as const,
  created: 0,
  added: 0,
  updated: 0,
  keptLocal: 0,
  conflicts: 0,
  errors: 0,
  removedOnService: 0,
  unchanged: 0,
  seconds: 0,
};

describe('runCountsText', () => {
  it('says unchanged even when nothing else happened', () => {
    expect(runCountsText({ ...none, unchanged: 12, seconds: 1.5 }, null)).toBe(
      'Pulled: 12 unchanged in 1.5 s.',
    );
  });

  it('lists only the counts above 0, in a fixed order, with the operation’s verb', () => {
    const counts = {
      ...none,
      operation: 'sync' as const,
      removedOnService: 7,
      errors: 6,
      conflicts: 5,
      keptLocal: 4,
      updated: 3,
      added: 2,
      created: 1,
      unchanged: 8,
      seconds: 9,
    };
    expect(runCountsText(counts, null)).toBe(
      'Synced: 1 created, 2 added, 3 updated, 4 kept local edits, 5 in conflict, 6 with errors, 7 removed on the service, 8 unchanged in 9 s.',
    );
  });

  it('names each operation by its verb', () => {
    const verbs = (['pull', 'push', 'sync', 'resolve'] as const).map(
      (operation) => runCountsText({ ...none, operation }, null).split(':')[0],
    );
    expect(verbs).toEqual(['Pulled', 'Pushed', 'Synced', 'Resolved']);
  });

  it('says a run continued by a trigger goes on by itself', () => {
    expect(runCountsText({ ...none, operation: 'push', updated: 2 }, 'trigger')).toBe(
      'Pushed: 2 updated, 0 unchanged in 0 s. Not finished yet: it continues by itself in a minute (Apps Script limits each run to 6 minutes).',
    );
  });

  it('says a run with no trigger to continue it goes on when run again, naming the operation', () => {
    expect(runCountsText({ ...none, added: 1 }, 'manual')).toBe(
      'Pulled: 1 added, 0 unchanged in 0 s. Not finished yet: run pull again (or wait for the next scheduled run) to continue where it stopped.',
    );
  });
});

describe('runMessage', () => {
  it('is the counts alone when nothing was held and no header needs a word', () => {
    expect(runMessage({ ...none, unchanged: 3 }, null, [])).toBe('Pulled: 3 unchanged in 0 s.');
  });

  it('puts what a push held after the counts, then each header warning', () => {
    const summary = { ...none, operation: 'push' as const, held: { message: 'Held, not sent: a.' } };
    expect(runMessage(summary, null, ['The header "x" is missing.', 'The header "y" is missing.'])).toBe(
      'Pushed: 0 unchanged in 0 s. Held, not sent: a. The header "x" is missing. The header "y" is missing.',
    );
  });
});

describe('resolvedMessage', () => {
  it('says there was nothing to settle when no line was settled and nothing followed', () => {
    expect(resolvedMessage('theirs', 0)).toBe('No conflicts to resolve on this sheet.');
    expect(resolvedMessage('mine', 0)).toBe('No conflicts to resolve on this sheet.');
  });

  it('counts the lines that took the service’s values', () => {
    expect(resolvedMessage('theirs', 2)).toBe("Took the service's values on 2 lines.");
    expect(resolvedMessage('theirs', 1)).toBe("Took the service's values on 1 line.");
  });

  it('puts the message of the pull or push that followed after the settled lines', () => {
    expect(resolvedMessage('theirs', 0, 'Pulled: 1 updated in 1 s.')).toBe(
      "Took the service's values on 0 lines. Pulled: 1 updated in 1 s.",
    );
    expect(resolvedMessage('mine', 3, 'Pushed: 3 updated in 1 s.')).toBe(
      'Kept your values on 3 lines. Pushed: 3 updated in 1 s.',
    );
  });
});

describe('the other run messages', () => {
  it('says a skipped scheduled firing in a few words the log can show', () => {
    expect(SKIPPED_MESSAGE).toBe('skipped: a sync was running');
  });

  it('says a schedule paused itself after its failures, then the last error', () => {
    expect(schedulePausedMessage(3, 'Your key was refused.')).toBe(
      'The schedule paused itself after 3 failures in a row; resume it in the sidebar once the cause is fixed. Last error: Your key was refused.',
    );
  });

  it('counts imported members, or says no member has the e-mail asked for', () => {
    expect(membersMessage({ members: 4, added: 1, updated: 2, unchanged: 1 })).toBe(
      'Members: 1 added, 2 updated, 1 unchanged.',
    );
    expect(membersMessage({ emailId: 'ann@acme.test', members: 0, added: 0, updated: 0, unchanged: 0 })).toBe(
      'No member of your account has the e-mail ann@acme.test.',
    );
    expect(membersMessage({ emailId: 'ann@acme.test', members: 1, added: 1, updated: 0, unchanged: 0 })).toBe(
      'Members: 1 added, 0 updated, 0 unchanged.',
    );
  });
});

describe('countOf', () => {
  it('puts the noun in the number of the count', () => {
    expect([0, 1, 2].map((count) => countOf(count, 'line'))).toEqual(['0 lines', '1 line', '2 lines']);
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});

/** A run that did all it was asked: the facts runOutcome and runHeadline read. */
const clean = {
  operation: 'push' as const,
  ok: true,
  continuing: false,
  errors: 0,
  conflicts: 0,
};
const held = { message: 'Held.', lines: 20, columns: [], key: 'k' };

describe('runOutcome', () => {
  it('is ok only for a run that left nothing undone', () => {
    expect(runOutcome(clean)).toBe('ok');
    expect(runOutcome({ ...clean, skipped: true })).toBe('skipped');
  });

  it('names what a run left undone, the most pressing first', () => {
    expect(runOutcome({ ...clean, ok: false })).toBe('failed');
    expect(runOutcome({ ...clean, held, errors: 6 })).toBe('held');
    expect(runOutcome({ ...clean, errors: 6, conflicts: 2 })).toBe('errors');
    expect(runOutcome({ ...clean, conflicts: 2, warnings: ['w'] })).toBe('conflicts');
    expect(runOutcome({ ...clean, awaitingReview: 3, warnings: ['w'] })).toBe('review');
    expect(runOutcome({ ...clean, warnings: ['The header "status" is missing.'] })).toBe('partial');
    expect(runOutcome({ ...clean, continuing: true })).toBe('continuing');
  });
});

describe('logsRun', () => {
  it('leaves out only a clean pull from the menu or sidebar', () => {
    expect(logsRun({ ...clean, operation: 'pull' }, 'manual')).toBe(false);
    expect(logsRun({ ...clean, operation: 'pull' }, 'scheduled')).toBe(true);
  });

  it('keeps what was written to the service and what went wrong', () => {
    for (const operation of ['push', 'sync', 'resolve', 'review'] as const)
      expect(logsRun({ ...clean, operation }, 'manual')).toBe(true);
    const pull = { ...clean, operation: 'pull' as const };
    expect(logsRun({ ...pull, ok: false }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, held }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, errors: 1 }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, conflicts: 1 }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, awaitingReview: 2 }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, warnings: ['The header "status" is missing.'] }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, continuing: true }, 'manual')).toBe(true);
    expect(logsRun({ ...pull, skipped: true }, 'manual')).toBe(true);
    // The end of a pull whose earlier executions were logged as continuing.
    expect(logsRun(pull, 'manual', true)).toBe(true);
  });
});

describe('runHeadline', () => {
  it('says nothing more when the run did all it was asked', () => {
    expect(runHeadline(clean)).toBeNull();
    expect(runHeadline({ ...clean, skipped: true })).toBeNull();
  });

  it('says in a few words what was left undone, with plural nouns', () => {
    expect(runHeadline({ ...clean, errors: 6 })).toBe('Pushed with 6 errors');
    expect(runHeadline({ ...clean, operation: 'pull', conflicts: 1 })).toBe('Pulled with 1 conflict');
    expect(runHeadline({ ...clean, held })).toBe('Pushed with 20 lines held');
    expect(runHeadline({ ...clean, operation: 'pull', awaitingReview: 1 })).toBe(
      'Pulled with 1 deleted line to review',
    );
    expect(runHeadline({ ...clean, warnings: ['The header "status" is missing.'] })).toBe(
      'Pushed with 1 warning',
    );
    expect(
      runHeadline({ ...clean, operation: 'sync', errors: 1, conflicts: 2, warnings: ['a', 'b'], held }),
    ).toBe('Synced with 20 lines held, 1 error, 2 conflicts and 2 warnings');
  });

  it('says a run is not finished yet, and a failed run did not finish', () => {
    expect(runHeadline({ ...clean, operation: 'pull', continuing: true })).toBe('Pull not finished yet');
    expect(runHeadline({ ...clean, errors: 2, continuing: true })).toBe(
      'Pushed with 2 errors; not finished yet',
    );
    expect(runHeadline({ ...clean, ok: false })).toBe('Push did not finish');
  });
});

describe('headedMessage', () => {
  it('heads the message by what the run left undone, and is the message alone otherwise', () => {
    const message = 'Pushed: 6 with errors, 20 unchanged in 1 s.';
    expect(headedMessage({ ...clean, errors: 6, message })).toBe(`Pushed with 6 errors. ${message}`);
    expect(headedMessage({ ...clean, message: 'Pushed: 3 updated in 1 s.' })).toBe(
      'Pushed: 3 updated in 1 s.',
    );
  });
});
