// What a schedule and live sync use of Apps Script's daily quotas (URL Fetch calls, trigger runtime),
// planned from a link's recent runs before they are turned on, and refused when it would run out.

import type { AccountKind } from '../shared/types';

export type { AccountKind };

export const ACCOUNT_KINDS: readonly AccountKind[] = ['consumer', 'workspace'];

/** Daily quotas per person, shared by all of their scripts and add-ons (apps-script-facts §3, §13). */
export const DAILY_QUOTAS: Readonly<Record<AccountKind, { urlFetches: number; triggerMinutes: number }>> = {
  consumer: { urlFetches: 20_000, triggerMinutes: 90 },
  workspace: { urlFetches: 100_000, triggerMinutes: 360 },
};

const ACCOUNT_NAME: Record<AccountKind, string> = {
  consumer: 'a Google account',
  workspace: 'Google Workspace',
};

/** Rows a page of the table listing holds (`limit=100`, table-api.md). */
export const LISTING_PAGE_ROWS = 100;

/** How often the open sidebar looks for changes; a look at an unchanged table is one request. */
export const SIDEBAR_CHECK_SECONDS = 30;

/** Requests assumed for a typed edit's push when no push was recorded: read the row, send it. */
const TYPED_PUSH_REQUESTS_ASSUMED = 2;

const DAY_MINUTES = 24 * 60;

/** What one recorded run cost (the Sync log's figures, kept per link). */
export interface RecordedRun {
  operation: 'pull' | 'push' | 'sync';
  /** Execution seconds. */
  seconds: number;
  /** URL Fetch calls; absent in records kept before they were counted. */
  requests?: number;
  /** It listed the whole table (a first pull, the daily listing, or a service without the poll). */
  fullListing?: boolean;
}

/** A schedule to plan: what it runs and how many times a day. */
export interface PlannedSchedule {
  mode: 'pull' | 'push' | 'sync';
  runsPerDay: number;
}

/** Live sync to plan: the sidebar's checks while open, and pushes of typed edits (an estimate). */
export interface PlannedLive {
  /** Hours a day the sidebar stays open (it checks every 30 s while visible). */
  sidebarHours: number;
  /** Pushes of typed edits a day: about one per burst of typing, the person's guess. */
  typedPushes: number;
}

export interface QuotaPlanInput {
  account: AccountKind;
  /** The link's recent runs, oldest first. */
  runs: readonly RecordedRun[];
  /** The connection's service answers the poll for row updates (a pull then reads only changes). */
  poll: boolean;
  /** Rows of the table as last pulled; null when not known. */
  tableRows: number | null;
  schedule: PlannedSchedule | null;
  live: PlannedLive | null;
}

/** A day's use against the quotas. Figures are rounded up; null where nothing recorded tells. */
export interface QuotaPlan {
  account: AccountKind;
  urlFetches: number | null;
  triggerMinutes: number | null;
  urlFetchQuota: number;
  triggerMinuteQuota: number;
  /** Percent of each quota (rounded up). */
  urlFetchShare: number | null;
  triggerShare: number | null;
  /** The first quota the day uses up, and after how many minutes of the day; null when both last. */
  runsOut: { quota: 'urlFetches' | 'triggerMinutes'; afterMinutes: number } | null;
  /** Where the figures come from, and what was assumed where the runs did not tell. */
  basis: string[];
  /**
   * Every scheduled run was counted as a full listing because no run that read only changes is
   * recorded yet (the service has the poll): one more pull measures what such a run really costs.
   */
  countedAsListings: boolean;
}

interface RunCost {
  requests: number | null;
  seconds: number;
}

const mean = (values: readonly number[]): number =>
  values.reduce((sum, each) => sum + each, 0) / values.length;

function costOf(runs: readonly RecordedRun[]): RunCost | null {
  if (runs.length === 0) return null;
  const counted = runs.filter((run) => typeof run.requests === 'number');
  return {
    requests: counted.length > 0 ? mean(counted.map((run) => run.requests as number)) : null,
    seconds: mean(runs.map((run) => run.seconds)),
  };
}

/** The larger of two costs, figure by figure (the conservative one where unsure). */
function larger(a: RunCost, b: RunCost): RunCost {
  const requests = a.requests === null || b.requests === null ? null : Math.max(a.requests, b.requests);
  return { requests, seconds: Math.max(a.seconds, b.seconds) };
}

const n = (value: number): string => Math.round(value).toLocaleString('en-US');
const s1 = (value: number): string => String(Math.round(value * 10) / 10);

/** Runs of the schedule's own mode when there are some, else every run (said in the basis). */
function runsFor(
  mode: PlannedSchedule['mode'],
  runs: readonly RecordedRun[],
  basis: string[],
): RecordedRun[] {
  const own = runs.filter((run) => run.operation === mode);
  if (own.length > 0 || runs.length === 0) return own;
  basis.push(`no ${mode} recorded yet: estimated from the link's other runs`);
  return [...runs];
}

/** A day of a schedule: its runs that read only changes and its full listings. */
function scheduleDay(
  input: QuotaPlanInput,
  schedule: PlannedSchedule,
  basis: string[],
): { requests: number | null; seconds: number; countedAsListings: boolean } | null {
  const runs = runsFor(schedule.mode, input.runs, basis);
  if (runs.length === 0) return null;
  const listed = input.runs.filter((run) => run.fullListing && run.operation !== 'push');
  const ordinaryRuns = runs.filter((run) => !run.fullListing);
  const measuredFull = costOf(listed);
  // A listing not recorded costs its pages (and the column read); its time is at least the longest run's.
  const pages = input.tableRows === null ? null : Math.ceil(input.tableRows / LISTING_PAGE_ROWS) + 1;
  const longest = Math.max(...runs.map((run) => run.seconds));
  const full: RunCost =
    measuredFull ?? (pages !== null ? { requests: pages, seconds: longest } : (costOf(runs) as RunCost));
  if (!measuredFull)
    basis.push(
      pages !== null
        ? `no full listing recorded: ${n(pages)} requests for ${n(input.tableRows ?? 0)} rows`
        : 'no full listing recorded: taken as the average run',
    );
  let ordinary = costOf(ordinaryRuns);
  const countedAsListings = !ordinary && schedule.mode !== 'push' && input.poll;
  if (!ordinary) {
    // Nothing says what a run that reads only changes costs: the listing is the safe figure.
    ordinary = full;
    if (countedAsListings)
      basis.push(
        'no run that read only changes recorded yet: each run counted as a full listing (pull once more to measure one)',
      );
  }
  const fullPerDay =
    schedule.mode === 'push' ? 0 : input.poll ? Math.min(1, schedule.runsPerDay) : schedule.runsPerDay;
  const ordinaryPerDay = schedule.runsPerDay - fullPerDay;
  if (schedule.mode !== 'push') {
    basis.push(
      input.poll
        ? `${n(ordinaryPerDay)} runs reading only changes (about ${ordinary.requests === null ? '?' : s1(ordinary.requests)} requests, ${s1(ordinary.seconds)} s each) and the daily full listing (about ${full.requests === null ? '?' : n(full.requests)} requests, ${s1(full.seconds)} s)`
        : `${n(schedule.runsPerDay)} runs, each listing the whole table (the service has no poll): about ${full.requests === null ? '?' : n(full.requests)} requests, ${s1(full.seconds)} s each`,
    );
  } else {
    basis.push(
      `${n(schedule.runsPerDay)} pushes of about ${ordinary.requests === null ? '?' : s1(ordinary.requests)} requests, ${s1(ordinary.seconds)} s each`,
    );
  }
  const fullCost = schedule.mode === 'push' ? ordinary : larger(full, ordinary);
  const requests =
    ordinary.requests === null || fullCost.requests === null
      ? null
      : ordinaryPerDay * ordinary.requests + fullPerDay * fullCost.requests;
  return {
    requests,
    seconds: ordinaryPerDay * ordinary.seconds + fullPerDay * fullCost.seconds,
    countedAsListings,
  };
}

/** A day of live sync: the open sidebar's checks (not triggers) and the edit trigger's pushes. */
function liveDay(
  input: QuotaPlanInput,
  live: PlannedLive,
  basis: string[],
): { requests: number; seconds: number | null } {
  const checks = Math.ceil((Math.max(0, live.sidebarHours) * 3600) / SIDEBAR_CHECK_SECONDS);
  const pushes = Math.max(0, Math.ceil(live.typedPushes));
  const pushRuns = input.runs.filter((run) => run.operation !== 'pull' && !run.fullListing);
  const measured = costOf(pushRuns);
  const perPush = measured?.requests ?? TYPED_PUSH_REQUESTS_ASSUMED;
  const seconds = measured?.seconds ?? costOf(input.runs.filter((run) => !run.fullListing))?.seconds ?? null;
  basis.push(
    `the sidebar open ${s1(live.sidebarHours)} h a day: ${n(checks)} checks of 1 request (its calls are not triggers)`,
  );
  basis.push(
    `about ${n(pushes)} typed pushes a day (an estimate: one per burst of typing), each ${measured ? `about ${s1(perPush)} requests and ${s1(measured.seconds)} s as recent pushes` : `taken as ${perPush} requests${seconds === null ? '' : ` and ${s1(seconds)} s`}`}`,
  );
  return { requests: checks + pushes * perPush, seconds: seconds === null ? null : pushes * seconds };
}

/**
 * Plans a day of a schedule and/or live sync for a link: URL Fetch calls and trigger minutes a day,
 * each as a share of the account's quota, and when in the day the first would run out. Conservative
 * where the runs do not tell (a listing where no cheaper run was seen; figures rounded up).
 */
export function planQuota(input: QuotaPlanInput): QuotaPlan {
  const quotas = DAILY_QUOTAS[input.account];
  const basis: string[] = [];
  let requests: number | null = 0;
  let seconds: number | null = 0;
  let countedAsListings = false;
  if (input.schedule) {
    const day = scheduleDay(input, input.schedule, basis);
    countedAsListings = day?.countedAsListings ?? false;
    requests = day && day.requests !== null && requests !== null ? requests + day.requests : null;
    seconds = day && seconds !== null ? seconds + day.seconds : null;
  }
  if (input.live) {
    const day = liveDay(input, input.live, basis);
    requests = requests === null ? null : requests + day.requests;
    seconds = seconds === null || day.seconds === null ? null : seconds + day.seconds;
  }
  const urlFetches = requests === null ? null : Math.ceil(requests);
  const triggerMinutes = seconds === null ? null : Math.ceil(seconds / 60);
  const share = (use: number | null, quota: number): number | null =>
    use === null ? null : Math.ceil((100 * use) / quota);
  const outAfter = (use: number | null, quota: number): number | null =>
    use === null || use < quota ? null : Math.floor((DAY_MINUTES * quota) / use);
  const fetchOut = outAfter(urlFetches, quotas.urlFetches);
  const triggerOut = outAfter(triggerMinutes, quotas.triggerMinutes);
  let runsOut: QuotaPlan['runsOut'] = null;
  if (fetchOut !== null && (triggerOut === null || fetchOut <= triggerOut))
    runsOut = { quota: 'urlFetches', afterMinutes: fetchOut };
  else if (triggerOut !== null) runsOut = { quota: 'triggerMinutes', afterMinutes: triggerOut };
  return {
    account: input.account,
    urlFetches,
    triggerMinutes,
    urlFetchQuota: quotas.urlFetches,
    triggerMinuteQuota: quotas.triggerMinutes,
    urlFetchShare: share(urlFetches, quotas.urlFetches),
    triggerShare: share(triggerMinutes, quotas.triggerMinutes),
    runsOut,
    basis,
    countedAsListings,
  };
}

/** "16:30": minutes into the day as a clock time. */
function clockTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** One sentence for a person: what the plan uses of each quota a day. */
export function usageText(plan: QuotaPlan): string {
  const fetches =
    plan.urlFetches === null
      ? 'URL fetch calls not known yet (run a pull first)'
      : `about ${n(plan.urlFetches)} URL fetch calls (${plan.urlFetchShare}% of ${n(plan.urlFetchQuota)})`;
  // Minutes are rounded up, so 0 means runs measured at 0 s: "0 minutes (0% of 90)" would be a
  // guess from nothing (issue 26, point 6).
  const minutes =
    plan.triggerMinutes === null
      ? 'trigger time not known yet'
      : plan.triggerMinutes === 0
        ? 'trigger time not known yet (recent runs took no measurable time)'
        : `${n(plan.triggerMinutes)} ${plan.triggerMinutes === 1 ? 'minute' : 'minutes'} of trigger time (${plan.triggerShare}% of ${n(plan.triggerMinuteQuota)})`;
  return `A day: ${fetches} and ${minutes}, the daily quotas of ${ACCOUNT_NAME[plan.account]}, shared by all your scripts.`;
}

/** What would run out and when, or null when the day fits. */
export function runsOutText(plan: QuotaPlan): string | null {
  if (!plan.runsOut) return null;
  const what = plan.runsOut.quota === 'urlFetches' ? 'URL fetch calls' : 'trigger time';
  return `It would use up the day's ${what} about ${Math.floor(plan.runsOut.afterMinutes / 60)} h ${plan.runsOut.afterMinutes % 60} min into the day (around ${clockTime(plan.runsOut.afterMinutes)} counted from midnight): every run after that fails until the next day.`;
}

/** What to pick instead of a plan that runs out: each a choice that fits, as far as known. */
export interface Alternatives {
  /** The most frequent interval that fits, by its label; null when none does. */
  interval: string | null;
  /** The same setting fits under Google Workspace's quotas (asked only of a consumer plan). */
  workspaceFits: boolean;
  /** The service has no poll, and the fetch calls are what runs out. */
  pollWouldHelp: boolean;
}

/** The refusal of a plan that runs out: what runs out, when, and what to pick instead. */
export function refusalText(plan: QuotaPlan, what: string, instead: Alternatives): string | null {
  const out = runsOutText(plan);
  if (!out) return null;
  const options: string[] = [];
  if (instead.interval) options.push(`a longer interval (${instead.interval.toLowerCase()} fits)`);
  if (instead.pollWouldHelp)
    options.push('a table service with the poll for row updates (each run then reads only what changed)');
  if (plan.account === 'consumer' && instead.workspaceFits)
    options.push(
      'Google Workspace, if your account is one (100,000 calls and 6 hours a day): choose it above',
    );
  const choice =
    options.length > 0
      ? `Choose ${options.join(', or ')}.`
      : 'Choose a longer interval, or sync by hand when needed.';
  // The refusal may come from the conservative count alone: measuring one cheap run comes first.
  const measure = plan.countedAsListings
    ? ' No run that reads only what changed is recorded yet, so each run was counted as a whole listing: pull once more to measure one, then choose again.'
    : '';
  return `${what} was not turned on. ${usageText(plan)} ${out}${measure} ${choice}`;
}
