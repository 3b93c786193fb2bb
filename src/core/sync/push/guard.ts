// The accident guard: a push plan that looks like a slip (a column emptied or sorted alone, data
// shifted by a line) is held rather than sent; ordinary edits and short fill-downs go out unasked.
import type { BaseRecord } from '../../base';
import { cellDigest, type JsonValue } from '../../codec';
import { type Digest, digest, digestText } from '../../digest';
import type { LineEdits } from './line-edits';

/**
 * Thresholds (docs/shared-sheet.md states them for people). A column's edits are held when at least
 * GUARD_MIN_LINES lines change in it AND one of:
 * - emptied: the lines it empties are at least GUARD_EMPTIED_SHARE of the lines that had a value in it;
 * - share: the lines it changes are at least GUARD_COLUMN_SHARE of the synced lines;
 * - moved: at least GUARD_MOVED_SHARE of its new values are old values of other changed lines in the
 *   same column, or at least GUARD_MIN_LINES of them and GUARD_MOVED_PART (values sorted or shifted
 *   within one column, whatever the table's size, beside a few real edits); only in a column whose
 *   old values are mostly distinct (GUARD_DISTINCT_SHARE), never for checkbox or status flips.
 * Whole lines are held when at least GUARD_MIN_LINES lines each change more than half (and at least
 * two) of the synced columns (data shifted by a line across columns).
 * So a fill-down of 5 cells, or a correction of 9 lines, always goes out; a one-column sort of 30
 * lines is held; clearing 10 of 12 notes is held, clearing 10 of 1,000 is not.
 */
export const GUARD_MIN_LINES = 10;
export const GUARD_EMPTIED_SHARE = 0.5;
export const GUARD_COLUMN_SHARE = 0.5;
export const GUARD_MOVED_SHARE = 0.8;
/** With at least GUARD_MIN_LINES values moved, this share of a column's changes is enough. */
export const GUARD_MOVED_PART = 0.5;
/** The moved rule applies where at least this share of the changed lines' old values differ. */
export const GUARD_DISTINCT_SHARE = 0.5;
/** Examples shown per held column. */
export const GUARD_EXAMPLES = 3;

export type HeldReason = 'emptied' | 'share' | 'moved' | 'shifted';

export interface GuardUpdate {
  line: number;
  rowId: string;
  base: BaseRecord;
  edits: LineEdits;
}

/** A new line the push would create: its sheet line and the digests of the values it would send. */
export interface GuardCreate {
  line: number;
  digests: Readonly<Record<string, Digest>>;
}

export interface GuardInput {
  updates: readonly GuardUpdate[];
  /**
   * The creates of the push: a column sorted alone over synced and new lines moves synced rows'
   * values onto new lines, so they count with the changed lines where values moved.
   */
  creates?: readonly GuardCreate[];
  /** Ids of the synced columns that have their header in the sheet. */
  columnIds: readonly string[];
  /** Lines whose row id the base knows (the lines a push could change). */
  syncedLines: number;
  /** Per column id: how many of those lines had a value in it (base digest not empty). */
  valuedLines: Readonly<Record<string, number>>;
}

export interface HeldExample {
  line: number;
  rowId: string;
  after: JsonValue;
}

export interface HeldColumn {
  columnId: string;
  reason: HeldReason;
  /** Lines whose edit of this column is held. */
  lines: number;
  examples: HeldExample[];
}

export interface GuardVerdict {
  held: HeldColumn[];
  /** Per line: the column ids whose edits are held. */
  heldCells: Map<number, Set<string>>;
  /** New lines not created: they carry values moved from synced lines (per line: those columns). */
  heldCreates: Map<number, Set<string>>;
}

const EMPTY_DIGEST = cellDigest('');

/** Per base record, the number of lines in which each column id's base digest is not empty. */
export function countValuedLines(
  records: Iterable<BaseRecord>,
  columnIds: readonly string[],
): Record<string, number> {
  const counts: Record<string, number> = Object.create(null);
  for (const id of columnIds) counts[id] = 0;
  for (const record of records) {
    for (const id of columnIds) {
      const digest = record.digests[id];
      if (digest !== undefined && digest !== EMPTY_DIGEST) counts[id] = (counts[id] ?? 0) + 1;
    }
  }
  return counts;
}

/** Whether a value sent would empty the cell on the service. */
function empties(value: JsonValue | undefined): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** How many of `after` digests are found among `before` (a multiset match). */
function multisetOverlap(before: readonly Digest[], after: readonly Digest[]): number {
  const pool = new Map<Digest, number>();
  for (const digest of before) pool.set(digest, (pool.get(digest) ?? 0) + 1);
  let found = 0;
  for (const digest of after) {
    const left = pool.get(digest) ?? 0;
    if (left > 0) {
      pool.set(digest, left - 1);
      found++;
    }
  }
  return found;
}

/**
 * Whether a column's changes move values between its lines (sorted or shifted alone) rather than
 * edit them: many of the new values are old values of other changed lines. Enough moved values hold
 * the column even beside a few real corrections made just before (7 titles corrected, then 30 sorted
 * alone: 23 of 30 moved). Only where the old values are mostly distinct: in a column of few values
 * (a checkbox, a status) every flip of one line against another looks like a move and is not.
 */
function movedWithin(before: readonly Digest[], after: readonly Digest[]): boolean {
  if (new Set(before).size < GUARD_DISTINCT_SHARE * before.length) return false;
  const moved = multisetOverlap(before, after);
  return (
    moved >= GUARD_MOVED_SHARE * after.length ||
    (moved >= GUARD_MIN_LINES && moved >= GUARD_MOVED_PART * after.length)
  );
}

/**
 * Decides which edits of a push plan are held. Pure: the caller sends the rest, and sends the held
 * edits too only when a person confirmed them ("Push anyway").
 */
export function guardPush(input: GuardInput): GuardVerdict {
  const { updates, columnIds, syncedLines, valuedLines } = input;
  const creates = input.creates ?? [];
  const held: HeldColumn[] = [];
  const heldCells = new Map<number, Set<string>>();
  const heldCreates = new Map<number, Set<string>>();
  const holdIn = (map: Map<number, Set<string>>, line: number, columnId: string): void => {
    let cells = map.get(line);
    if (!cells) {
      cells = new Set();
      map.set(line, cells);
    }
    cells.add(columnId);
  };
  const hold = (line: number, columnId: string): void => holdIn(heldCells, line, columnId);
  const examplesOf = (list: readonly GuardUpdate[], columnId: string): HeldExample[] =>
    list.slice(0, GUARD_EXAMPLES).map((update) => ({
      line: update.line,
      rowId: update.rowId,
      after: update.edits.values[columnId] as JsonValue,
    }));
  const hasEdit = (update: GuardUpdate, columnId: string): boolean =>
    Object.prototype.hasOwnProperty.call(update.edits.values, columnId);

  // Data shifted by a line: many lines with most of their columns changed at once.
  const shiftedMin = Math.max(2, Math.floor(columnIds.length / 2) + 1);
  const shifted = updates.filter((update) => {
    let changed = 0;
    for (const id of columnIds) if (hasEdit(update, id)) changed++;
    return columnIds.length >= 2 && changed >= shiftedMin;
  });
  const shiftedLines = new Set<number>();
  if (shifted.length >= GUARD_MIN_LINES) {
    for (const update of shifted) {
      shiftedLines.add(update.line);
      for (const id of columnIds) if (hasEdit(update, id)) hold(update.line, id);
    }
    for (const id of columnIds) {
      const lines = shifted.filter((update) => hasEdit(update, id));
      if (lines.length > 0) {
        held.push({ columnId: id, reason: 'shifted', lines: lines.length, examples: examplesOf(lines, id) });
      }
    }
  }

  for (const id of columnIds) {
    const changed = updates.filter((update) => !shiftedLines.has(update.line) && hasEdit(update, id));
    const creating = creates.filter((create) => {
      const value = create.digests[id];
      return value !== undefined && value !== EMPTY_DIGEST;
    });
    if (changed.length + creating.length < GUARD_MIN_LINES || changed.length === 0) continue;
    const emptied = changed.filter((update) => empties(update.edits.values[id]));
    const valued = valuedLines[id] ?? 0;
    let reason: HeldReason | null = null;
    let heldLines: readonly GuardUpdate[] = changed;
    const before = changed.map((update) => update.base.digests[id] as Digest);
    const after = changed.map((update) => update.edits.digests[id] as Digest);
    if (movedWithin(before, after)) {
      reason = 'moved';
    } else if (
      creating.length > 0 &&
      movedWithin(before, [...after, ...creating.map((c) => c.digests[id] as Digest)])
    ) {
      // Sorted alone over synced and new lines: synced rows' values went onto new lines.
      reason = 'moved';
      for (const create of creating) holdIn(heldCreates, create.line, id);
    } else if (changed.length < GUARD_MIN_LINES) {
      continue;
    } else if (changed.length >= GUARD_COLUMN_SHARE * syncedLines) {
      reason = 'share';
    } else if (emptied.length >= GUARD_MIN_LINES && emptied.length >= GUARD_EMPTIED_SHARE * valued) {
      reason = 'emptied';
      heldLines = emptied;
    }
    if (reason === null) continue;
    for (const update of heldLines) hold(update.line, id);
    const createsHeld = creating.filter((create) => heldCreates.get(create.line)?.has(id)).length;
    held.push({
      columnId: id,
      reason,
      lines: heldLines.length + createsHeld,
      examples: examplesOf(heldLines, id),
    });
  }
  return { held, heldCells, heldCreates };
}

/** The edits of a line without its held columns (the same object when none is held). */
export function withoutHeld(edits: LineEdits, heldColumns: ReadonlySet<string> | undefined): LineEdits {
  if (!heldColumns || heldColumns.size === 0) return edits;
  const values: Record<string, JsonValue> = Object.create(null);
  const digests: Record<string, Digest> = Object.create(null);
  for (const id of Object.keys(edits.values)) {
    if (heldColumns.has(id)) continue;
    values[id] = edits.values[id] as JsonValue;
    digests[id] = edits.digests[id] as Digest;
  }
  return { values, digests, errors: edits.errors };
}

/** How a value shows in a held example: text as typed, empty as "(empty)", short. */
export function heldValueText(value: unknown, limit = 80): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * What a person sees when asked to "Push anyway", as a short key: every held cell's row id, column
 * and the digest of the value it would send. A confirmation names this key, so a push sends held
 * edits only when they are still exactly the ones shown (an edit, sort or paste made since, by anyone,
 * makes a new key and is held again).
 */
export function heldKey(
  verdict: GuardVerdict,
  updates: readonly GuardUpdate[],
  creates: readonly GuardCreate[] = [],
): string {
  const cells: string[] = [];
  for (const update of updates) {
    const columnIds = verdict.heldCells.get(update.line);
    if (!columnIds) continue;
    for (const columnId of columnIds) {
      cells.push(`${update.rowId}\t${columnId}\t${update.edits.digests[columnId] ?? ''}`);
    }
  }
  for (const create of creates) {
    const columnIds = verdict.heldCreates.get(create.line);
    if (!columnIds) continue;
    for (const columnId of columnIds) cells.push(`new\t${columnId}\t${create.digests[columnId] ?? ''}`);
  }
  cells.sort();
  return `${cells.length}:${digestText(digest(cells.join('\n')))}`;
}
