// The Sync log sheet (last 500 logged runs, see logsRun) and the owner's failure / recovery mail.
import { logsRun, runOutcome } from '../core/summary';
import type { SyncSummary } from '../shared/types';
import { activeSpreadsheet } from './active';
import { insertSheetQuietly } from './sheets';
import {
  allLinks,
  type LinkRecord,
  loadQuotaDay,
  recordRun,
  type StoredSchedule,
  saveQuotaDay,
} from './stores';

export const LOG_SHEET = 'Sync log';
const LOG_KEEP = 500;
/** How the time of a run shows (in the spreadsheet's time zone, as Sheets shows every date-time). */
const LOG_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const LOG_HEADERS = [
  'When (spreadsheet time)',
  'Sheet',
  'Table',
  'Run',
  'Mode',
  'Added',
  'Updated',
  'Created',
  'Conflicts',
  'Errors',
  'Seconds',
  'Requests',
  'Outcome',
  'Message',
  'Fetch calls today',
  'Trigger minutes today',
];
/** Where the day's use starts (1-based column), and what its header cells say when hovered. */
const DAY_USE_COLUMN = 15;
const DAY_USE_NOTE =
  "This spreadsheet's runs since the first of the quota day (Apps Script's daily quotas reset 24 hours after the first call): URL fetch calls of every run, trigger minutes of scheduled runs. Your other scripts share the same quotas.";
const DAY_MS = 24 * 60 * 60_000;

/** Adds a run to the quota day it falls in (a new day starts 24 hours after the first run of the last). */
function addToQuotaDay(
  summary: SyncSummary,
  trigger: 'manual' | 'scheduled',
  now: number,
  logged: boolean,
): {
  fetches: number;
  triggerMinutes: number;
  fresh: boolean;
} {
  const stored = loadQuotaDay();
  const day = stored && now - stored.start < DAY_MS ? stored : { start: now, fetches: 0, triggerSeconds: 0 };
  day.fetches += summary.requests;
  // Runs from the menu or the sidebar are not triggers: only scheduled runs spend trigger time.
  if (trigger === 'scheduled') day.triggerSeconds += summary.seconds;
  // A log from before the day's use was shown gets its two headers with the first row logged since.
  const fresh = stored === null || stored.logHeadersPending === true;
  if (logged) delete day.logHeadersPending;
  else if (fresh) day.logHeadersPending = true;
  // A run that ended the last link (its sheet deleted) is logged with the day's use, which is not kept:
  // the spreadsheet has no link left to plan for.
  if (allLinks().length > 0) saveQuotaDay(day);
  return {
    fetches: day.fetches,
    triggerMinutes: Math.round(day.triggerSeconds / 6) / 10,
    fresh,
  };
}

/**
 * Counts a run in the day's use and, for the quota plan, in the link's recent runs (`fullListing`: the
 * run listed the whole table; `resumed`: it went on from an earlier execution), and appends it to the
 * Sync log with the day's use so far when it is logged (logsRun: not a clean pull from the menu or
 * sidebar, whose row would be three waiting calls on a first run: the log looked for, counted, made).
 */
export function appendRunLog(
  link: LinkRecord,
  summary: SyncSummary,
  trigger: 'manual' | 'scheduled',
  fullListing = false,
  resumed = false,
): void {
  const logged = logsRun(summary, trigger, resumed);
  const today = addToQuotaDay(summary, trigger, Date.now(), logged);
  // The estimate comes from runs that did their work; a failed run leaves nothing behind.
  if (summary.ok && !summary.skipped && summary.operation !== 'resolve' && summary.operation !== 'review')
    recordRun(link.sheetId, {
      operation: summary.operation,
      seconds: summary.seconds,
      requests: summary.requests,
      // An execution that continues later is part of a listing (a poll never continues).
      fullListing: fullListing || summary.continuing,
    });
  if (!logged) return;
  const spreadsheet = activeSpreadsheet();
  let sheet = spreadsheet.getSheetByName(LOG_SHEET);
  // A sheet made here holds only its header row: no need to ask where its last row is.
  let lastRow: number | null = null;
  if (!sheet) {
    sheet = insertSheetQuietly(LOG_SHEET);
    lastRow = 1;
    sheet.getRange(1, 1, 1, LOG_HEADERS.length).setValues([LOG_HEADERS]).setFontWeight('bold');
    sheet.setFrozenRows(1);
  } else if (today.fresh) {
    // A log from before the day's use was shown gets its two headers once.
    sheet
      .getRange(1, DAY_USE_COLUMN, 1, 2)
      .setValues([LOG_HEADERS.slice(DAY_USE_COLUMN - 1)])
      .setFontWeight('bold');
  }
  if (lastRow === 1 || today.fresh)
    sheet.getRange(1, DAY_USE_COLUMN, 1, 2).setNotes([[DAY_USE_NOTE, DAY_USE_NOTE]]);
  const row = [
    new Date(),
    link.sheetName,
    link.tableName,
    trigger,
    summary.operation,
    summary.added,
    summary.updated,
    summary.created,
    summary.conflicts,
    summary.errors,
    summary.seconds,
    summary.requests,
    runOutcome(summary),
    summary.message,
    today.fetches,
    today.triggerMinutes,
  ];
  const next = (lastRow ?? sheet.getLastRow()) + 1;
  const range = sheet.getRange(next, 1, 1, row.length);
  // The time goes in as a date-time value, which Sheets shows in the spreadsheet's zone: asking the
  // zone would be a waiting call. Everything else is plain text, so a message is never parsed.
  range.setNumberFormats([row.map((_, column) => (column === 0 ? LOG_TIME_FORMAT : '@'))]);
  range.setValues([
    row.map((cell) => (typeof cell === 'number' || cell instanceof Date ? cell : String(cell))),
  ]);
  const excess = next - 1 - LOG_KEEP;
  if (excess > 0) sheet.deleteRows(2, excess);
}

/** Mails the schedule's owner once per failure streak, and once when it recovers. */
export function notifyOwner(link: LinkRecord, schedule: StoredSchedule, summary: SyncSummary): void {
  if (!schedule.notifyEmail) return;
  // Asked only for a mail: the name is a waiting call, and most runs send none.
  if (!summary.ok && !schedule.notifiedFailure) {
    const name = activeSpreadsheet().getName();
    const paused = schedule.paused
      ? '\n\nThe schedule has paused itself after 10 failures in a row. Fix the cause, then resume it in the sidebar.'
      : '';
    MailApp.sendEmail(
      schedule.notifyEmail,
      `Table App Sync: scheduled ${summary.operation} of "${link.sheetName}" failed`,
      `The scheduled ${summary.operation} of sheet "${link.sheetName}" (table ${link.tableName}) in spreadsheet "${name}" failed:\n\n${summary.message}\n\nOpen the spreadsheet and the Table App Sync sidebar to see what to do. You get one mail per failure streak.${paused}`,
    );
    schedule.notifiedFailure = true;
  } else if (summary.ok && schedule.notifiedFailure) {
    const name = activeSpreadsheet().getName();
    MailApp.sendEmail(
      schedule.notifyEmail,
      `Table App Sync: scheduled ${summary.operation} of "${link.sheetName}" recovered`,
      `The scheduled ${summary.operation} of sheet "${link.sheetName}" in spreadsheet "${name}" works again.`,
    );
    schedule.notifiedFailure = false;
  }
}

/** The pause is news even within a failure streak: it always gets its own mail. */
export function notifyPaused(link: LinkRecord, schedule: StoredSchedule, summary: SyncSummary): void {
  if (!schedule.notifyEmail) return;
  MailApp.sendEmail(
    schedule.notifyEmail,
    `Table App Sync: the schedule of "${link.sheetName}" paused itself`,
    `${summary.message}\n\nSpreadsheet: "${activeSpreadsheet().getName()}", sheet "${link.sheetName}" (table ${link.tableName}).`,
  );
}

/** A link ended by the run (its sheet deleted): always news, and the last mail of that schedule. */
export function notifyLinkEnded(link: LinkRecord, schedule: StoredSchedule, summary: SyncSummary): void {
  if (!schedule.notifyEmail) return;
  MailApp.sendEmail(
    schedule.notifyEmail,
    `Table App Sync: the link of "${link.sheetName}" ended`,
    `${summary.message}\n\nSpreadsheet: "${activeSpreadsheet().getName()}", table ${link.tableName}. The schedule is removed; nothing more runs for this sheet.`,
  );
}

/**
 * Mails the schedule's owner once when a scheduled push holds edits as a likely accident (nothing
 * of them sent); the next run that holds nothing re-arms it.
 */
export function notifyHeld(link: LinkRecord, schedule: StoredSchedule, summary: SyncSummary): void {
  if (!summary.held) {
    schedule.notifiedHeld = false;
    return;
  }
  if (schedule.notifiedHeld || !schedule.notifyEmail) return;
  const name = activeSpreadsheet().getName();
  const columns = summary.held.columns
    .map((column) => {
      const examples = column.examples
        .map((example) => `    row ${example.row}: ${example.before} → ${example.after}`)
        .join('\n');
      return `  ${column.columnId}: ${column.reason}\n${examples}`;
    })
    .join('\n');
  MailApp.sendEmail(
    schedule.notifyEmail,
    `Table App Sync: a scheduled push of "${link.sheetName}" was held`,
    `The scheduled ${summary.operation} of sheet "${link.sheetName}" (table ${link.tableName}) in spreadsheet "${name}" held edits that look like an accident; nothing of them was sent:\n\n${columns}\n\nOpen the spreadsheet: undo the change, or push from the sidebar and choose Push anyway. The schedule keeps pulling; you get one mail until a run holds nothing.`,
  );
  schedule.notifiedHeld = true;
}
