// A held push waits for a person's choice, per link, in document properties: the panel's words and the
// held cells (for "Put the service's values back"), until Push anyway, Put back or Keep editing is taken.
import type { HeldCell } from '../core/sync/push/hold';
import type { HeldChoice, HeldPush } from '../shared/types';

const HELD_PREFIX = 'tas.held.';
/** Characters per stored piece of the held cells (a property value holds at most 9 KB). */
const PIECE_CHARS = 8000;
/**
 * Held cells recorded at most (about 30 characters each, in pieces): a larger hold offers Push anyway
 * and Keep editing, and says to undo the change in the sheet to put the values back.
 */
export const MAX_RECORDED_HELD_CELLS = 2000;

interface StoredHeld {
  held: HeldPush;
  /** Column ids the cells name by index. */
  columns: string[];
  /** Pieces of the cells' JSON ([rowId, column index, digest][]); 0 when they were too many to record. */
  pieces: number;
}

function properties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

function pieceKey(sheetId: number, piece: number): string {
  return `${HELD_PREFIX}${sheetId}.${piece}`;
}

/** Records what a push held on this link, replacing any earlier hold. */
export function saveHeld(sheetId: number, held: HeldPush, cells: readonly HeldCell[]): void {
  clearHeld(sheetId);
  const columns = [...new Set(cells.map((cell) => cell.columnId))];
  const text =
    cells.length <= MAX_RECORDED_HELD_CELLS
      ? JSON.stringify(cells.map((cell) => [cell.rowId, columns.indexOf(cell.columnId), cell.digest]))
      : '';
  const values: Record<string, string> = {};
  let pieces = 0;
  for (let at = 0; at < text.length; at += PIECE_CHARS)
    values[pieceKey(sheetId, pieces++)] = text.slice(at, at + PIECE_CHARS);
  const stored: StoredHeld = { held, columns, pieces };
  values[HELD_PREFIX + sheetId] = JSON.stringify(stored);
  properties().setProperties(values);
}

/** The hold waiting on this link, with its cells (null when too many were held to record them). */
export function loadHeld(sheetId: number): { held: HeldPush; cells: HeldCell[] | null } | null {
  const all = properties();
  const text = all.getProperty(HELD_PREFIX + sheetId);
  if (text === null) return null;
  try {
    const stored = JSON.parse(text) as StoredHeld;
    if (stored.pieces === 0) return { held: stored.held, cells: null };
    let json = '';
    for (let piece = 0; piece < stored.pieces; piece++) {
      const part = all.getProperty(pieceKey(sheetId, piece));
      // A piece gone (a property store edited by hand): the cells cannot be trusted, put back is off.
      if (part === null) return { held: stored.held, cells: null };
      json += part;
    }
    const rows = JSON.parse(json) as Array<[string, number, number]>;
    const cells = rows.map(([rowId, column, digest]) => ({
      rowId,
      columnId: stored.columns[column] as string,
      digest,
    }));
    return { held: stored.held, cells };
  } catch {
    return null;
  }
}

/** Forgets the hold of this link (the choice was taken, or a push held nothing). */
export function clearHeld(sheetId: number): void {
  const all = properties();
  const record = HELD_PREFIX + sheetId;
  // By key, not by the record's count: a record left unreadable still has its pieces removed.
  for (const key of all.getKeys())
    if (key === record || key.startsWith(`${record}.`)) all.deleteProperty(key);
}

/** What the sidebar offers for the hold waiting on this link, or null. */
export function heldChoice(sheetId: number): HeldChoice | null {
  const stored = loadHeld(sheetId);
  return stored ? { held: stored.held, canPutBack: stored.cells !== null } : null;
}

/**
 * After a push phase: a hold is recorded until a person chooses; a push that held nothing ends any
 * earlier hold (its edits went, or are gone). `cells` undefined: no push ran, the record stays.
 */
export function recordHeld(
  sheetId: number,
  held: HeldPush | undefined,
  cells: HeldCell[] | null | undefined,
): void {
  if (cells === undefined) return;
  if (held && cells) saveHeld(sheetId, held, cells);
  else clearHeld(sheetId);
}
