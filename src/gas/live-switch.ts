// Live sync's switch, "Send edits as I type": one installable edit trigger per person (Apps Script
// allows an add-on one of each type per user per document, apps-script-facts §13) serves every linked
// sheet that person turned it on for; it goes with their last such link.
import { SyncError } from '../core/errors';
import { isBackSince, sentWithText, withSenderBack, withSenderOut } from '../core/live-sync';
import type { LinkRecord, LiveSender } from '../core/records';
import type { LiveInfo } from '../shared/types';
import { activeSpreadsheet } from './active';
import { deleteTriggers } from './schedule-triggers';
import { allLinks, displayName, loadConnection, updateLink } from './stores';

/** The edit trigger's handler, exported by src/index.ts. */
export const LIVE_HANDLER = 'onLiveEdit';
const MAX_TRIGGERS = 20;

type Trigger = GoogleAppsScript.Script.Trigger;

/** The caller's own edit triggers of this handler (others' are not listed to them). */
function ownEditTriggers(): Trigger[] {
  return ScriptApp.getUserTriggers(activeSpreadsheet()).filter(
    (trigger) =>
      trigger.getHandlerFunction() === LIVE_HANDLER && trigger.getEventType() === ScriptApp.EventType.ON_EDIT,
  );
}

/** The caller's edit trigger: the one they have, else a new one (never a second); its unique id. */
function ensureEditTrigger(): string {
  const own = ownEditTriggers()[0];
  if (own) return own.getUniqueId();
  const count = ScriptApp.getProjectTriggers().length;
  if (count >= MAX_TRIGGERS - 1) {
    throw new SyncError(
      'CONFIG',
      `You already have ${count} triggers for this script; Apps Script allows ${MAX_TRIGGERS} per person and the add-on keeps one free for long runs. Remove a schedule first, then turn on "Send edits as I type".`,
    );
  }
  try {
    return ScriptApp.newTrigger(LIVE_HANDLER)
      .forSpreadsheet(activeSpreadsheet())
      .onEdit()
      .create()
      .getUniqueId();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SyncError(
      'CONFIG',
      `Apps Script refused the edit trigger "Send edits as I type" needs (${message}). Remove another edit trigger of this add-on in Extensions › Apps Script › Triggers, then try again.`,
    );
  }
}

export function isSender(link: LinkRecord, userId: string): boolean {
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
  // Turned on again, a sender is back in line (a mark of a refused or gone key goes).
  if (on) me.triggerId = ensureEditTrigger();
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

/**
 * Marks a person's key out of every live link of this spreadsheet (they disconnected): the next
 * sender in order sends until they connect again; their trigger stands by.
 */
export function markLiveKeyGone(userId: string): void {
  const at = new Date().toISOString();
  for (const link of allLinks()) {
    if (!isSender(link, userId)) continue;
    updateLink(link.sheetId, (stored) => {
      stored.live = withSenderOut(stored.live ?? [], userId, at, 'disconnected');
    });
  }
}

/** Live sync of a link as the caller sees it: theirs or not, and whose key sends what they type. */
export function liveInfo(link: LinkRecord): LiveInfo {
  const info = loadConnection()?.info;
  const userId = info?.userId;
  let senders = link.live ?? [];
  const mine = senders.find((sender) => sender.userId === userId);
  // Connected again since their key was marked out: theirs sends from their next edit on.
  if (mine && userId !== undefined && isBackSince(mine, info?.checkedAt))
    senders = withSenderBack(senders, userId);
  return { mine: mine !== undefined, sentWith: sentWithText(senders, userId) };
}
