// The status column's words and the one reader of them (issueKind).
import { describe, expect, it } from 'vitest';
import {
  conflictStatus,
  duplicateStatus,
  errorStatus,
  heldStatus,
  isOutdatedWhenUnedited,
  issueKind,
  issueMessage,
  keptLocalStatus,
  notCreatedStatus,
  notPushedStatus,
  pendingStatus,
  problemKind,
  readOnlyRestoredStatus,
  STATUS,
  statusText,
  unknownRowStatus,
} from '../../src/core/status';

describe('issueKind', () => {
  it('reads back every status the add-on writes', () => {
    expect(issueKind(conflictStatus(['amount']))).toBe('conflict');
    expect(issueKind(STATUS.removed)).toBe('removed');
    // Lines marked by earlier versions, in their wording, are still lines of removed rows.
    expect(issueKind('✖ removed on the service (kept here; delete the line if you no longer need it)')).toBe(
      'removed',
    );
    expect(issueKind(notPushedStatus(['amount: "abc" is not a number.']))).toBe('error');
    expect(issueKind(duplicateStatus('r1', [2, 3]))).toBe('error');
    expect(issueKind(errorStatus('not created: x'))).toBe('error');
    expect(issueKind(notCreatedStatus(['title: too long']))).toBe('error');
    expect(issueKind(unknownRowStatus('r_1'))).toBe('error');
    expect(issueKind(pendingStatus('pending:abc'))).toBe('pending');
    expect(issueKind(keptLocalStatus(['amount']))).toBe('edited');
    expect(issueKind(readOnlyRestoredStatus(['lMod']))).toBe('edited');
    expect(issueKind(STATUS.keepingMine)).toBe('edited');
    for (const ok of [STATUS.pulled, STATUS.updated, STATUS.created, STATUS.pushed, STATUS.inSync])
      expect(issueKind(ok)).toBe('ok');
    expect(issueKind('')).toBeNull();
    expect(issueKind('my own note')).toBeNull();
    expect(issueKind(42)).toBeNull();
  });

  it('an error that mentions removal is still an error, not a removed row', () => {
    expect(issueKind(errorStatus('not pushed: title removed on the service?'))).toBe('error');
    expect(problemKind(keptLocalStatus(['a']))).toBeNull();
  });

  it('a pull’s learning is added to a push’s reason, which stays first', () => {
    const status = notPushedStatus(['amount: "abc" is not a number.'], ['title updated from the service']);
    expect(status).toBe('✖ not pushed: amount: "abc" is not a number. (title updated from the service)');
    expect(statusText(status)).toBe(
      'not pushed: amount: "abc" is not a number. (title updated from the service)',
    );
  });

  it('words a problem line with its kind first', () => {
    expect(issueMessage(notPushedStatus(['x']))).toBe('error: not pushed: x');
    expect(issueMessage(conflictStatus(['status']))).toBe(
      'conflict: status changed here and on the service — choose Keep mine or Take theirs',
    );
    expect(issueMessage(STATUS.removed)).toBe(
      'removed on the service (kept here: delete the line, or open the sidebar and choose Remove these lines…)',
    );
  });
});

describe('advice after an id edit', () => {
  // Clearing an edited id would create the row a second time: the advice is to put the id back.
  it('says to put the id back or pull, never to clear it', () => {
    const unknown = String(unknownRowStatus('r9'));
    expect(unknown).toContain('put the id back as it was, or pull to restore it');
    expect(unknown).not.toMatch(/clear the id/);
    expect(STATUS.idRestored).not.toMatch(/clear the id/);
    expect(STATUS.idRestored).toMatch(/^✎ id put back: ids are the service’s and cannot be edited/);
  });
});

describe('isOutdatedWhenUnedited', () => {
  it('an error, a hold or edits not pushed yet no longer hold for a line with nothing to send', () => {
    expect(isOutdatedWhenUnedited(notPushedStatus(['amount: "abc" is not a number.']))).toBe(true);
    expect(isOutdatedWhenUnedited(notCreatedStatus(['title: too long']))).toBe(true);
    expect(isOutdatedWhenUnedited(duplicateStatus('r1', [2, 3]))).toBe(true);
    expect(isOutdatedWhenUnedited(heldStatus(['status']))).toBe(true);
    expect(isOutdatedWhenUnedited(keptLocalStatus(['amount']))).toBe(true);
  });

  it('what a run did, a conflict, a pending create and a row removed on the service stay', () => {
    for (const status of [
      STATUS.removed,
      STATUS.pushed,
      STATUS.idRestored,
      readOnlyRestoredStatus(['lMod']),
      conflictStatus(['amount']),
      pendingStatus('pending:abc'),
      '',
      'a note of mine',
      42,
    ]) {
      expect(isOutdatedWhenUnedited(status)).toBe(false);
    }
  });
});
