// The quota plan of a link: what a schedule or live sync would use of the person's daily URL fetch
// calls and trigger minutes (src/core/quota-plan.ts), shown before they are turned on and refused
// here, on the server, when it would run out before the day ends.
import { SyncError } from '../core/errors';
import {
  ACCOUNT_KINDS,
  type Alternatives,
  type PlannedLive,
  type PlannedSchedule,
  planQuota,
  type QuotaPlan,
  type RecordedRun,
  refusalText,
  usageText,
} from '../core/quota-plan';
import type { AccountKind, LivePlanInput, QuotaUse, ScheduleMode } from '../shared/types';
import { activeSheetId } from './active';
import { requireLink } from './operation';
import { type LinkRecord, loadAccountKind, loadConnection, recentRuns, saveAccountKind } from './stores';

/** A schedule interval as the planner needs it. */
export interface PlannedInterval {
  every: string;
  label: string;
  minutes: number;
}

/** Hours a day the sidebar is open, and typed pushes a day, when the live switch does not say. */
export const LIVE_DEFAULTS: Required<LivePlanInput> = { sidebarHours: 8, typedPushes: 200 };

export function runsPerDay(interval: PlannedInterval): number {
  return interval.every.startsWith('d') ? 1 : Math.ceil((24 * 60) / interval.minutes);
}

/** What the plans of a link start from, read once: its recorded runs and whether its service polls. */
interface LinkFacts {
  runs: RecordedRun[];
  poll: boolean;
}

export function linkFacts(link: LinkRecord): LinkFacts {
  return { runs: recentRuns(link.sheetId), poll: loadConnection()?.info.poll?.supported === true };
}

function planOf(
  facts: LinkFacts,
  account: AccountKind,
  schedule: PlannedSchedule | null,
  live: PlannedLive | null,
): QuotaPlan {
  return planQuota({ account, runs: facts.runs, poll: facts.poll, tableRows: null, schedule, live });
}

function useOf(plan: QuotaPlan, refusal: string | null): QuotaUse {
  return {
    urlFetches: plan.urlFetches,
    triggerMinutes: plan.triggerMinutes,
    urlFetchShare: plan.urlFetchShare,
    triggerShare: plan.triggerShare,
    usage: usageText(plan),
    refusal,
    basis: plan.basis,
  };
}

/**
 * What a schedule of `mode` uses at each interval (most frequent first), each that runs out with the
 * refusal that names what fits instead.
 */
export function intervalUses(
  facts: LinkFacts,
  mode: ScheduleMode,
  intervals: readonly PlannedInterval[],
  account: AccountKind = loadAccountKind(),
): Map<string, QuotaUse> {
  const plans = intervals.map((interval) => ({
    interval,
    plan: planOf(facts, account, { mode, runsPerDay: runsPerDay(interval) }, null),
  }));
  const fitting = [...plans]
    .sort((a, b) => a.interval.minutes - b.interval.minutes)
    .find((each) => each.plan.urlFetches !== null && !each.plan.runsOut);
  const uses = new Map<string, QuotaUse>();
  for (const { interval, plan } of plans) {
    const instead: Alternatives = {
      interval: fitting?.interval.label ?? null,
      workspaceFits:
        account === 'consumer' &&
        plan.runsOut !== null &&
        !planOf(facts, 'workspace', { mode, runsPerDay: runsPerDay(interval) }, null).runsOut,
      pollWouldHelp: !facts.poll && plan.runsOut?.quota === 'urlFetches',
    };
    uses.set(interval.every, useOf(plan, refusalText(plan, 'The schedule', instead)));
  }
  return uses;
}

/** Throws (CONFIG) the refusal of a schedule that would run out of a daily quota before the day ends. */
export function assertScheduleFits(
  link: LinkRecord,
  mode: ScheduleMode,
  interval: PlannedInterval,
  intervals: readonly PlannedInterval[],
): void {
  const refusal = intervalUses(linkFacts(link), mode, intervals).get(interval.every)?.refusal;
  if (refusal) throw new SyncError('CONFIG', refusal);
}

function liveOf(input: LivePlanInput | null | undefined): PlannedLive {
  const number = (value: unknown, fallback: number, most: number): number => {
    if (value === undefined || value === null) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > most)
      throw new SyncError('VALIDATION', `Give a number from 0 to ${most} (got ${String(value)}).`);
    return n;
  };
  return {
    sidebarHours: number(input?.sidebarHours, LIVE_DEFAULTS.sidebarHours, 24),
    typedPushes: number(input?.typedPushes, LIVE_DEFAULTS.typedPushes, 100_000),
  };
}

/**
 * What live sync on a link would use a day, with its schedule (if any) counted: the refusal is set
 * when that runs out before the day ends. The live switch calls `assertLiveSyncFits` on the server.
 */
export function liveSyncUse(link: LinkRecord, input?: LivePlanInput | null): QuotaUse {
  const account = loadAccountKind();
  const live = liveOf(input);
  const schedule = scheduleOfLink(link);
  const facts = linkFacts(link);
  const plan = planOf(facts, account, schedule, live);
  const instead: Alternatives = {
    interval: null,
    workspaceFits: account === 'consumer' && !planOf(facts, 'workspace', schedule, live).runsOut,
    pollWouldHelp: !facts.poll && plan.runsOut?.quota === 'urlFetches',
  };
  const refusal = refusalText(plan, 'Live sync', instead);
  return useOf(
    plan,
    refusal && schedule
      ? `${refusal} A longer schedule interval, or fewer hours with the sidebar open, also lowers it.`
      : refusal,
  );
}

/** Throws (CONFIG) the refusal of live sync that would run out of a daily quota before the day ends. */
export function assertLiveSyncFits(link: LinkRecord, input?: LivePlanInput | null): void {
  const refusal = liveSyncUse(link, input).refusal;
  if (refusal) throw new SyncError('CONFIG', refusal);
}

function scheduleOfLink(link: LinkRecord): PlannedSchedule | null {
  const schedule = link.schedule;
  if (!schedule || schedule.paused) return null;
  const every = schedule.every;
  const minutes = every.startsWith('m')
    ? Number(every.slice(1))
    : every.startsWith('h')
      ? Number(every.slice(1)) * 60
      : 24 * 60;
  return { mode: schedule.mode, runsPerDay: runsPerDay({ every, label: schedule.label, minutes }) };
}

/** Sidebar: what live sync on the active sheet's link would use a day (and whether it is refused). */
export function planLiveSync(input?: LivePlanInput | null): QuotaUse {
  return liveSyncUse(requireLink(activeSheetId()), input);
}

/** Sidebar: the account kind the person plans with (consumer or Workspace), remembered for them. */
export function setAccountKind(kind: AccountKind): { accountKind: AccountKind } {
  if (!ACCOUNT_KINDS.includes(kind)) {
    throw new SyncError(
      'VALIDATION',
      'Choose "Google account" (gmail.com) or "Google Workspace" for the quotas that apply to you.',
    );
  }
  saveAccountKind(kind);
  return { accountKind: kind };
}
