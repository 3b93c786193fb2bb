// Live sync's edit trigger handler, "Send edits as I type": pushes the edited lines of the linked
// sheets the trigger's creator turned it on for, under a push's rules (the switch is live-switch.ts).
// A firing that finds a run going leaves its lines for that run (live-queue.ts).
import type { LinkRecord } from '../core/records';
import type { SyncSummary } from '../shared/types';
import { runOperation } from './actions';
import { rememberSheet, rememberSpreadsheet } from './active';
import { enqueueLines, type QueuedLines } from './live-queue';
import { isSender } from './live-switch';
import { deleteTriggers } from './schedule-triggers';
import { allLinks, loadConnection, loadJob } from './stores';

/** Lines a firing's edit names at most (a larger paste: the rest waits for the next push). */
const MAX_LIVE_LINES = 1000;
const TYPING_PREFIX = 'tas.liveTyping.';
const MAX_TYPING_EDITORS = 20;

/** The sheet's data lines (0-based) a range covers, row 1 (headers) left out. */
function linesOfRange(range: GoogleAppsScript.Spreadsheet.Range): number[] {
  const first = Math.max(2, range.getRow());
  const last = Math.min(range.getLastRow(), first + MAX_LIVE_LINES - 1);
  const lines: number[] = [];
  for (let row = first; row <= last; row++) lines.push(row - 2);
  return lines;
}

/**
 * The lines to send for an edit, and the new line still being typed: a single typed cell is the line
 * the person is on (not created yet); the line they were on before, once they edit another, is sent.
 */
function linesOfEdit(
  sheetId: number,
  range: GoogleAppsScript.Spreadsheet.Range,
  edited: readonly number[],
  editor: string,
): QueuedLines {
  const lines = [...edited];
  const properties = PropertiesService.getDocumentProperties();
  const key = TYPING_PREFIX + sheetId;
  let typingBy: Record<string, number> = {};
  try {
    typingBy = JSON.parse(properties.getProperty(key) ?? '{}') as Record<string, number>;
  } catch {
    // A damaged record: nobody is typing a new line as far as the add-on knows.
  }
  const before = typingBy[editor];
  if (before !== undefined && !lines.includes(before)) lines.push(before);
  const single = range.getNumRows() === 1 && range.getNumColumns() === 1 && lines.length > 0;
  const typing = single ? range.getRow() - 2 : undefined;
  if (typing !== undefined && typing >= 0) typingBy[editor] = typing;
  else delete typingBy[editor];
  const editors = Object.keys(typingBy);
  for (const old of editors.slice(0, Math.max(0, editors.length - MAX_TYPING_EDITORS))) delete typingBy[old];
  if (typing !== before) properties.setProperty(key, JSON.stringify(typingBy));
  return { lines, ...(typing !== undefined && typing >= 0 ? { typing } : {}) };
}

/**
 * Whether this firing serves the edit: as a schedule runs with its owner's key, every edit of a live
 * sheet goes with the first live sender's key (the add-on cannot tell a Google account from a service
 * key without a scope it does not ask for); the others' triggers stand by for when that one stops.
 */
function serves(link: LinkRecord, me: string): boolean {
  return (link.live ?? [])[0]?.userId === me;
}

/**
 * The edit trigger's handler: pushes the edited lines of a linked sheet the trigger's creator turned
 * live sync on for. A trigger serving no link any more deletes itself.
 */
export function onLiveEdit(event?: {
  triggerUid?: string;
  range?: GoogleAppsScript.Spreadsheet.Range;
  source?: GoogleAppsScript.Spreadsheet.Spreadsheet;
  user?: { getEmail(): string };
}): SyncSummary | null {
  // The event's spreadsheet spares asking for the active one (a waiting call).
  if (event?.source) rememberSpreadsheet(event.source);
  const connection = loadConnection();
  const userId = connection?.info.userId;
  const links = allLinks();
  if (!connection || userId === undefined || !links.some((link) => isSender(link, userId))) {
    deleteTriggers([event?.triggerUid]);
    return null;
  }
  const range = event?.range;
  if (!range) return null;
  const sheet = range.getSheet();
  const sheetId = sheet.getSheetId();
  const link = links.find((each) => each.sheetId === sheetId && isSender(each, userId));
  if (!link) return null;
  let editor = '';
  try {
    editor = event?.user?.getEmail() ?? '';
  } catch {
    // Google does not always say who edited (§13): their typed line is then everyone's.
  }
  if (!serves(link, userId)) return null;
  // The event's sheet spares finding it among the spreadsheet's sheets again.
  rememberSheet(sheetId, sheet);
  const edited = linesOfRange(range);
  const queued = linesOfEdit(sheetId, range, edited, editor);
  if (queued.lines.length === 0) return null;
  // An operation continuing in later executions owns the sheet: its run takes these lines.
  if (loadJob(sheetId)) {
    enqueueLines(sheetId, queued);
    return null;
  }
  // The cells the edit named: their rows are checked with the schema (geometry: no waiting call).
  const typed = {
    lines: edited,
    firstColumn: range.getColumn() - 1,
    lastColumn: range.getLastColumn() - 1,
  };
  return runOperation('push', link, {
    scheduled: true,
    live: { ...queued, typed, onBusy: () => enqueueLines(sheetId, queued) },
  });
}
