// The base: for every row, what was last agreed with the service (its lMod and a digest per column),
// stored in a hidden sheet per link as [id, lMod, digests, conflict, shown fixed fields].
import { DIGEST_WIDTH, type Digest, digestText, parseDigest } from './digest';

const MISSING_DIGEST = '-'.repeat(DIGEST_WIDTH);

/** Service values of columns changed on both sides, kept so a person can resolve without a refetch. */
export interface ConflictRecord {
  /** The service's lMod when the conflict was seen. */
  lMod: string;
  /** The service's values of the conflicting columns (values too large for the base cell are left out). */
  theirs: Record<string, unknown>;
  /** The service's cell digests of the conflicting columns (always complete). */
  digests?: Record<string, Digest>;
}

/** A base cell stays well under Sheets' 50,000 characters per cell. */
export const MAX_BASE_CELL = 40000;

/** The conflict as stored: the largest values are dropped until it fits in one cell. */
export function conflictText(conflict: ConflictRecord): string {
  let text = JSON.stringify(conflict);
  if (text.length <= MAX_BASE_CELL) return text;
  const theirs: Record<string, unknown> = { ...conflict.theirs };
  const bySize = Object.keys(theirs).sort(
    (a, b) => (JSON.stringify(theirs[b]) ?? '').length - (JSON.stringify(theirs[a]) ?? '').length,
  );
  for (const key of bySize) {
    delete theirs[key];
    text = JSON.stringify({ ...conflict, theirs });
    if (text.length <= MAX_BASE_CELL) break;
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
  /** Id of the last pull that saw this row on the service. */
  seen?: string;
}

export const BASE_HEADER_WIDTH = 6;

/** Header row of the base sheet; the third cell lists the column ids the digests follow. */
export function baseHeaderRow(columnIds: readonly string[]): string[] {
  return ['id', 'lMod', JSON.stringify(columnIds), 'conflict', 'shown', 'seen'];
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

/** Column ids for digests: the old list, extended (never reordered) by new ids. */
export function extendColumnIds(existing: readonly string[], ids: readonly string[]): string[] {
  const result = [...existing];
  for (const id of ids) if (!result.includes(id)) result.push(id);
  return result;
}

export function encodeBaseRow(record: BaseRecord, columnIds: readonly string[]): string[] {
  let digests = '';
  for (const id of columnIds) {
    const value = record.digests[id];
    digests += value === undefined ? MISSING_DIGEST : digestText(value);
  }
  return [
    record.id,
    record.lMod,
    digests,
    record.conflict ? conflictText(record.conflict) : '',
    record.shown ? JSON.stringify(record.shown) : '',
    record.seen ?? '',
  ];
}

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

export function decodeBaseRow(row: readonly unknown[], columnIds: readonly string[]): BaseRecord | undefined {
  const id = row[0];
  if (id === '' || id === null || id === undefined) return undefined;
  const digestCell = typeof row[2] === 'string' ? row[2] : '';
  const digests: Record<string, Digest> = Object.create(null);
  columnIds.forEach((columnId, index) => {
    const part = parseDigest(digestCell.slice(index * DIGEST_WIDTH, (index + 1) * DIGEST_WIDTH));
    if (part !== undefined) digests[columnId] = part;
  });
  const record: BaseRecord = { id: String(id), lMod: row[1] === undefined ? '' : String(row[1]), digests };
  const conflict = parseJsonObject(row[3]);
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
  }
  const shown = parseJsonObject(row[4]);
  if (shown) record.shown = shown;
  if (typeof row[5] === 'string' && row[5] !== '') record.seen = row[5];
  return record;
}
