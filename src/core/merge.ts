// The three-way rules, per row: the base (last agreed), the sheet's line, and the service's row.
import type { BaseRecord, ConflictRecord } from './base';
import {
  cellDigest,
  cellRead,
  type DecodeContext,
  decodeCell,
  type EncodedCell,
  encodeCell,
  isCutCell,
  isCutRead,
  type JsonValue,
  readsBackAs,
} from './codec';
import type { ColumnSpec } from './columns';
import type { Digest } from './digest';
import { cutNotSentReason } from './status';

export type PullOutcome = 'added' | 'unchanged' | 'updated' | 'kept-local' | 'conflict';

const columnIdSets = new WeakMap<readonly ColumnSpec[], Set<string>>();

/** The ids of a column list, computed once per list (merges run per row). */
function columnIdsOf(columns: readonly ColumnSpec[]): Set<string> {
  let ids = columnIdSets.get(columns);
  if (!ids) {
    ids = new Set(columns.map((column) => column.id));
    columnIdSets.set(columns, ids);
  }
  return ids;
}

/** Shared results for the common row that needs nothing (never modified by callers). */
const NONE: string[] = [];
const NO_INDEXES: number[] = [];
const NO_CELLS: EncodedCell[] = [];
const EMPTY_DIGEST = cellDigest('');

function pushed<T>(list: T[] | null, item: T): T[] {
  const result = list ?? [];
  result.push(item);
  return result;
}

function fresh<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value of column k in a line's cells: '' for a column the sheet lacks, as LineGrid.get reads it. */
function cellAt(cells: readonly unknown[], at: readonly number[], k: number): unknown {
  const position = at[k] as number;
  if (position < 0) return '';
  const value = cells[position];
  return value === undefined ? '' : value;
}

/** Whether a digest record has exactly `count` keys. */
function hasKeyCount(digests: Record<string, Digest>, count: number): boolean {
  let keys = 0;
  for (const _ in digests) keys++;
  return keys === count;
}

/** A merge's digests by column index (scratch shared by all merges, which never nest); -1: none. */
const rowDigests: number[] = [];
const NO_DIGEST = -1;

/** A merged row: the cells to write listed by column index, the new base record, the outcome. */
export interface MergedCells {
  /** Indexes (into the column list) of the cells that take the service's value, ascending. */
  writeAt: number[];
  /** What to write in each of them. */
  writeCells: EncodedCell[];
  /**
   * The new base record; its digests are the old record's own object when they are all the same.
   * When `same`, it is the old record itself: read it, never modify it.
   */
  base: BaseRecord;
  /** The new record would hold the old one's id, lMod and digests, and no conflict. */
  same: boolean;
  outcome: PullOutcome;
  updated: string[];
  keptLocal: string[];
  conflicts: string[];
  /** Columns whose value is longer than a cell holds and whose edited cell was put back. */
  restoredCut: string[];
}

/**
 * A cell of a column a pull is (re-)adding that the person typed into after its header came back
 * (between a killed pull and the one completing it): not empty and not the agreed value an earlier
 * run wrote there. It is the person's edit and merges as one, never overwritten (chaos seed 20240220).
 */
function typedIntoAdded(
  cells: readonly unknown[],
  at: readonly number[],
  k: number,
  baseDigest: Digest | undefined,
): boolean {
  const local = cellDigest(cellAt(cells, at, k));
  return local !== EMPTY_DIGEST && baseDigest !== undefined && local !== baseDigest;
}

/**
 * Merges one service row into its line, read as cells: column k's local value is cells[at[k]];
 * `cells` undefined: a row new to the sheet. A column the sheet lacks (at[k] < 0) holds no edits:
 * nothing is written and its agreed digest stays. `takeService[k]`: column k was just added to the
 * sheet (empty cells, not edits) and takes the service's value.
 * - changed on the service only: the cell takes the service's value;
 * - changed in the sheet only: the local edit stays (unpushed work is never thrown away);
 * - changed on both to different values: a conflict; the local value stays and the service's is kept
 *   in the base's conflict record until the person resolves it.
 * The lists returned may be shared empty arrays: never modify them.
 */
export function mergeCells(
  serviceRow: Readonly<Record<string, unknown>>,
  cells: readonly unknown[] | undefined,
  at: readonly number[],
  base: BaseRecord | undefined,
  columns: readonly ColumnSpec[],
  mayHoldDeleted = true,
  takeService?: readonly boolean[],
): MergedCells {
  const id = String(serviceRow.id);
  const serviceLMod = typeof serviceRow.lMod === 'string' ? serviceRow.lMod : String(serviceRow.lMod ?? '');
  let writeAt: number[] | null = null;
  let writeCells: EncodedCell[] | null = null;
  // Most rows are unchanged: the lists are only allocated when something goes in them.
  let updated: string[] | null = null;
  let keptLocal: string[] | null = null;
  let conflicts: string[] | null = null;
  let restoredCut: string[] | null = null;
  let unsettled = false;
  let theirs: Record<string, unknown> | null = null;
  let theirDigests: Record<string, Digest> | null = null;
  const baseDigests = base?.digests;
  // Whether every column keeps the base's digest: the base's own digests object is then reused, so an
  // unchanged row builds no dictionary and comparing it with the base costs nothing.
  let asBase = baseDigests !== undefined;
  const count = columns.length;
  for (let k = 0; k < count; k++) {
    const column = columns[k] as ColumnSpec;
    const columnId = column.id;
    const serviceValue = Object.prototype.hasOwnProperty.call(serviceRow, columnId)
      ? serviceRow[columnId]
      : null;
    const read = cellRead(serviceValue, column.kind);
    const serviceDigest = cellDigest(read);
    const baseDigest = baseDigests === undefined ? undefined : baseDigests[columnId];
    let agreed = serviceDigest;
    let write = false;
    let conflict = false;
    if ((at[k] as number) < 0) {
      // The sheet has no (single) header for this column: nothing is read from or written into it,
      // and what was agreed stays agreed until the header is whole again (a line new to the sheet
      // agrees nothing there: its cell stays empty, to be filled once the header is back).
      agreed = cells === undefined ? NO_DIGEST : (baseDigest ?? NO_DIGEST);
      // Changed on the service meanwhile: unsettled, so the base lMod stays and a later push of
      // this column is checked against the service (a conflict, never a blind overwrite).
      if (cells !== undefined && baseDigest !== undefined && serviceDigest !== baseDigest) unsettled = true;
    } else if (cells === undefined) {
      write = true;
    } else if (
      takeService !== undefined &&
      takeService[k] === true &&
      !typedIntoAdded(cells, at, k, baseDigest)
    ) {
      // A column this run put (back) into the sheet: its empty cells (and cells an earlier, killed
      // run of it filled with the agreed value) take the service's value.
      write = true;
      if (serviceDigest !== EMPTY_DIGEST) updated = pushed(updated, columnId);
    } else {
      const localValue = cellAt(cells, at, k);
      // An unedited cell reads back exactly as written: no need to hash it a second time.
      const localDigest = readsBackAs(localValue, read) ? serviceDigest : cellDigest(localValue);
      if (localDigest === serviceDigest) {
        // Agreed on the service's digest.
      } else if (isCutRead(read)) {
        // Longer than a cell holds: read-only here, so an edit of the shown start is put back.
        write = true;
        restoredCut = pushed(restoredCut, columnId);
      } else if (baseDigest === undefined) {
        // No agreed value yet (a new column, or a line the base does not know): an empty cell takes the
        // service's value; anything else is for the person to decide.
        if (localDigest === EMPTY_DIGEST) {
          write = true;
          updated = pushed(updated, columnId);
        } else {
          agreed = NO_DIGEST;
          conflict = true;
        }
      } else if (localDigest === baseDigest) {
        write = true;
        updated = pushed(updated, columnId);
      } else if (serviceDigest === baseDigest) {
        keptLocal = pushed(keptLocal, columnId);
        agreed = baseDigest;
      } else {
        agreed = baseDigest;
        conflict = true;
      }
      if (conflict) {
        conflicts = pushed(conflicts, columnId);
        theirs ??= fresh<unknown>();
        theirDigests ??= fresh<Digest>();
        theirs[columnId] = serviceValue;
        theirDigests[columnId] = serviceDigest;
      }
    }
    if (write) {
      writeAt = pushed(writeAt, k);
      writeCells = pushed(writeCells, encodeCell(serviceValue, column.kind));
    }
    rowDigests[k] = agreed;
    if (agreed !== baseDigest) asBase = false;
  }

  let digests: Record<string, Digest>;
  if (
    asBase &&
    baseDigests !== undefined &&
    (mayHoldDeleted || hasKeyCount(baseDigests, columnIdsOf(columns).size))
  ) {
    // Same keys, same digests: with gone columns allowed they are kept as they are, and without,
    // the key count shows the base holds no others.
    digests = baseDigests;
  } else {
    digests = fresh<Digest>();
    // Columns no longer in the schema keep their last agreed digest, so edits to them stay detectable.
    if (baseDigests !== undefined && mayHoldDeleted) {
      const live = columnIdsOf(columns);
      for (const key in baseDigests) if (!live.has(key)) digests[key] = baseDigests[key] as Digest;
    }
    for (let k = 0; k < count; k++) {
      const agreed = rowDigests[k] as number;
      if (agreed !== NO_DIGEST) digests[(columns[k] as ColumnSpec).id] = agreed;
    }
  }

  // Nothing agreed anew (the common row): the base's own record stands, and no record is built.
  const same =
    base !== undefined &&
    !unsettled &&
    digests === baseDigests &&
    conflicts === null &&
    base.conflict === undefined &&
    base.lMod === serviceLMod &&
    base.id === id;
  let record: BaseRecord;
  if (same) {
    record = base;
  } else {
    record = { id, lMod: unsettled ? (base?.lMod ?? '') : serviceLMod, digests };
    if (conflicts !== null) {
      record.lMod = base?.lMod ?? '';
      const conflict: ConflictRecord = {
        lMod: serviceLMod,
        theirs: theirs ?? fresh<unknown>(),
        digests: theirDigests ?? fresh<Digest>(),
      };
      if (typeof serviceRow.lModBy === 'string' && serviceRow.lModBy !== '') conflict.by = serviceRow.lModBy;
      record.conflict = conflict;
    }
  }
  let outcome: PullOutcome = 'unchanged';
  if (!cells) outcome = 'added';
  else if (conflicts !== null) outcome = 'conflict';
  else if (keptLocal) outcome = 'kept-local';
  else if (updated || restoredCut) outcome = 'updated';
  return {
    writeAt: writeAt ?? NO_INDEXES,
    writeCells: writeCells ?? NO_CELLS,
    base: record,
    same,
    outcome,
    updated: updated ?? NONE,
    keptLocal: keptLocal ?? NONE,
    conflicts: conflicts ?? NONE,
    restoredCut: restoredCut ?? NONE,
  };
}

export interface LineEdits {
  /** Edited columns with the value to send. */
  values: Record<string, JsonValue>;
  /** Local digests of the edited columns. */
  digests: Record<string, Digest>;
  /** Why some edited cells cannot be sent. */
  errors: string[];
}

/**
 * The local edits of a line: the columns whose cell no longer matches the base. Column k's value is
 * cells[at[k]]; a column the sheet lacks (at[k] < 0) has no edits. The result of an unedited line is shared and frozen.
 */
export function cellEdits(
  cells: readonly unknown[],
  at: readonly number[],
  base: BaseRecord,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  let edits: LineEdits | null = null;
  const baseDigests = base.digests;
  for (let k = 0; k < columns.length; k++) {
    const column = columns[k] as ColumnSpec;
    const baseDigest = baseDigests[column.id];
    // A column without its (single) header holds no edits: an absent cell is not an empty one.
    if (baseDigest === undefined || (at[k] as number) < 0) continue;
    const value = cellAt(cells, at, k);
    const localDigest = cellDigest(value);
    if (localDigest === baseDigest) continue;
    // Most lines are unedited: the result is only allocated for the first edit.
    edits ??= { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
    if (isCutCell(value)) {
      // Only the start of a longer value shows here: an edit of it would send a cut value.
      edits.errors.push(cutNotSentReason(column.id));
      continue;
    }
    const decoded = decodeCell(value, column, context);
    if (decoded.ok) {
      edits.values[column.id] = decoded.value;
      edits.digests[column.id] = localDigest;
    } else {
      edits.errors.push(decoded.reason);
    }
  }
  return edits ?? NO_EDITS;
}

/** The shared result for an unedited line (never modified). */
const NO_EDITS: LineEdits = Object.freeze({
  values: Object.freeze({}) as Record<string, JsonValue>,
  digests: Object.freeze({}) as Record<string, Digest>,
  errors: Object.freeze([]) as unknown as string[],
});

/**
 * The values of a new line (no row id) that are worth creating: its non-empty table cells. Column k's
 * value is cells[at[k]] ('' for at[k] < 0).
 */
export function newCellValues(
  cells: readonly unknown[],
  at: readonly number[],
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  const result: LineEdits = { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
  for (let k = 0; k < columns.length; k++) {
    const column = columns[k] as ColumnSpec;
    const value = cellAt(cells, at, k);
    if (value === '' || value === null || value === undefined) continue;
    const decoded = decodeCell(value, column, context);
    if (decoded.ok) {
      if (decoded.value === null) continue;
      result.values[column.id] = decoded.value;
      result.digests[column.id] = cellDigest(value);
    } else {
      result.errors.push(decoded.reason);
    }
  }
  return result;
}

export interface Reconciled {
  send: Record<string, JsonValue>;
  conflicts: string[];
  theirs: Record<string, unknown>;
  theirDigests: Record<string, Digest>;
  /** Edited columns the service already holds the same value in. */
  alreadyEqual: string[];
}

/**
 * Before a PATCH of a row the service changed since the base: an edited field also changed on the
 * service (to something else) is a conflict and is not sent; fields changed only here are sent.
 */
export function reconcileEdits(
  edits: LineEdits,
  base: BaseRecord,
  serviceRow: Readonly<Record<string, unknown>>,
  columns: readonly ColumnSpec[],
): Reconciled {
  const result: Reconciled = {
    send: fresh<JsonValue>(),
    conflicts: [],
    theirs: fresh<unknown>(),
    theirDigests: fresh<Digest>(),
    alreadyEqual: [],
  };
  for (const column of columns) {
    if (!Object.prototype.hasOwnProperty.call(edits.values, column.id)) continue;
    const serviceValue = Object.prototype.hasOwnProperty.call(serviceRow, column.id)
      ? serviceRow[column.id]
      : null;
    const serviceDigest = cellDigest(encodeCell(serviceValue, column.kind).read);
    if (serviceDigest === base.digests[column.id]) {
      result.send[column.id] = edits.values[column.id] as JsonValue;
    } else if (serviceDigest === edits.digests[column.id]) {
      result.alreadyEqual.push(column.id);
    } else {
      result.conflicts.push(column.id);
      result.theirs[column.id] = serviceValue;
      result.theirDigests[column.id] = serviceDigest;
    }
  }
  return result;
}

/**
 * The base after a successful write. Sent and already-equal columns take the local digest (if the
 * service normalised a value, the next pull brings its version); conflicting columns keep theirs; the
 * base lMod moves only when every column is agreed at the answered lMod.
 */
export function baseAfterWrite(
  base: BaseRecord | undefined,
  rowId: string,
  answeredLMod: string,
  settledDigests: Readonly<Record<string, Digest>>,
  stale: boolean,
  conflict: ConflictRecord | undefined,
): BaseRecord {
  const digests = fresh<Digest>();
  if (base) for (const key of Object.keys(base.digests)) digests[key] = base.digests[key] as Digest;
  for (const key of Object.keys(settledDigests)) digests[key] = settledDigests[key] as Digest;
  const record: BaseRecord = {
    id: rowId,
    lMod: !stale && !conflict ? answeredLMod : (base?.lMod ?? ''),
    digests,
  };
  if (conflict) record.conflict = conflict;
  return record;
}
