// Scheduled sync: one handler serves every schedule and every continuation; failures are logged,
// mailed once per streak, and pause the schedule after 10 in a row.
import { SyncError } from '../core/errors';
import type { ScheduleInfo, ScheduleInput, SyncSummary } from '../shared/types';
import { emptySummary, runOperation } from './actions';
import { activeSheetId, activeSpreadsheet } from './active';
import { findSheetById } from './linked-sheet';
import { requireConnection, requireLink } from './operation';
import { appendRunLog, notifyHeld, notifyOwner, notifyPaused } from './run-log';
import { createScheduleTrigger, deleteTriggerById, intervalOf, triggerExists } from './schedule-triggers';
import { allLinks, deleteLink, type LinkRecord, loadConnection, loadJob, saveLink } from './stores';

export const PAUSE_AFTER_FAILURES = 10;

function info(link: LinkRecord): ScheduleInfo | null {
  const schedule = link.schedule;
  if (!schedule) return null;
  return {
    mode: schedule.mode,
    every: schedule.every,
    label: schedule.label,
    paused: schedule.paused,
    failures: schedule.failures,
    lastRunAt: schedule.lastRunAt,
    lastOutcome: schedule.lastOutcome,
  };
}

export function getSchedule(): ScheduleInfo | null {
  const link = requireLink(activeSheetId());
  return info(link);
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
    owner: Session.getEffectiveUser().getEmail(),
    notifyEmail: connection.info.email,
    notifiedFailure: false,
  };
  saveLink(link);
  return info(link) as ScheduleInfo;
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
    const isContinuation = job !== null && job.triggerId === uid;
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
        result.message = `The schedule paused itself after ${schedule.failures + 1} failures in a row; resume it in the sidebar once the cause is fixed. Last error: ${result.message}`;
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
    summaries.push(summary);
    if (isSchedule || (job?.scheduled && !summary.continuing)) recordScheduledRun(link, summary);
  }
  if (!served && uid) deleteTriggerById(uid);
  return summaries;
}

/** Resumes a paused schedule (after its cause is fixed). */
export function resumeSchedule(): ScheduleInfo | null {
  const link = requireLink(activeSheetId());
  if (!link.schedule) return null;
  if (!triggerExists(link.schedule.triggerId))
    link.schedule.triggerId = createScheduleTrigger(link.schedule.every);
  link.schedule.paused = false;
  link.schedule.failures = 0;
  link.schedule.notifiedFailure = false;
  saveLink(link);
  return info(link);
}
