// Live sync's edit trigger handler, "Send edits as I type": pushes the edited lines of the linked
// sheets the trigger's creator turned it on for, under a push's rules (the switch is live-switch.ts;
// what is decided, core/live-sync.ts). A firing that finds a run going leaves its lines for that run
// (live-queue.ts). Every edit goes with one sender's key; a firing whose key is refused or gone hands
// its lines to the next sender in order, and says so.
import type { SyncError } from '../core/errors';
import { isBackSince, servingSender, withSenderBack, withSenderOut } from '../core/live-sync';
import type { LinkRecord, LiveSender } from '../core/records';
import type { SyncSummary } from '../shared/types';
import { runOperation } from './actions';
import { activeSpreadsheet, rememberSheet, rememberSpreadsheet } from './active';
import { enqueueLines, recordEdit } from './live-queue';
import { isSender } from './live-switch';
import { deleteTriggers } from './schedule-triggers';
import { allLinks, loadConnection, loadJob, updateLink } from './stores';

/** Lines a firing's edit names at most (a larger paste: the rest waits for the next push). */
const MAX_LIVE_LINES = 1000;

type Range = GoogleAppsScript.Spreadsheet.Range;

interface EditEvent {
  triggerUid?: string;
  range?: Range;
  source?: GoogleAppsScript.Spreadsheet.Spreadsheet;
  user?: { getEmail(): string };
}

/** The sheet's data lines (0-based) a range covers, row 1 (headers) left out. */
function linesOfRange(range: Range): number[] {
  const first = Math.max(2, range.getRow());
  const last = Math.min(range.getLastRow(), first + MAX_LIVE_LINES - 1);
  const lines: number[] = [];
  for (let row = first; row <= last; row++) lines.push(row - 2);
  return lines;
}

/** Who typed, as far as Google says (§13: not always): their typed line is otherwise everyone's. */
function editorOf(event: EditEvent): string {
  try {
    return event.user?.getEmail() ?? '';
  } catch {
    return '';
  }
}

/** The lines an edit sends, the typing record brought up to date (core/live-sync.ts linesOfEdit). */
function sentLines(sheetId: number, range: Range, event: EditEvent): number[] {
  const single = range.getNumRows() === 1 && range.getNumColumns() === 1;
  return recordEdit(sheetId, editorOf(event), {
    lines: linesOfRange(range),
    firstLine: range.getRow() - 2,
    single,
  });
}

/**
 * The edit trigger's handler: pushes the edited lines of a linked sheet the trigger's creator turned
 * live sync on for, when their key is the one that sends. A trigger serving no link deletes itself.
 */
export function onLiveEdit(event: EditEvent = {}): SyncSummary | null {
  // The event's spreadsheet spares asking for the active one (a waiting call).
  if (event.source) rememberSpreadsheet(event.source);
  const connection = loadConnection();
  const userId = connection?.info.userId;
  const links = allLinks();
  if (!connection || userId === undefined) return senderGone(links, event, false);
  // Connected with another account since: the sender this trigger served is gone, and so is it.
  if (!links.some((link) => isSender(link, userId))) return senderGone(links, event, true);
  const range = event.range;
  if (!range) return null;
  const sheet = range.getSheet();
  const sheetId = sheet.getSheetId();
  const found = links.find((each) => each.sheetId === sheetId && isSender(each, userId));
  if (!found) return null;
  const link = keepSenderRecord(found, userId, event.triggerUid, connection.info.checkedAt);
  if (servingSender(link.live ?? [])?.userId !== userId) return null;
  // The event's sheet spares finding it among the spreadsheet's sheets again.
  rememberSheet(sheetId, sheet);
  const lines = sentLines(sheetId, range, event);
  if (lines.length === 0) return null;
  // An operation continuing in later executions owns the sheet: its run takes these lines.
  if (loadJob(sheetId)) {
    enqueueLines(sheetId, lines);
    return null;
  }
  // The cells the edit named: their rows are checked with the schema (geometry: no waiting call).
  const typed = {
    lines: linesOfRange(range),
    firstColumn: range.getColumn() - 1,
    lastColumn: range.getLastColumn() - 1,
  };
  return runOperation('push', link, {
    scheduled: true,
    live: {
      lines,
      typed,
      onBusy: () => enqueueLines(sheetId, lines),
      onRefused: (failure) => handOver(link, userId, lines, failure),
    },
  });
}

/**
 * The sender's record as this firing finds it: its trigger's id kept (so a firing knows whose it is
 * without a connection), and back in line once they connected again since their key was marked out.
 */
function keepSenderRecord(
  link: LinkRecord,
  userId: string,
  triggerId: string | undefined,
  checkedAt: string,
): LinkRecord {
  const mine = (link.live ?? []).find((sender) => sender.userId === userId);
  const back = mine !== undefined && isBackSince(mine, checkedAt);
  const untold = mine !== undefined && triggerId !== undefined && mine.triggerId !== triggerId;
  if (!back && !untold) return link;
  const saved = updateLink(link.sheetId, (stored) => {
    const senders = back ? withSenderBack(stored.live ?? [], userId) : (stored.live ?? []);
    stored.live = senders.map((sender) =>
      sender.userId === userId && triggerId !== undefined ? { ...sender, triggerId } : sender,
    );
  });
  return saved ?? link;
}

/**
 * A firing whose creator's key is gone (they disconnected, maybe in another spreadsheet, or connected
 * with another account): the senders its trigger served are marked out, so the next one sends, and an
 * edit it was to send waits for them in the queue. The trigger stands by for its creator to connect
 * again, unless `drop` (another account's now) or no link knows it: then it deletes itself.
 */
function senderGone(links: readonly LinkRecord[], event: EditEvent, drop: boolean): null {
  const uid = event.triggerUid;
  const served = links.filter((link) => (link.live ?? []).some((sender) => sender.triggerId === uid));
  const at = new Date().toISOString();
  const sheetId = event.range?.getSheet().getSheetId();
  for (const link of uid === undefined ? [] : served) {
    const gone = (link.live ?? []).filter(
      (sender) => sender.triggerId === uid && sender.outSince === undefined,
    );
    if (gone.length === 0) continue;
    const wasServing = servingSender(link.live ?? [])?.triggerId === uid;
    updateLink(link.sheetId, (stored) => {
      for (const sender of gone)
        stored.live = withSenderOut(stored.live ?? [], sender.userId, at, 'disconnected');
    });
    if (wasServing && link.sheetId === sheetId && event.range) {
      enqueueLines(sheetId, sentLines(sheetId, event.range, event));
    }
  }
  if (drop || served.length === 0) deleteTriggers([uid]);
  return null;
}

/**
 * The service refused this sender's key: they are marked out (the next sender in order sends), the
 * firing's lines wait in the queue for that sender's firing, and they hear it once by mail (as a
 * schedule's owner hears of a failure). Returns the words the failed run's message ends with.
 */
function handOver(link: LinkRecord, userId: string, lines: readonly number[], failure: SyncError): string {
  const at = new Date().toISOString();
  let before: LiveSender[] = [];
  const saved = updateLink(link.sheetId, (stored) => {
    before = stored.live ?? [];
    stored.live = withSenderOut(before, userId, at, 'refused');
  });
  enqueueLines(link.sheetId, lines);
  const next = servingSender(saved?.live ?? []);
  const words = next
    ? `Edits typed in "${link.sheetName}" are sent with ${next.name}'s key from now on; connect again with a working key to send with yours.`
    : `Nothing typed in "${link.sheetName}" is sent as it is typed until someone who turned it on connects again with a working key; a push or a schedule still sends it.`;
  const me = before.find((sender) => sender.userId === userId);
  if (me && me.outSince === undefined) notifyRefused(link, me, failure, words);
  return words;
}

/** One mail to the sender whose key was refused (a failure mail of a schedule, for live sync). */
function notifyRefused(link: LinkRecord, sender: LiveSender, failure: SyncError, words: string): void {
  if (!sender.email) return;
  try {
    MailApp.sendEmail(
      sender.email,
      `Table App Sync: your key no longer sends what is typed in "${link.sheetName}"`,
      `"Send edits as I type" of sheet "${link.sheetName}" (table ${link.tableName}) in spreadsheet "${activeSpreadsheet().getName()}" could not send an edit with your key:\n\n${failure.message}\n\n${words}`,
    );
  } catch {
    // A mail quota spent never fails the firing: the Sync log has the failure.
  }
}
