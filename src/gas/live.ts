// Live sync, "Send edits as I type": one installable edit trigger per person (Apps Script allows an
// add-on one of each type per user per document, apps-script-facts §13) pushes the edited lines of
// the linked sheets that person turned it on for, under a push's rules. A firing that finds a run
// going leaves its lines in document properties for that run to take before it ends.
import { SyncError } from '../core/errors';
import type { LinkRecord, LiveSender } from '../core/records';
import type { LiveInfo, SyncSummary } from '../shared/types';
import { runOperation } from './actions';
import { activeSpreadsheet, rememberSheet } from './active';
import { deleteTriggers } from './schedule-triggers';
import { allLinks, displayName, loadConnection, loadJob, updateLink } from './stores';

export const LIVE_HANDLER = 'onLiveEdit';
const MAX_TRIGGERS = 20;
/** Lines a firing's edit names at most (a larger paste: the rest waits for the next push). */
const MAX_LIVE_LINES = 1000;
const QUEUE_PREFIX = 'tas.liveQueue.';
/** Entries a sheet's queue holds at most: a longer burst is taken whole by the next push anyway. */
const MAX_QUEUED = 50;
const TYPING_PREFIX = 'tas.liveTyping.';
const MAX_TYPING_EDITORS = 20;

type Trigger = GoogleAppsScript.Script.Trigger;

/** The caller's own edit triggers of this handler (others' are not listed to them). */
function ownEditTriggers(): Trigger[] {
  return ScriptApp.getUserTriggers(activeSpreadsheet()).filter(
    (trigger) =>
      trigger.getHandlerFunction() === LIVE_HANDLER && trigger.getEventType() === ScriptApp.EventType.ON_EDIT,
  );
}

/** The caller's edit trigger: the one they have, else a new one (never a second). */
function ensureEditTrigger(): void {
  if (ownEditTriggers().length > 0) return;
  const count = ScriptApp.getProjectTriggers().length;
  if (count >= MAX_TRIGGERS - 1) {
    throw new SyncError(
      'CONFIG',
      `You already have ${count} triggers for this script; Apps Script allows ${MAX_TRIGGERS} per person and the add-on keeps one free for long runs. Remove a schedule first, then turn on "Send edits as I type".`,
    );
  }
  try {
    ScriptApp.newTrigger(LIVE_HANDLER).forSpreadsheet(activeSpreadsheet()).onEdit().create();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SyncError(
      'CONFIG',
      `Apps Script refused the edit trigger "Send edits as I type" needs (${message}). Remove another edit trigger of this add-on in Extensions › Apps Script › Triggers, then try again.`,
    );
  }
}

function isSender(link: LinkRecord, userId: string): boolean {
  return (link.live ?? []).some((sender) => sender.userId === userId);
}

/** Deletes the caller's edit trigger once no link of the spreadsheet lists them: no orphan trigger. */
export function dropEditTriggerIfUnused(): void {
  const userId = loadConnection()?.info.userId;
  if (userId !== undefined && allLinks().some((link) => isSender(link, userId))) return;
  deleteTriggers(ownEditTriggers().map((trigger) => trigger.getUniqueId()));
}

/** Turns the caller's live sync of a link on or off; returns the link as saved. */
export function setLive(sheetId: number, on: boolean): LinkRecord | null {
  const connection = loadConnection();
  if (!connection) {
    throw new SyncError('CONFIG', 'Not connected yet: connect with your API key, then turn on live sync.');
  }
  const me: LiveSender = {
    email: connection.info.email,
    userId: connection.info.userId,
    name: displayName(connection.info),
  };
  if (on) ensureEditTrigger();
  const saved = updateLink(sheetId, (stored) => {
    const others = (stored.live ?? []).filter((sender) => sender.userId !== me.userId);
    const mine = (stored.live ?? []).find((sender) => sender.userId === me.userId);
    stored.live = on
      ? [...(stored.live ?? []).map((s) => (s === mine ? me : s)), ...(mine ? [] : [me])]
      : others;
    if (stored.live.length === 0) delete stored.live;
  });
  if (!on || !saved) dropEditTriggerIfUnused();
  return saved;
}

/** Live sync of a link as the caller sees it: theirs or not, and whose key sends what they type. */
export function liveInfo(link: LinkRecord): LiveInfo {
  const senders = link.live ?? [];
  const userId = loadConnection()?.info.userId;
  const mine = userId !== undefined && senders.some((sender) => sender.userId === userId);
  const first = senders[0];
  return {
    mine,
    sentWith: !first
      ? null
      : first.userId === userId
        ? 'Edits you type are sent with your key.'
        : `Edits you type are sent with ${first.name}'s key.`,
  };
}

/** The sheet's data lines (0-based) a range covers, row 1 (headers) left out. */
function linesOfRange(range: GoogleAppsScript.Spreadsheet.Range): number[] {
  const first = Math.max(2, range.getRow());
  const last = Math.min(range.getLastRow(), first + MAX_LIVE_LINES - 1);
  const lines: number[] = [];
  for (let row = first; row <= last; row++) lines.push(row - 2);
  return lines;
}

interface QueuedLines {
  lines: number[];
  typing?: number;
}

/** Leaves a firing's lines for the run going to take (one key per firing: no lost update). */
export function enqueueLines(sheetId: number, queued: QueuedLines): void {
  const properties = PropertiesService.getDocumentProperties();
  const prefix = `${QUEUE_PREFIX}${sheetId}.`;
  const waiting = properties.getKeys().filter((key) => key.startsWith(prefix)).length;
  // Full: the next push (or schedule) compares the whole sheet and sends these edits then.
  if (waiting >= MAX_QUEUED) return;
  const token = `${Date.now().toString(36).padStart(10, '0')}${Math.floor(Math.random() * 1e9).toString(36)}`;
  properties.setProperty(prefix + token, JSON.stringify(queued));
}

/** Takes every line left for this sheet (the latest entry's typed line is still being typed). */
export function takeQueuedLines(sheetId: number): QueuedLines | null {
  const properties = PropertiesService.getDocumentProperties();
  const prefix = `${QUEUE_PREFIX}${sheetId}.`;
  const all = properties.getProperties();
  const keys = Object.keys(all)
    .filter((key) => key.startsWith(prefix))
    .sort();
  if (keys.length === 0) return null;
  const lines = new Set<number>();
  let typing: number | undefined;
  for (const key of keys) {
    properties.deleteProperty(key);
    try {
      const entry = JSON.parse(all[key] as string) as QueuedLines;
      for (const line of entry.lines ?? []) if (Number.isInteger(line) && line >= 0) lines.add(line);
      typing = entry.typing;
    } catch {
      // A damaged entry names nothing: the next push compares the whole sheet.
    }
  }
  return { lines: [...lines], ...(typing !== undefined ? { typing } : {}) };
}

/**
 * The lines to send for an edit, and the new line still being typed: a single typed cell is the line
 * the person is on (not created yet); the line they were on before, once they edit another, is sent.
 */
function linesOfEdit(
  sheetId: number,
  range: GoogleAppsScript.Spreadsheet.Range,
  editor: string,
): QueuedLines {
  const lines = linesOfRange(range);
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
  user?: { getEmail(): string };
}): SyncSummary | null {
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
  const queued = linesOfEdit(sheetId, range, editor);
  if (queued.lines.length === 0) return null;
  // An operation continuing in later executions owns the sheet: its run takes these lines.
  if (loadJob(sheetId)) {
    enqueueLines(sheetId, queued);
    return null;
  }
  return runOperation('push', link, {
    scheduled: true,
    live: { ...queued, onBusy: () => enqueueLines(sheetId, queued) },
  });
}
