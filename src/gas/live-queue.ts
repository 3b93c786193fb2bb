// Live sync's records in document properties (what they mean: core/live-sync.ts). The queue: a firing
// that finds a run going leaves its lines there (one key per firing, so no firing overwrites another's)
// for that run, or the next, to take; past its size it marks an overflow, and the run that takes it
// compares every line. The typing record: per editor, the line they are on.
import {
  type EditedCells,
  linesOfEdit,
  queueEntryOf,
  takenFromQueue,
  typingLines,
  typingRecordOf,
} from '../core/live-sync';

const QUEUE_PREFIX = 'tas.liveQueue.';
/** The overflow mark's part of a key: never a firing's token (those are base-36 digits). */
const OVERFLOW = '!overflow';
const TYPING_PREFIX = 'tas.liveTyping.';

function properties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

function queuePrefix(sheetId: number): string {
  return `${QUEUE_PREFIX}${sheetId}.`;
}

/** Leaves a firing's lines for the run going to take (one key per firing: no lost update). */
export function enqueueLines(sheetId: number, lines: readonly number[]): void {
  const store = properties();
  const prefix = queuePrefix(sheetId);
  const waiting = store.getKeys().filter((key) => key.startsWith(prefix)).length;
  const entry = queueEntryOf(lines, waiting);
  const token = `${Date.now().toString(36).padStart(10, '0')}${Math.floor(Math.random() * 1e9).toString(36)}`;
  try {
    store.setProperty(
      entry === 'overflow' ? prefix + OVERFLOW : prefix + token,
      entry === 'overflow' ? '1' : entry,
    );
  } catch {
    // The property store is full: the overflow mark (a few bytes) says to compare every line.
    store.setProperty(prefix + OVERFLOW, '1');
  }
}

/** Whether firings left lines for this sheet that no run has taken yet. */
export function hasQueuedLines(sheetId: number): boolean {
  const prefix = queuePrefix(sheetId);
  return properties()
    .getKeys()
    .some((key) => key.startsWith(prefix));
}

/**
 * Takes every line left for this sheet; `everyLine` when the queue overflowed (or an entry was
 * damaged): the run then compares every line. Null when nothing was left.
 */
export function takeQueuedLines(sheetId: number): { lines: number[]; everyLine: boolean } | null {
  const store = properties();
  const prefix = queuePrefix(sheetId);
  const all = store.getProperties();
  const keys = Object.keys(all)
    .filter((key) => key.startsWith(prefix))
    .sort();
  if (keys.length === 0) return null;
  for (const key of keys) store.deleteProperty(key);
  const entries = keys.filter((key) => key !== prefix + OVERFLOW).map((key) => all[key] ?? null);
  return takenFromQueue(entries, keys.includes(prefix + OVERFLOW));
}

/** The lines an edit sends, with the typing record of the sheet brought up to date (linesOfEdit). */
export function recordEdit(sheetId: number, editor: string, edit: EditedCells): number[] {
  const store = properties();
  const key = TYPING_PREFIX + sheetId;
  const result = linesOfEdit(typingRecordOf(store.getProperty(key)), editor, edit);
  if (result.changed) store.setProperty(key, JSON.stringify(result.record));
  return result.lines;
}

/** The lines of the sheet someone is still typing (not created by a live push). */
export function linesBeingTyped(sheetId: number): number[] {
  return typingLines(typingRecordOf(properties().getProperty(TYPING_PREFIX + sheetId)));
}
