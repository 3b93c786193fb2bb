// Time-driven triggers for schedules and continuations: created with the intervals Apps Script
// accepts, never left behind (removing a link or schedule removes its trigger).
import { SyncError } from '../core/errors';
import type { ScheduleOptions } from '../shared/types';
import { spreadsheetZone } from './local-time';
import { recentRunSeconds } from './stores';

export const SCHEDULE_HANDLER = 'runScheduledSync';
const MAX_TRIGGERS = 20;

interface Interval {
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

/** Add-ons may run time-driven triggers at most hourly (apps-script-facts §6, §8). */
export function isAddOn(): boolean {
  try {
    return ScriptApp.getInstallationSource() !== ScriptApp.InstallationSource.NONE;
  } catch {
    return false;
  }
}

export function allowedIntervals(addOn = isAddOn()): Interval[] {
  return addOn
    ? [...HOUR_INTERVALS, ...DAILY_INTERVALS]
    : [...MINUTE_INTERVALS, ...HOUR_INTERVALS, ...DAILY_INTERVALS];
}

/** Apps Script's daily trigger runtime per person: 90 min (Google account), 6 h (Workspace). */
export const TRIGGER_MINUTES_PER_DAY = { consumer: 90, workspace: 360 } as const;

/** Average seconds of the link's recent runs, or null before its first run. */
export function typicalRunSeconds(sheetId: number | null): number | null {
  if (sheetId === null) return null;
  const seconds = recentRunSeconds(sheetId);
  if (seconds.length === 0) return null;
  return seconds.reduce((sum, each) => sum + each, 0) / seconds.length;
}

/** Minutes of trigger runtime a day an interval would use at `runSeconds` a run (rounded up). */
export function dailyMinutes(every: string, runSeconds: number): number {
  const interval = intervalOf(every, true);
  const runsPerDay = every.startsWith('d') ? 1 : (24 * 60) / interval.minutes;
  return Math.ceil((runsPerDay * runSeconds) / 60);
}

/** A warning when an interval would use up the daily trigger runtime; null when it fits. */
export function quotaWarning(minutesPerDay: number | null): string | null {
  if (minutesPerDay === null || minutesPerDay < TRIGGER_MINUTES_PER_DAY.consumer) return null;
  return `About ${minutesPerDay} minutes of trigger time a day: Apps Script allows ${TRIGGER_MINUTES_PER_DAY.consumer} minutes a day for a Google account (6 hours for Google Workspace), shared by all your triggers. Runs past the limit do not happen. Choose a longer interval.`;
}

/** The intervals this installation accepts, each with its estimated daily runtime for the link. */
export function scheduleOptions(sheetId: number | null = null): ScheduleOptions {
  const runSeconds = typicalRunSeconds(sheetId);
  return {
    intervals: allowedIntervals().map(({ every, label }) => {
      const minutesPerDay = runSeconds === null ? null : dailyMinutes(every, runSeconds);
      return { every, label, minutesPerDay, quotaWarning: quotaWarning(minutesPerDay) };
    }),
    runSeconds: runSeconds === null ? null : Math.round(runSeconds * 10) / 10,
    quotaMinutesPerDay: TRIGGER_MINUTES_PER_DAY.consumer,
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
