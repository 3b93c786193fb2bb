// The day's use of a schedule and of live sync against Apps Script's quotas, planned from recorded runs.
import { describe, expect, it } from 'vitest';
import {
  planQuota,
  type QuotaPlanInput,
  type RecordedRun,
  refusalText,
  runsOutText,
  usageText,
} from '../../src/core/quota-plan';

/** A 10,000-row table: its first pull listed everything, later pulls read only changes. */
const TEN_THOUSAND_ROWS: RecordedRun[] = [
  { operation: 'pull', seconds: 11, requests: 101, fullListing: true },
  { operation: 'pull', seconds: 1.5, requests: 2, fullListing: false },
  { operation: 'pull', seconds: 1.5, requests: 2, fullListing: false },
];

const everyFiveMinutes = { mode: 'pull' as const, runsPerDay: 288 };

function plan(more: Partial<QuotaPlanInput>) {
  return planQuota({
    account: 'consumer',
    runs: TEN_THOUSAND_ROWS,
    poll: true,
    tableRows: 10_000,
    schedule: everyFiveMinutes,
    live: null,
    ...more,
  });
}

describe('a schedule on a service with the poll', () => {
  it('costs its runs that read only changes plus one full listing a day', () => {
    const day = plan({});
    expect(day.urlFetches).toBe(287 * 2 + 101);
    expect(day.triggerMinutes).toBe(Math.ceil((287 * 1.5 + 11) / 60));
    expect(day.urlFetchShare).toBe(4);
    expect(day.triggerShare).toBe(9);
    expect(day.runsOut).toBeNull();
    expect(runsOutText(day)).toBeNull();
    expect(usageText(day)).toBe(
      'A day: about 675 URL fetch calls (4% of 20,000) and 8 minutes of trigger time (9% of 90), the daily quotas of a Google account, shared by all your scripts.',
    );
  });

  it('gives no trigger time from runs measured at 0 s (no "0 minutes (0% of 90)")', () => {
    const day = plan({
      runs: [
        { operation: 'pull', seconds: 0, requests: 6, fullListing: true },
        { operation: 'pull', seconds: 0, requests: 6, fullListing: false },
      ],
    });
    expect(day.triggerMinutes).toBe(0);
    expect(usageText(day)).toMatch(
      /and trigger time not known yet \(recent runs took no measurable time\), the daily quotas/,
    );
  });

  it('says "1 minute", not "1 minutes"', () => {
    const day = plan({ runs: [{ operation: 'pull', seconds: 0.2, requests: 6, fullListing: false }] });
    expect(day.triggerMinutes).toBe(1);
    expect(usageText(day)).toMatch(/ and 1 minute of trigger time \(2% of 90\)/);
  });

  it('counts every run as a listing while no cheaper run was recorded (conservative)', () => {
    const day = plan({ runs: TEN_THOUSAND_ROWS.slice(0, 1) });
    expect(day.urlFetches).toBe(288 * 101);
    expect(day.runsOut?.quota).toBe('urlFetches');
    expect(day.basis.join(' ')).toMatch(/pull once more to measure one/);
    // The refusal says so, so a person whose table is cheap to poll is not sent to a longer interval only.
    expect(day.countedAsListings).toBe(true);
    expect(
      refusalText(day, 'The schedule', {
        interval: 'Every hour',
        workspaceFits: false,
        pollWouldHelp: false,
      }),
    ).toMatch(
      / No run that reads only what changed is recorded yet, so each run was counted as a whole listing: pull once more to measure one, then choose again\. Choose a longer interval \(every hour fits\)\.$/,
    );
    expect(plan({}).countedAsListings).toBe(false);
  });
});

describe('a schedule on a service without the poll', () => {
  const listings: RecordedRun[] = [{ operation: 'pull', seconds: 11, requests: 101, fullListing: true }];
  const day = plan({ poll: false, runs: listings });

  it('lists the whole table every run and runs out of URL fetch calls mid-afternoon', () => {
    expect(day.urlFetches).toBe(288 * 101);
    expect(day.urlFetchShare).toBe(146);
    // 20,000 / 29,088 of the day: 990 minutes.
    expect(day.runsOut).toEqual({ quota: 'urlFetches', afterMinutes: 990 });
    expect(runsOutText(day)).toBe(
      "It would use up the day's URL fetch calls about 16 h 30 min into the day (around 16:30 counted from midnight): every run after that fails until the next day.",
    );
  });

  it('is refused with what to pick instead', () => {
    const text = refusalText(day, 'The schedule', {
      interval: 'Every 10 minutes',
      workspaceFits: true,
      pollWouldHelp: true,
    });
    expect(text).toMatch(
      /^The schedule was not turned on\. A day: about 29,088 URL fetch calls \(146% of 20,000\)/,
    );
    expect(text).toMatch(/a longer interval \(every 10 minutes fits\)/);
    expect(text).toMatch(/the poll for row updates/);
    expect(text).toMatch(/Google Workspace/);
  });

  it('fits Google Workspace’s 100,000 calls a day', () => {
    const workspace = plan({ poll: false, account: 'workspace', runs: listings });
    expect(workspace.urlFetchShare).toBe(30);
    // 288 runs of 11 s: 53 of Workspace's 360 minutes.
    expect(workspace.triggerMinutes).toBe(53);
    expect(workspace.runsOut).toBeNull();
  });

  it('estimates a listing from the table’s rows when none was recorded', () => {
    const rowsOnly = plan({ poll: false, runs: [{ operation: 'pull', seconds: 3, requests: 4 }] });
    expect(rowsOnly.urlFetches).toBe(288 * 101);
    expect(rowsOnly.basis.join(' ')).toMatch(/101 requests for 10,000 rows/);
  });
});

describe('trigger time', () => {
  it('runs out first for a one-minute schedule of 5-second runs', () => {
    const day = plan({
      runs: [
        { operation: 'pull', seconds: 5, requests: 2, fullListing: true },
        { operation: 'pull', seconds: 5, requests: 2, fullListing: false },
      ],
      schedule: { mode: 'pull', runsPerDay: 1440 },
    });
    expect(day.triggerMinutes).toBe(120);
    expect(day.runsOut).toEqual({ quota: 'triggerMinutes', afterMinutes: 1080 });
    expect(runsOutText(day)).toMatch(/trigger time about 18 h 0 min into the day/);
  });

  it('is not known before a first run, and nothing is refused on a guess', () => {
    const day = plan({ runs: [] });
    expect(day.urlFetches).toBeNull();
    expect(day.triggerMinutes).toBeNull();
    expect(day.runsOut).toBeNull();
  });

  it('leaves URL fetch calls unknown for runs recorded without their requests', () => {
    const day = plan({ runs: [{ operation: 'pull', seconds: 2 }], tableRows: null, poll: false });
    expect(day.urlFetches).toBeNull();
    expect(day.triggerMinutes).toBe(10);
  });
});

describe('live sync', () => {
  it('adds the open sidebar’s checks (no trigger time) and the typed pushes (trigger time) to the schedule', () => {
    const runs: RecordedRun[] = [...TEN_THOUSAND_ROWS, { operation: 'push', seconds: 3, requests: 3 }];
    const scheduleOnly = plan({ runs, schedule: { mode: 'pull', runsPerDay: 24 } });
    const live = plan({
      runs,
      schedule: { mode: 'pull', runsPerDay: 24 },
      live: { sidebarHours: 8, typedPushes: 100 },
    });
    expect((live.urlFetches ?? 0) - (scheduleOnly.urlFetches ?? 0)).toBe(8 * 120 + 100 * 3);
    expect((live.triggerMinutes ?? 0) - (scheduleOnly.triggerMinutes ?? 0)).toBeGreaterThanOrEqual(5);
    expect(live.basis.join(' ')).toMatch(/an estimate/);
  });

  it('runs out of trigger time with a typed push every few seconds: each is an execution of its own', () => {
    const day = plan({ schedule: null, live: { sidebarHours: 24, typedPushes: 10_000 } });
    // 10,000 pushes of 1.5 s (no push recorded: as the runs that read only changes) = 250 minutes.
    expect(day.triggerMinutes).toBe(250);
    expect(day.urlFetches).toBe(24 * 120 + 10_000 * 2);
    expect(day.runsOut?.quota).toBe('triggerMinutes');
  });
});
