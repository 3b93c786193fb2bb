// A held push as stored until a person chooses: the panel's words and the held cells, cut into pieces
// that each fit one property value (9 KB), with the cells left out when too many were held.
import type { HeldPush } from '../shared/types';
import type { HeldCell } from './sync/push/hold';

/** Bytes a stored piece may take (a property value holds 9 KB, key included). */
export const PIECE_BYTES = 8 * 1024;
/**
 * Held cells recorded at most (about 30 characters each): a larger hold offers Push anyway and Keep
 * editing, and says to undo the change in the sheet to put the values back.
 */
export const MAX_RECORDED_HELD_CELLS = 2000;
/** Longest example value kept when the panel's words must shrink to fit one piece. */
const SHORT_EXAMPLE = 40;

interface StoredHead {
  held: HeldPush;
  /** Column ids the cells name by index. */
  columns: string[];
  /** Pieces holding the cells' JSON ([rowId, column index, digest][]); 0: not recorded. */
  pieces: number;
}

/** The UTF-8 length of a text (what a property value's size counts). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3;
  }
  return bytes;
}

/** Cuts a text into pieces of at most `maxBytes` UTF-8 bytes, never inside a surrogate pair. */
export function piecesOf(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3;
    const pairStart = code >= 0xd800 && code <= 0xdbff;
    if (bytes + size + (pairStart ? 2 : 0) > maxBytes) {
      pieces.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** The panel's words made to fit one piece: shorter examples, then none. */
function fittingHeld(held: HeldPush): HeldPush {
  const fits = (each: HeldPush): boolean => utf8Bytes(JSON.stringify(each)) <= PIECE_BYTES - 512;
  if (fits(held)) return held;
  const short = (text: string): string =>
    text.length > SHORT_EXAMPLE ? `${text.slice(0, SHORT_EXAMPLE - 1)}…` : text;
  const shortened: HeldPush = {
    ...held,
    columns: held.columns.map((column) => ({
      ...column,
      examples: column.examples
        .slice(0, 1)
        .map((example) => ({ ...example, before: short(example.before), after: short(example.after) })),
    })),
  };
  if (fits(shortened)) return shortened;
  return { ...held, columns: held.columns.map((column) => ({ ...column, examples: [] })) };
}

/**
 * The stored form of a hold: the head (under the key '') and the cells' pieces (under '0', '1', …),
 * each value at most PIECE_BYTES. Cells beyond MAX_RECORDED_HELD_CELLS are not recorded.
 */
export function encodeHeldRecord(held: HeldPush, cells: readonly HeldCell[]): Map<string, string> {
  const columns = [...new Set(cells.map((cell) => cell.columnId))];
  const pieces =
    cells.length <= MAX_RECORDED_HELD_CELLS
      ? piecesOf(
          JSON.stringify(cells.map((cell) => [cell.rowId, columns.indexOf(cell.columnId), cell.digest])),
          PIECE_BYTES,
        )
      : [];
  const head: StoredHead = { held: fittingHeld(held), columns, pieces: pieces.length };
  const values = new Map<string, string>([['', JSON.stringify(head)]]);
  for (const [i, piece] of pieces.entries()) values.set(String(i), piece);
  return values;
}

/**
 * A hold read back (`read` gives the value stored under a key, or null): its words, and its cells
 * (null when they were not recorded, or a piece is missing or unreadable). Null when there is none.
 */
export function decodeHeldRecord(
  read: (key: string) => string | null,
): { held: HeldPush; cells: HeldCell[] | null } | null {
  const text = read('');
  if (text === null) return null;
  let head: StoredHead;
  try {
    head = JSON.parse(text) as StoredHead;
  } catch {
    return null;
  }
  if (!head || typeof head !== 'object' || !head.held) return null;
  if (!(head.pieces > 0)) return { held: head.held, cells: null };
  let json = '';
  for (let piece = 0; piece < head.pieces; piece++) {
    const part = read(String(piece));
    if (part === null) return { held: head.held, cells: null };
    json += part;
  }
  try {
    const rows = JSON.parse(json) as Array<[string, number, number]>;
    const cells = rows.map(([rowId, column, digest]) => ({
      rowId: String(rowId),
      columnId: String(head.columns[column]),
      digest,
    }));
    return { held: head.held, cells };
  } catch {
    return { held: head.held, cells: null };
  }
}
