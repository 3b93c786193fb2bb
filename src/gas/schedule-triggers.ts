// Time-driven triggers for schedules and continuations: created with the intervals Apps Script
// accepts, never left behind (removing a link or schedule removes its trigger).
import { SyncError } from '../core/errors';
import { DAILY_QUOTAS } from '../core/quota-plan';
import type { QuotaUse, ScheduleMode, ScheduleOptions } from '../shared/types';
import { isAddOn } from './installation';
import { spreadsheetZone } from './local-time';
import { intervalUses, linkFacts } from './quota';
import { loadAccountKind, loadLink, recentRunSeconds } from './stores';

export const SCHEDULE_HANDLER = 'runScheduledSync';
const MAX_TRIGGERS = 20;

export interface Interval {
  every: string;
  label: string;
  minutes: number;
}

const MINUTE_INTERVALS: Interval[] = [1, 5, 10, 15, 30].map((n) => ({
  every: `m${n}`,
  label: n === 1 ? 'Every minute' : `Every ${n} minutes`,
  minutes: n,
}));
const HOUR_INTERVALS: Interval[] = [1, 2, 4, 6, 8, 12].map((n) => ({
  every: `h${n}`,
  label: n === 1 ? 'Every hour' : `Every ${n} hours`,
  minutes: n * 60,
}));
const DAILY_INTERVALS: Interval[] = Array.from({ length: 24 }, (_, hour) => ({
  every: `d${hour}`,
  label: `Daily around ${String(hour).padStart(2, '0')}:00`,
  minutes: 24 * 60,
}));

export function allowedIntervals(addOn = isAddOn()): Interval[] {
  return addOn
    ? [...HOUR_INTERVALS, ...DAILY_INTERVALS]
    : [...MINUTE_INTERVALS, ...HOUR_INTERVALS, ...DAILY_INTERVALS];
}

/** Average seconds of the link's recent runs, or null before its first run. */
export function typicalRunSeconds(sheetId: number | null): number | null {
  if (sheetId === null) return null;
  const seconds = recentRunSeconds(sheetId);
  if (seconds.length === 0) return null;
  return seconds.reduce((sum, each) => sum + each, 0) / seconds.length;
}

const MODES: readonly ScheduleMode[] = ['sync', 'pull', 'push'];

/**
 * The intervals this installation accepts, each with what a schedule of each mode would use a day of
 * the person's quotas (from the link's recent runs) and the refusal of one that runs out.
 */
export function scheduleOptions(sheetId: number | null = null): ScheduleOptions {
  const runSeconds = typicalRunSeconds(sheetId);
  const link = sheetId === null ? null : loadLink(sheetId);
  const intervals = allowedIntervals();
  const accountKind = loadAccountKind();
  const facts = link ? linkFacts(link) : null;
  const uses = facts
    ? new Map(MODES.map((mode) => [mode, intervalUses(facts, mode, intervals, accountKind)]))
    : null;
  const shownMode = link?.schedule?.mode ?? 'sync';
  return {
    intervals: intervals.map(({ every, label }) => {
      if (!uses) return { every, label, minutesPerDay: null, quotaWarning: null };
      const use = Object.fromEntries(MODES.map((mode) => [mode, uses.get(mode)?.get(every)])) as Record<
        ScheduleMode,
        QuotaUse
      >;
      return {
        every,
        label,
        minutesPerDay: use[shownMode].triggerMinutes,
        quotaWarning: use[shownMode].refusal,
        use,
      };
    }),
    runSeconds: runSeconds === null ? null : Math.round(runSeconds * 10) / 10,
    quotaMinutesPerDay: DAILY_QUOTAS[accountKind].triggerMinutes,
    accountKind,
    timeZone: spreadsheetZone(),
  };
}

/** The interval named `every`; `anyInstallation` also accepts minute intervals an add-on refuses. */
export function intervalOf(every: string, anyInstallation = false): Interval {
  const interval = allowedIntervals(anyInstallation ? false : isAddOn()).find((each) => each.every === every);
  if (!interval) {
    const hint = isAddOn() ? ' As an add-on, schedules run hourly or less often.' : '';
    throw new SyncError(
      'CONFIG',
      `"${every}" is not an interval Apps Script supports.${hint} Choose one from the list.`,
    );
  }
  return interval;
}

function ownTriggers(): GoogleAppsScript.Script.Trigger[] {
  return ScriptApp.getProjectTriggers();
}

export function triggerExists(triggerId: string | null): boolean {
  return triggerId !== null && ownTriggers().some((trigger) => trigger.getUniqueId() === triggerId);
}

export function deleteTriggerById(triggerId: string | null): void {
  deleteTriggers([triggerId]);
}

/** Deletes the caller's triggers among `triggerIds` (one listing for all; others' are not listed). */
export function deleteTriggers(triggerIds: ReadonlyArray<string | null | undefined>): void {
  const wanted = new Set(triggerIds.filter((id): id is string => !!id));
  if (wanted.size === 0) return;
  for (const trigger of ownTriggers())
    if (wanted.has(trigger.getUniqueId())) ScriptApp.deleteTrigger(trigger);
}

/** Schedules leave one of the 20 trigger slots free, so a long run can always continue. */
function assertRoomForSchedule(): void {
  const count = ownTriggers().length;
  if (count >= MAX_TRIGGERS - 1) {
    throw new SyncError(
      'CONFIG',
      `You already have ${count} triggers for this script; Apps Script allows ${MAX_TRIGGERS} per person and the add-on keeps one free for long runs. Remove a schedule on another sheet first.`,
    );
  }
}

export function createScheduleTrigger(every: string): string {
  intervalOf(every);
  assertRoomForSchedule();
  const builder = ScriptApp.newTrigger(SCHEDULE_HANDLER).timeBased();
  const kind = every[0];
  const n = Number(every.slice(1));
  try {
    const trigger =
      kind === 'm'
        ? builder.everyMinutes(n).create()
        : kind === 'h'
          ? builder.everyHours(n).create()
          : // Daily hours mean the spreadsheet's local time, not the script's zone (Etc/UTC).
            builder
              .everyDays(1)
              .atHour(n)
              .inTimezone(spreadsheetZone())
              .create();
    return trigger.getUniqueId();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isAddOn() && /too many|time-based|trigger/i.test(message)) {
      throw new SyncError(
        'CONFIG',
        'As an add-on, Apps Script allows one schedule per spreadsheet for each person. Remove the schedule on the other linked sheet first, or use Sync there.',
      );
    }
    throw error;
  }
}

/** How long after an execution stops its continuation runs. */
export const CONTINUE_AFTER_MS = 60 * 1000;

/** A one-shot trigger that continues an operation; null where the platform refuses one. */
export function createContinuationTrigger(delayMs: number): string | null {
  try {
    if (ownTriggers().length >= MAX_TRIGGERS) return null;
    return ScriptApp.newTrigger(SCHEDULE_HANDLER).timeBased().after(delayMs).create().getUniqueId();
  } catch {
    return null;
  }
}
