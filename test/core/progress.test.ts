// Progress in words with numbers, as the sidebar shows it while a run goes.
import { describe, expect, it } from 'vitest';
import { describeProgress, progressOverExecutions, startingProgress } from '../../src/core/progress';
import type { ProgressInfo } from '../../src/shared/types';

const base: ProgressInfo = {
  ...startingProgress('pull', '2024-03-01T09:00:00.000Z'),
  phase: 'fetching rows',
};

describe('describeProgress', () => {
  it('says the phase alone before there are numbers', () => {
    expect(describeProgress({ ...base, phase: 'reading the table schema' })).toBe(
      'Reading the table schema.',
    );
  });

  it('gives rows fetched of the total once known, and lines written, and the time left', () => {
    expect(
      describeProgress({
        ...base,
        pagesFetched: 3,
        rowsFetched: 300,
        rowsExpected: 12000,
        linesWritten: 1,
        secondsLeft: 45,
      }),
    ).toBe('Fetching rows: 300 of about 12,000 rows fetched, 1 line written. 45 s left in this execution.');
    // A table that grew past the last count: no "of" that would read wrong.
    expect(
      describeProgress({ ...base, pagesFetched: 1, rowsFetched: 1, rowsExpected: 0, secondsLeft: 90 }),
    ).toBe('Fetching rows: 1 row fetched. 1 min 30 s left in this execution.');
  });

  it('gives updates and creates sent of their totals', () => {
    expect(
      describeProgress({
        ...base,
        operation: 'push',
        phase: 'creating rows',
        updatesSent: 40,
        updatesTotal: 40,
        createsSent: 10,
        createsTotal: 25,
        secondsLeft: 120,
        execution: 2,
      }),
    ).toBe(
      'Creating rows: 40 of 40 updates sent, 10 of 25 new rows created. 2 min left in this execution (execution 2).',
    );
  });

  it('says a run continues in the next execution', () => {
    expect(
      describeProgress({
        ...base,
        phase: 'waiting for the next execution',
        rowsFetched: 20000,
        pagesFetched: 200,
        rowsExpected: 50000,
        linesWritten: 20000,
        continuing: true,
      }),
    ).toBe(
      'So far 20,000 of about 50,000 rows fetched, 20,000 lines written. The run continues in its next execution (Apps Script stops each one after 6 minutes).',
    );
  });

  it('says the service limits requests when that, not the 6 minutes, stopped the run', () => {
    const limited: ProgressInfo = {
      ...base,
      operation: 'push',
      phase: 'waiting: the service limits how many requests the add-on may send',
      createsSent: 47,
      createsTotal: 80,
      continuing: true,
    };
    expect(describeProgress({ ...limited, serviceLimited: { goesOnByItself: true } })).toBe(
      'So far 47 of 80 new rows created. The service limits how many requests the add-on may send: the run goes on by itself when it allows more.',
    );
    // An add-on installation has no trigger to go on with: the person runs it again.
    expect(describeProgress({ ...limited, serviceLimited: { goesOnByItself: false } })).toBe(
      'So far 47 of 80 new rows created. The service limits how many requests the add-on may send: run it again to go on (each run sends what the service allows).',
    );
  });
});

describe('progressOverExecutions', () => {
  it('counts the sends of all executions, as the summary does, keeping what this one had left', () => {
    // The second execution of a push of 130 new lines: 47 went in the first, 56 of its 83 in this one.
    const second: ProgressInfo = {
      ...startingProgress('push', '2024-03-01T09:00:00.000Z', 2),
      createsSent: 56,
      createsTotal: 83,
      continuing: true,
    };
    const over = progressOverExecutions(second, { created: 103, updated: 0 });
    expect([over.createsSent, over.createsTotal]).toEqual([103, 130]);
    expect([over.updatesSent, over.updatesTotal]).toEqual([0, null]);
    // Updates sent in an earlier execution still count when this one sent none.
    expect(progressOverExecutions(second, { created: 103, updated: 40 }).updatesSent).toBe(40);
  });
});
