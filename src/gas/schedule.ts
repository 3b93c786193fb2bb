// Scheduled sync: one handler serves every schedule and every continuation; failures are logged,
// mailed once per streak, and pause the schedule after 10 in a row.
import { SyncError } from '../core/errors';
import { emptySummary, headedMessage, schedulePausedMessage } from '../core/summary';
import type { ScheduleInfo, ScheduleInput, SyncSummary } from '../shared/types';
import { runOperation } from './actions';
import { activeSheetId, activeSpreadsheet } from './active';
import { keySafety } from './key-safety';
import { endLink } from './link';
import { localTime, spreadsheetZone } from './local-time';
import { requireConnection, requireLink } from './operation';
import { noteRowsAwaitingReview } from './review';
import { appendRunLog, notifyHeld, notifyLinkEnded, notifyOwner, notifyPaused } from './run-log';
import { assertScheduleFits, intervalUses, linkFacts } from './quota';
import {
  allowedIntervals,
  CONTINUE_AFTER_MS,
  createContinuationTrigger,
  createScheduleTrigger,
  deleteTriggerById,
  intervalOf,
  triggerExists,
} from './schedule-triggers';
import { findSheetById } from './sheets';
import {
  allLinks,
  clearRetry,
  displayName,
  type JobRecord,
  type LinkRecord,
  loadConnection,
  loadJob,
  loadLink,
  loadRetry,
  type StoredSchedule,
  saveRetry,
  updateLink,
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

/** The refusal the schedule would meet if set now (its runs grew costlier since): null while it fits. */
function quotaWarningFor(link: LinkRecord): string | null {
  const schedule = link.schedule;
  if (!schedule) return null;
  const interval = intervalOf(schedule.every, true);
  return (
    intervalUses(linkFacts(link), schedule.mode, allowedIntervals()).get(interval.every)?.refusal ?? null
  );
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
  // Never trust the sidebar: a schedule that would use up a daily quota is refused here.
  assertScheduleFits(link, mode, interval, allowedIntervals());
  if (link.schedule) deleteTriggerById(link.schedule.triggerId);
  // Only the schedule is this call's: a run saving its own fields meanwhile keeps them.
  updateLink(link.sheetId, (stored) => {
    stored.schedule = null;
  });
  const triggerId = createScheduleTrigger(interval.every);
  const schedule: StoredSchedule = {
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
  const saved = updateLink(link.sheetId, (stored) => {
    stored.schedule = schedule;
  });
  if (!saved) {
    // Unlinked meanwhile: the new trigger would serve nothing.
    deleteTriggerById(triggerId);
    throw new SyncError('CONFIG', 'This sheet was unlinked meanwhile: link it again, then schedule it.');
  }
  return { ...(scheduleInfo(saved) as ScheduleInfo), keySafetyWarning: keySafety().warning };
}

export function clearSchedule(): { cleared: boolean } {
  const link = requireLink(activeSheetId());
  if (!link.schedule) return { cleared: false };
  deleteTriggerById(link.schedule.triggerId);
  updateLink(link.sheetId, (stored) => {
    stored.schedule = null;
  });
  return { cleared: true };
}

function failedSummary(operation: 'pull' | 'push' | 'sync', message: string): SyncSummary {
  return { ...emptySummary(operation), ok: false, message };
}

/**
 * Whether the stored schedule is still the one a run served: one set again, removed, or resumed
 * under another trigger while the run went is the person's, and the run's outcome is not its own.
 */
function sameSchedule(
  stored: StoredSchedule | null | undefined,
  served: StoredSchedule,
): stored is StoredSchedule {
  return !!stored && stored.triggerId === served.triggerId && stored.createdAt === served.createdAt;
}

/**
 * Records a scheduled run's outcome on the schedule it served, as stored now: only the outcome, the
 * failure streak, its mails and the pause are the run's; the rest stands as whoever set it left it.
 */
function recordScheduledRun(sheetId: number, served: StoredSchedule | null, summary: SyncSummary): void {
  if (!served) return;
  updateLink(sheetId, (stored) => {
    const schedule = stored.schedule;
    if (!sameSchedule(schedule, served)) return;
    // A skip is neither a failure nor a success: no mail, the failure streak neither grows nor resets.
    if (summary.skipped) {
      schedule.lastOutcome = summary.message;
      return;
    }
    schedule.lastRunAt = new Date().toISOString();
    schedule.lastOutcome = headedMessage(summary);
    if (summary.ok) {
      schedule.failures = 0;
    } else {
      schedule.failures += 1;
      if (schedule.failures >= PAUSE_AFTER_FAILURES && !schedule.paused) {
        schedule.paused = true;
        deleteTriggerById(schedule.triggerId);
        schedule.triggerId = null;
        notifyPaused(stored, schedule, summary);
      }
    }
    notifyOwner(stored, schedule, summary);
    notifyHeld(stored, schedule, summary);
  });
}

/**
 * A continuation trigger after its run (its fired trigger is already deleted). One that found another
 * run holding the document lock is tried again by a new trigger a minute later (else the operation
 * that said it continues by itself would wait for a person). The retry is recorded apart from the job,
 * which only a run holding the lock writes: should that run take the job over (resume or end it), the
 * retry no longer matches and deletes itself when it fires.
 */
function afterContinuation(sheetId: number, job: JobRecord, uid: string, skipped: boolean): void {
  const isRetry = uid !== job.triggerId;
  if (!skipped) {
    if (isRetry) clearRetry(sheetId);
    return;
  }
  const next = createContinuationTrigger(CONTINUE_AFTER_MS);
  if (next && job.triggerId) saveRetry(sheetId, { forTrigger: job.triggerId, triggerId: next });
}

/**
 * The linked sheet is gone: the link ends (every trigger, the base sheet, the stored records), and
 * the run says so in the Sync log and, for a schedule, in one mail (the link ends, so no other).
 */
function endLinkOfDeletedSheet(
  link: LinkRecord,
  operation: 'pull' | 'push' | 'sync',
  origin: 'manual' | 'scheduled',
): SyncSummary {
  endLink(link);
  const summary = failedSummary(
    operation,
    `The linked sheet "${link.sheetName}" was deleted, so its link to table ${link.tableName} has ended, with its schedule. Link a sheet again to sync this table.`,
  );
  try {
    appendRunLog(link, summary, origin);
  } catch {
    // A protected log never keeps the mail from going.
  }
  if (link.schedule) notifyLinkEnded(link, link.schedule, summary);
  return summary;
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
    // A fired one-shot trigger is done whatever its run does (fails, is stopped): deleted first, it
    // never holds one of the 20 trigger slots.
    if (isContinuation) deleteTriggerById(uid);
    const operation = isContinuation && job ? job.operation : (link.schedule?.mode ?? 'pull');
    const scheduled = isSchedule || job?.scheduled === true;
    if (!findSheetById(spreadsheet, link.sheetId)) {
      summaries.push(endLinkOfDeletedSheet(link, operation, scheduled ? 'scheduled' : 'manual'));
      continue;
    }
    let summary: SyncSummary;
    const schedule = link.schedule;
    // The run that pauses the schedule says so in its own log line and summary.
    const notePause = (result: SyncSummary): void => {
      if (!isSchedule || !schedule || result.ok) return;
      const stored = loadLink(link.sheetId)?.schedule;
      if (sameSchedule(stored, schedule) && !stored.paused && stored.failures + 1 >= PAUSE_AFTER_FAILURES) {
        result.message = schedulePausedMessage(stored.failures + 1, result.message);
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
        beforeLog: (result) => {
          if (operation === 'push') noteRowsAwaitingReview(link, result);
          notePause(result);
        },
      });
    }
    if (isContinuation && job) afterContinuation(link.sheetId, job, uid, summary.skipped === true);
    summaries.push(summary);
    if (isSchedule || (job?.scheduled && !summary.continuing))
      recordScheduledRun(link.sheetId, schedule, summary);
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
  updateLink(link.sheetId, (stored) => {
    stored.schedule = schedule;
  });
  const notice = previousOwner
    ? `This schedule was set by ${previousOwner}. It is yours now: it runs under your Google account with your API key, and failure mails go to you.`
    : null;
  return { ...(scheduleInfo(link) as ScheduleInfo), notice, keySafetyWarning: keySafety().warning };
}
