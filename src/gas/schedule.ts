// Scheduled sync: one handler serves every schedule and every continuation; failures are logged,
// mailed once per streak, and pause the schedule after 10 in a row.
import { SyncError } from '../core/errors';
import { schedulePausedMessage } from '../core/summary';
import type { ScheduleInfo, ScheduleInput, SyncSummary } from '../shared/types';
import { emptySummary, runOperation } from './actions';
import { activeSheetId, activeSpreadsheet } from './active';
import { keySafety } from './key-safety';
import { localTime, spreadsheetZone } from './local-time';
import { requireConnection, requireLink } from './operation';
import { appendRunLog, notifyHeld, notifyOwner, notifyPaused } from './run-log';
import {
  CONTINUE_AFTER_MS,
  createContinuationTrigger,
  createScheduleTrigger,
  dailyMinutes,
  deleteTriggerById,
  intervalOf,
  quotaWarning,
  triggerExists,
  typicalRunSeconds,
} from './schedule-triggers';
import { findSheetById } from './sheets';
import {
  allLinks,
  clearRetry,
  deleteLink,
  displayName,
  type JobRecord,
  type LinkRecord,
  loadConnection,
  loadJob,
  loadLink,
  loadRetry,
  type StoredSchedule,
  saveLink,
  saveRetry,
} from './stores';

const QUARTER_HOUR = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export const PAUSE_AFTER_FAILURES = 10;

/** When the schedule runs next (trigger times are not readable in Apps Script: estimated). */
function nextRunAt(schedule: StoredSchedule, now: number): number | null {
  if (schedule.paused) return null;
  const interval = intervalOf(schedule.every, true);
  if (schedule.every.startsWith('d')) {
    // The next local HH:00 in the spreadsheet's zone (15-minute steps cover zones with odd offsets).
    const hour = `${schedule.every.slice(1).padStart(2, '0')}:00`;
    const start = Math.ceil(now / QUARTER_HOUR) * QUARTER_HOUR;
    for (let at = start; at <= start + DAY_MS + QUARTER_HOUR; at += QUARTER_HOUR)
      if (localTime(at, 'HH:mm') === hour) return at;
    return null;
  }
  const step = interval.minutes * 60_000;
  const base = Date.parse(schedule.lastRunAt ?? schedule.createdAt ?? '') || now;
  let next = base + step;
  if (next < now) next += Math.ceil((now - next) / step) * step;
  return next;
}

function quotaWarningFor(link: LinkRecord): string | null {
  const runSeconds = typicalRunSeconds(link.sheetId);
  if (!link.schedule || runSeconds === null) return null;
  return quotaWarning(dailyMinutes(link.schedule.every, runSeconds));
}

/**
 * What the sidebar shows about a link's schedule: times in the spreadsheet's zone, whose key runs it,
 * and whether that is the caller.
 */
export function scheduleInfo(link: LinkRecord | null): ScheduleInfo | null {
  const schedule = link?.schedule;
  if (!schedule) return null;
  const caller = loadConnection()?.info.userId ?? null;
  const next = nextRunAt(schedule, Date.now());
  return {
    mode: schedule.mode,
    every: schedule.every,
    label: schedule.label,
    paused: schedule.paused,
    failures: schedule.failures,
    lastRunAt: schedule.lastRunAt,
    lastOutcome: schedule.lastOutcome,
    lastRunLocal: localTime(schedule.lastRunAt),
    nextRunLocal: next === null ? null : localTime(next),
    timeZone: spreadsheetZone(),
    ownerName: schedule.ownerName ?? schedule.owner,
    // Triggers are listed only for the person who created them: a trigger of ours means it is ours.
    quotaWarning: quotaWarningFor(link),
    ownedByYou:
      triggerExists(schedule.triggerId) ||
      (caller !== null && schedule.ownerUserId !== undefined && schedule.ownerUserId === caller),
  };
}

export function getSchedule(): ScheduleInfo | null {
  const link = requireLink(activeSheetId());
  return scheduleInfo(link);
}

export function setSchedule(input: ScheduleInput): ScheduleInfo {
  const mode = input?.mode;
  if (mode !== 'pull' && mode !== 'push' && mode !== 'sync') {
    throw new SyncError('CONFIG', 'Choose what the schedule does: pull, push, or sync (push then pull).');
  }
  const interval = intervalOf(String(input.every));
  const connection = requireConnection();
  const link = requireLink(activeSheetId());
  if (link.schedule) deleteTriggerById(link.schedule.triggerId);
  link.schedule = null;
  saveLink(link);
  const triggerId = createScheduleTrigger(interval.every);
  link.schedule = {
    mode,
    every: interval.every,
    label: interval.label,
    paused: false,
    failures: 0,
    lastRunAt: null,
    lastOutcome: null,
    triggerId,
    createdAt: new Date().toISOString(),
    owner: connection.info.email,
    ownerUserId: connection.info.userId,
    ownerName: displayName(connection.info),
    notifyEmail: connection.info.email,
    notifiedFailure: false,
  };
  saveLink(link);
  return { ...(scheduleInfo(link) as ScheduleInfo), keySafetyWarning: keySafety().warning };
}

export function clearSchedule(): { cleared: boolean } {
  const link = requireLink(activeSheetId());
  if (!link.schedule) return { cleared: false };
  deleteTriggerById(link.schedule.triggerId);
  link.schedule = null;
  saveLink(link);
  return { cleared: true };
}

function failedSummary(operation: 'pull' | 'push' | 'sync', message: string): SyncSummary {
  return { ...emptySummary(operation), ok: false, message };
}

function recordScheduledRun(link: LinkRecord, summary: SyncSummary): void {
  const schedule = link.schedule;
  if (!schedule) return;
  if (summary.skipped) {
    // Not a failure and not a success: no mail, the failure streak neither grows nor resets. The
    // running sync may have saved the link since this run read it: note the skip on a fresh copy.
    const fresh = loadLink(link.sheetId);
    if (fresh?.schedule) {
      fresh.schedule.lastOutcome = summary.message;
      saveLink(fresh);
    }
    return;
  }
  schedule.lastRunAt = new Date().toISOString();
  schedule.lastOutcome = summary.message;
  if (summary.ok) {
    schedule.failures = 0;
  } else {
    schedule.failures += 1;
    if (schedule.failures >= PAUSE_AFTER_FAILURES && !schedule.paused) {
      schedule.paused = true;
      deleteTriggerById(schedule.triggerId);
      schedule.triggerId = null;
      schedule.lastOutcome = summary.message;
      notifyPaused(link, schedule, summary);
    }
  }
  notifyOwner(link, schedule, summary);
  notifyHeld(link, schedule, summary);
  saveLink(link);
}

/**
 * A continuation trigger after its run. One that found another run holding the document lock is
 * tried again by a new trigger a minute later (else the operation that said it continues by itself
 * would wait for a person); the fired trigger is deleted, as one-shot triggers may stay listed. The
 * retry is recorded apart from the job, which only a run holding the lock writes: should that run
 * take the job over (resume or end it), the retry no longer matches and deletes itself when it fires.
 */
function afterContinuation(sheetId: number, job: JobRecord, uid: string, skipped: boolean): void {
  const isRetry = uid !== job.triggerId;
  // The job's own trigger is deleted by the run that resumes it; a retry's is not the job's.
  if (isRetry || skipped) deleteTriggerById(uid);
  if (!skipped) {
    if (isRetry) clearRetry(sheetId);
    return;
  }
  const next = createContinuationTrigger(CONTINUE_AFTER_MS);
  if (next && job.triggerId) saveRetry(sheetId, { forTrigger: job.triggerId, triggerId: next });
}

/**
 * The one trigger handler. Finds what the trigger serves by e.triggerUid: a continuation of an
 * operation that ran out of time, or the schedules of links. Orphan triggers are deleted.
 */
export function runScheduledSync(event?: { triggerUid?: string }): SyncSummary[] {
  const uid = event?.triggerUid ?? '';
  const spreadsheet = activeSpreadsheet();
  const summaries: SyncSummary[] = [];
  let served = false;
  for (const link of allLinks()) {
    const job = loadJob(link.sheetId);
    const retry = loadRetry(link.sheetId);
    const isRetry =
      job !== null && retry !== null && retry.triggerId === uid && retry.forTrigger === job.triggerId;
    // A retry for a job taken over meanwhile (resumed or ended by the run that held the lock) is done.
    if (retry && retry.triggerId === uid && !isRetry) clearRetry(link.sheetId);
    const isContinuation = job !== null && (job.triggerId === uid || isRetry);
    const isSchedule = link.schedule !== null && link.schedule.triggerId === uid;
    if (!isContinuation && !isSchedule) continue;
    served = true;
    if (!findSheetById(spreadsheet, link.sheetId)) {
      // The linked sheet is gone: the link ends and its triggers with it.
      if (link.schedule) deleteTriggerById(link.schedule.triggerId);
      if (job) deleteTriggerById(job.triggerId);
      deleteLink(link.sheetId);
      continue;
    }
    const operation = isContinuation && job ? job.operation : (link.schedule?.mode ?? 'pull');
    let summary: SyncSummary;
    const schedule = link.schedule;
    // The run that pauses the schedule says so in its own log line and summary.
    const notePause = (result: SyncSummary): void => {
      if (isSchedule && schedule && !result.ok && schedule.failures + 1 >= PAUSE_AFTER_FAILURES) {
        result.message = schedulePausedMessage(schedule.failures + 1, result.message);
      }
    };
    if (!loadConnection()) {
      summary = failedSummary(
        operation,
        'The API key of the person who set this schedule is no longer stored. Open the sidebar, connect again, then resume the schedule.',
      );
      notePause(summary);
      appendRunLog(link, summary, 'scheduled');
      if (job) deleteTriggerById(job.triggerId);
    } else {
      summary = runOperation(operation, link, {
        scheduled: true,
        job: isContinuation ? job : null,
        beforeLog: notePause,
      });
    }
    if (isContinuation && job) afterContinuation(link.sheetId, job, uid, summary.skipped === true);
    summaries.push(summary);
    if (isSchedule || (job?.scheduled && !summary.continuing)) recordScheduledRun(link, summary);
  }
  if (!served && uid) deleteTriggerById(uid);
  return summaries;
}

/**
 * Resumes a paused schedule (after its cause is fixed) with the caller's own connection. Resuming a
 * schedule another person set makes it the caller's: their trigger and API key run it from now on,
 * and the answer says so.
 */
export function resumeSchedule(): ScheduleInfo | null {
  const connection = requireConnection();
  const link = requireLink(activeSheetId());
  const schedule = link.schedule;
  if (!schedule) return null;
  const ours = triggerExists(schedule.triggerId);
  const previousOwner =
    !ours && schedule.ownerUserId !== undefined && schedule.ownerUserId !== connection.info.userId
      ? (schedule.ownerName ?? schedule.owner)
      : !ours && schedule.ownerUserId === undefined && schedule.owner !== connection.info.email
        ? schedule.owner
        : null;
  if (!ours) {
    // A trigger only its creator can see may still exist; it stops by itself once it finds the
    // schedule served by another trigger (an orphan is deleted when it fires).
    schedule.triggerId = createScheduleTrigger(schedule.every);
  }
  schedule.owner = connection.info.email;
  schedule.ownerUserId = connection.info.userId;
  schedule.ownerName = displayName(connection.info);
  schedule.notifyEmail = connection.info.email;
  schedule.paused = false;
  schedule.failures = 0;
  schedule.notifiedFailure = false;
  saveLink(link);
  const notice = previousOwner
    ? `This schedule was set by ${previousOwner}. It is yours now: it runs under your Google account with your API key, and failure mails go to you.`
    : null;
  return { ...(scheduleInfo(link) as ScheduleInfo), notice, keySafetyWarning: keySafety().warning };
}
