// What the playground's Advance buttons say (issue 35, point 8): "10 scheduled runs fired." in green
// when all 10 had failed and the schedule had paused itself.
import { describe, expect, it } from 'vitest';
import { advanceReport, outcomesOf } from '../../demo/advance-report';
import type { ExecutionResult } from '../../emulators/apps-script/index';

function run(value: unknown, error?: string): ExecutionResult {
  const stats = {} as ExecutionResult['stats'];
  const result: ExecutionResult = {
    ok: !error,
    killed: false,
    startedAt: 0,
    endedAt: 0,
    simulatedMs: 0,
    stats,
    logs: [],
  };
  if (error) result.error = { name: 'Exception', message: error };
  else result.value = value;
  return result;
}

const pulled = run([{ ok: true, message: 'Pulled: 25 added.' }]);
const refused = run([{ ok: false, message: 'Your API key is not valid.' }]);

describe('the sentence of an Advance', () => {
  it('says when nothing was due, and a success plainly', () => {
    expect(advanceReport('Advanced 1 minute', [], [], 0)).toEqual({
      said: 'Advanced 1 minute: no scheduled run was due.',
      failed: false,
    });
    expect(advanceReport('Advanced 1 hour', outcomesOf([pulled]), [], 0)).toEqual({
      said: 'Advanced 1 hour: 1 scheduled run fired and succeeded.',
      failed: false,
    });
  });

  it('reads failures as failures, with the last one in its own words, and a schedule that paused', () => {
    const outcomes = outcomesOf(Array.from({ length: 10 }, () => refused));
    expect(advanceReport('Advanced 1 hour', outcomes, ['Deals'], 2)).toEqual({
      said:
        'Advanced 1 hour: 10 scheduled runs fired, all 10 failed. The last failure said: “Your API key is not valid.” ' +
        'The schedule of "Deals" paused itself: resume it in the sidebar once the cause is fixed. 2 mails sent: see the Outbox.',
      failed: true,
    });
  });

  it('counts each ending apart: a run that did not start (a quota) failed, one that found a sync running skipped', () => {
    const skipped = run([{ ok: false, skipped: true, message: 'Another sync is running.' }]);
    const quota = run(undefined, 'Service using too much computer time for one day.');
    const report = advanceReport('Advanced 2 hours', outcomesOf([pulled, skipped, quota]), [], 0);
    expect(report).toEqual({
      said:
        'Advanced 2 hours: 3 scheduled runs fired: 1 succeeded, 1 failed, 1 skipped (another sync was running). ' +
        'The last failure said: “Service using too much computer time for one day.”',
      failed: true,
    });
  });
});
