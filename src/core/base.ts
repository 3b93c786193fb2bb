// The base: for every row, what was last agreed with the service (its lMod and a digest per column),
// stored in a hidden sheet per link as three cells per row: [id, record, seen]. The record cell packs
// lMod, digests, shown fixed fields and conflict, tab-separated: Spreadsheet reads and writes cost per
// cell, and a pull reads the whole base. A record is written as its first two cells only: the seen
// cell is written apart, and only by a pull that goes on in another execution (see BaseTable).

import { DIGEST_WIDTH, type Digest, digest, digestText, parseDigestAt } from './digest';
import { SyncError } from './errors';

const MISSING_DIGEST = '-'.repeat(DIGEST_WIDTH);

/** Service values of columns changed on both sides, kept so a person can resolve without a refetch. */
export interface ConflictRecord {
  /** The service's lMod when the conflict was seen. */
  lMod: string;
  /** The service's values of the conflicting columns (values too large for the base cell are left out). */
  theirs: Record<string, unknown>;
  /** The service's cell digests of the conflicting columns (always complete). */
  digests?: Record<string, Digest>;
  /** Who changed the row on the service last (its lModBy user id), shown when a person decides. */
  by?: string;
}

/** A base cell stays under Sheets' 50,000 characters per cell. */
export const MAX_BASE_CELL = 48000;

/** The conflict as stored: the largest values are dropped until it fits in `room` characters. */
export function conflictText(conflict: ConflictRecord, room = MAX_BASE_CELL): string {
  let text = JSON.stringify(conflict);
  if (text.length <= room) return text;
  const theirs: Record<string, unknown> = { ...conflict.theirs };
  const bySize = Object.keys(theirs).sort(
    (a, b) => (JSON.stringify(theirs[b]) ?? '').length - (JSON.stringify(theirs[a]) ?? '').length,
  );
  for (const key of bySize) {
    delete theirs[key];
    text = JSON.stringify({ ...conflict, theirs });
    if (text.length <= room) break;
  }
  return text;
}

export interface BaseRecord {
  id: string;
  /** Service lMod at which every column's digest was agreed; older when some columns are unsettled. */
  lMod: string;
  digests: Record<string, Digest>;
  conflict?: ConflictRecord;
  /** Fixed-field values as last shown in the sheet, when they differ from `{ lMod }`. */
  shown?: Record<string, unknown>;
  /**
   * Fixed-field values the line still shows where a write of `shown` onto it was lost (its columns
   * moved while a push waited): the line is known by them until its fields are written again.
   */
  lineShows?: Record<string, unknown>;
  /** Id of the last pull that saw this row on the service. */
  seen?: string;
  /**
   * A pending create's sender: the service user id of the key that sent it. Another person's run
   * adopts the row that user created, never one of its own, and never sends the create again.
   */
  sentBy?: string;
}

export const BASE_HEADER_WIDTH = 3;
/** 1-based columns of the base sheet. */
export const BASE_ID_COLUMN = 1;
export const BASE_RECORD_COLUMN = 2;
export const BASE_SEEN_COLUMN = 3;

/** Separates the parts of a record cell: JSON, ISO dates and digests never hold a raw tab. */
const PART = '\t';

/** Header row of the base sheet; the record cell's header lists the column ids the digests follow. */
export function baseHeaderRow(columnIds: readonly string[]): string[] {
  return ['id', JSON.stringify(columnIds), 'seen'];
}

/**
 * Stops a run on a base sheet whose rows were moved by hand (a person unhid it and sorted it with its
 * header row, or moved rows): its header row is not first, or a header row stands among the records.
 * Read as it is, the header would become a record of a row named "id" and a record row the header.
 */
export function assertBaseIntact(
  header: readonly unknown[] | undefined,
  ids: Iterable<unknown>,
  sheetName: string,
): void {
  const headerFirst =
    header?.[BASE_ID_COLUMN - 1] === 'id' && String(header?.[BASE_RECORD_COLUMN - 1] ?? '').startsWith('[');
  let headerAmongRecords = false;
  for (const id of ids) if (id === 'id') headerAmongRecords = true;
  if (headerFirst && !headerAmongRecords) return;
  throw new SyncError(
    'CONFIG',
    `The add-on's hidden sheet "${sheetName}" was changed by hand (its rows were sorted or moved), so nothing was sent or written. Undo that change (Edit › Undo, or File › Version history), then run again; or unlink this sheet and link it again, and the next pull rebuilds it.`,
  );
}

export function parseBaseColumnIds(headerCell: unknown): string[] {
  if (typeof headerCell !== 'string' || headerCell === '') return [];
  try {
    const parsed: unknown = JSON.parse(headerCell);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** Where the shown part of a record cell keeps what the line shows instead (no fixed field's name). */
const LINE_SHOWS = '#line';

/** The shown part of a record cell: the shown fields, with what the line shows instead when it differs. */
function shownText(record: BaseRecord): string {
  if (!record.lineShows) return record.shown ? JSON.stringify(record.shown) : '';
  return JSON.stringify({ ...record.shown, [LINE_SHOWS]: record.lineShows });
}

/** The record cell: lMod, digests, shown fields, conflict (the conflict gets what room is left). */
export function encodeBaseRecord(record: BaseRecord, columnIds: readonly string[]): string {
  let digests = '';
  for (const id of columnIds) {
    const value: unknown = record.digests[id];
    // Only a number is a digest (a plain object would answer "constructor" with a function).
    digests += typeof value === 'number' ? digestText(value) : MISSING_DIGEST;
  }
  // A tab in a service's lMod (never seen) would split the cell: it is stored as a space.
  const head = `${record.lMod.replace(/\t/g, ' ')}${PART}${digests}${PART}${shownText(record)}${PART}`;
  // The sender is a fifth part, after the conflict (empty but for a pending create), and a digest of
  // the id and the rest of the cell the sixth: an id or record cell changed by hand no longer matches
  // (team chaos seeds 20240110, 20240107). Older records end with the conflict or the sender.
  const sender = `${PART}${(record.sentBy ?? '').replace(/\t/g, ' ')}`;
  const conflict = record.conflict
    ? conflictText(record.conflict, MAX_BASE_CELL - head.length - sender.length - PART.length - DIGEST_WIDTH)
    : '';
  const body = head + conflict + sender;
  return body + PART + recordCheck(record.id, body);
}

/**
 * A record's id and record cells. Its seen cell is left as it stands: a seen mark means something only
 * to the pull that wrote it, every pull has a new id, and base rows never change places, so a mark
 * left from an older pull is never read as this pull's.
 */
export function encodeBaseRow(record: BaseRecord, columnIds: readonly string[]): string[] {
  return [record.id, encodeBaseRecord(record, columnIds)];
}

/** Cells a record is written as: id and record (the seen cell is written apart). */
export const BASE_WRITTEN_WIDTH = BASE_RECORD_COLUMN;

function parseJsonObject(cell: unknown): Record<string, unknown> | undefined {
  if (typeof cell !== 'string' || cell === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(cell);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function countParts(cell: string): number {
  let count = 0;
  for (let at = cell.indexOf(PART); at >= 0 && count < 3; at = cell.indexOf(PART, at + 1)) count++;
  return count;
}

/** The digest of a record's id and cell its cell ends with, so an id or record cell changed by hand is seen. */
function recordCheck(id: string, body: string): string {
  return digestText(digest(`${id}${PART}${body}`));
}

function changedByHand(id: string): SyncError {
  return new SyncError(
    'CONFIG',
    `The add-on's hidden base sheet was changed by hand (the row of "${id.slice(0, 40)}"), so the run stopped there. Undo that change (Edit › Undo, or File › Version history), then run again; or unlink this sheet and link it again, and the next pull rebuilds it.`,
  );
}

/** A record's shown part, parsed: the shown fields, and what the line shows instead when kept. */
function readShown(record: BaseRecord, shown: Record<string, unknown>): void {
  const lineShows = shown[LINE_SHOWS];
  if (lineShows === undefined) {
    record.shown = shown;
    return;
  }
  delete shown[LINE_SHOWS];
  if (lineShows !== null && typeof lineShows === 'object' && !Array.isArray(lineShows))
    record.lineShows = lineShows as Record<string, unknown>;
  if (Object.keys(shown).length > 0) record.shown = shown;
}

/**
 * Reads a base row ([id, record] or [id, record, seen]); undefined for a blank row. Throws when the
 * record's id check does not match its id cell (an id cell changed by hand).
 */
export function decodeBaseRow(row: readonly unknown[], columnIds: readonly string[]): BaseRecord | undefined {
  const id = row[0];
  if (id === '' || id === null || id === undefined) return undefined;
  const cell = typeof row[1] === 'string' ? row[1] : '';
  // Every record cell the add-on wrote has its lMod, digests, shown and conflict parts.
  if (countParts(cell) < 3) throw changedByHand(String(id));
  const lModEnd = cell.indexOf(PART);
  const digestsEnd = lModEnd < 0 ? -1 : cell.indexOf(PART, lModEnd + 1);
  const shownEnd = digestsEnd < 0 ? -1 : cell.indexOf(PART, digestsEnd + 1);
  const lMod = lModEnd < 0 ? cell : cell.slice(0, lModEnd);
  const digests: Record<string, Digest> = Object.create(null);
  if (lModEnd >= 0) {
    const start = lModEnd + 1;
    const end = digestsEnd < 0 ? cell.length : digestsEnd;
    for (let index = 0; index < columnIds.length; index++) {
      const from = start + index * DIGEST_WIDTH;
      if (from + DIGEST_WIDTH > end) break;
      const part = parseDigestAt(cell, from);
      if (part !== undefined) digests[columnIds[index] as string] = part;
    }
  }
  const record: BaseRecord = { id: String(id), lMod, digests };
  if (shownEnd >= 0) {
    const shown = parseJsonObject(cell.slice(digestsEnd + 1, shownEnd));
    if (shown) readShown(record, shown);
    // JSON escapes tabs, so a tab after the conflict starts the sender's part.
    const conflictEnd = cell.indexOf(PART, shownEnd + 1);
    const conflict = parseJsonObject(cell.slice(shownEnd + 1, conflictEnd < 0 ? cell.length : conflictEnd));
    const sentByEnd = conflictEnd < 0 ? -1 : cell.indexOf(PART, conflictEnd + 1);
    if (conflictEnd >= 0) {
      const sentBy = cell.slice(conflictEnd + 1, sentByEnd < 0 ? cell.length : sentByEnd);
      if (sentBy !== '') record.sentBy = sentBy;
    }
    if (sentByEnd >= 0 && cell.slice(sentByEnd + 1) !== recordCheck(record.id, cell.slice(0, sentByEnd)))
      throw changedByHand(record.id);
    if (
      conflict &&
      typeof conflict.lMod === 'string' &&
      conflict.theirs &&
      typeof conflict.theirs === 'object'
    ) {
      record.conflict = { lMod: conflict.lMod, theirs: conflict.theirs as Record<string, unknown> };
      if (conflict.digests && typeof conflict.digests === 'object') {
        record.conflict.digests = conflict.digests as Record<string, Digest>;
      }
      if (typeof conflict.by === 'string') record.conflict.by = conflict.by;
    }
  }
  if (typeof row[2] === 'string' && row[2] !== '') record.seen = row[2];
  return record;
}
