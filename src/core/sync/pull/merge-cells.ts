// The three-way rule: per cell (mergeCell) the base (last agreed), the sheet's line and the service's
// row decide what the cell becomes; per row (mergeCells) the cells' outcomes make the writes, the new
// base record and the row's outcome.
import type { BaseRecord, ConflictRecord } from '../../base';
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
} from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { cutNotSentReason } from '../../status';

export type PullOutcome = 'added' | 'unchanged' | 'updated' | 'kept-local' | 'conflict';

const EMPTY_DIGEST = cellDigest('');
const NO_FACTS: CellFacts = Object.freeze({});
/** An agreed digest that is none (digests are never negative). */
const NO_DIGEST = -1;

/** The sheet's side of a cell when the row is new to the sheet: there is no cell yet. */
export const NEW_LINE = -1;
/** The sheet's side of a cell when the sheet has no (single) header for the column: nothing is read or written there. */
export const NOT_IN_SHEET = -2;

/**
 * The sheet's side of one cell: the digest of what it holds, or NEW_LINE, or NOT_IN_SHEET (digests are
 * never negative, so all three are one number type).
 */
export type LocalCell = Digest | typeof NEW_LINE | typeof NOT_IN_SHEET;

/** Two facts about a cell besides its three sides. */
export interface CellFacts {
  /** The service's value is longer than a cell holds: the cell shows its marked start, read-only. */
  serviceCut?: boolean;
  /** This run just put (back) the column into the sheet: its empty cells are not edits. */
  columnAdded?: boolean;
}

/**
 * What one cell becomes:
 * - 'add': the row is new to the sheet; the cell takes the service's value.
 * - 'same': both sides hold the same value; it is agreed, nothing is written.
 * - 'take-service': changed on the service only (or an empty cell with nothing agreed yet): the cell
 *   takes the service's value.
 * - 'keep-local': changed in the sheet only: the local edit stays (unpushed work is never thrown
 *   away), and the agreed value stays as it was.
 * - 'conflict': changed on both sides to different values (or a filled cell with nothing agreed yet):
 *   the local value stays, the agreed value stays, and the service's is kept for the person to decide.
 * - 'restore-cut': the service's value is longer than a cell holds and the cell was edited: the shown
 *   start is read-only, so it is put back.
 * - 'fill' / 'fill-empty': the column was just (re-)added and the cell is empty or holds the agreed
 *   value (an earlier, killed run wrote it): it takes the service's value, which is not empty / empty.
 *   A cell the person typed into there is their edit and follows the rule above (chaos seed 20240220).
 * - 'absent': the sheet lacks the column: nothing is read or written and the agreed value stays.
 * - 'absent-changed': the same, but the service changed the value since it was agreed: the row stays
 *   unsettled, so a later push of this column is checked against the service (never a blind overwrite).
 */
export type CellOutcome =
  | 'add'
  | 'same'
  | 'take-service'
  | 'keep-local'
  | 'conflict'
  | 'restore-cut'
  | 'fill'
  | 'fill-empty'
  | 'absent'
  | 'absent-changed';

/**
 * The three-way rule for one cell (see CellOutcome for what each outcome means). `local`: the sheet's
 * side; `base`: what the sheet and the service last agreed the cell holds, undefined when nothing yet
 * (a new column, a line the base does not know, or a line new to the sheet); `service`: the digest of
 * the cell the service's value becomes. Pure.
 */
export function mergeCell(
  local: LocalCell,
  base: Digest | undefined,
  service: Digest,
  facts: CellFacts = NO_FACTS,
): CellOutcome {
  if (local === NOT_IN_SHEET) return base !== undefined && service !== base ? 'absent-changed' : 'absent';
  if (local === NEW_LINE) return 'add';
  if (facts.columnAdded === true && (local === EMPTY_DIGEST || base === undefined || local === base)) {
    return service === EMPTY_DIGEST ? 'fill-empty' : 'fill';
  }
  if (local === service) return 'same';
  if (facts.serviceCut === true) return 'restore-cut';
  if (base === undefined) return local === EMPTY_DIGEST ? 'take-service' : 'conflict';
  if (local === base) return 'take-service';
  if (service === base) return 'keep-local';
  return 'conflict';
}

const columnIdSets = new WeakMap<readonly ColumnSpec[], Set<string>>();

/**
 * The ids of a column list, computed once per list (merges run per row). Column lists are read-only
 * once made (a new schema makes a new list), so a cached set stays true.
 */
function columnIdsOf(columns: readonly ColumnSpec[]): Set<string> {
  let ids = columnIdSets.get(columns);
  if (!ids) {
    ids = new Set(columns.map((column) => column.id));
    columnIdSets.set(columns, ids);
  }
  return ids;
}

// Most rows need nothing: their lists are these shared empty ones, frozen (MergedCells types them
// readonly), so no row allocates lists it does not fill.
const NONE: readonly string[] = Object.freeze([]);
const NO_INDEXES: readonly number[] = Object.freeze([]);
const NO_CELLS: readonly EncodedCell[] = Object.freeze([]);

function pushed<T>(list: T[] | null, item: T): T[] {
  const result = list ?? [];
  result.push(item);
  return result;
}

function fresh<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

// The four combinations of a cell's facts, shared: a merge passes one per cell and allocates none.
const FACTS: readonly CellFacts[] = [
  NO_FACTS,
  Object.freeze({ serviceCut: true }),
  Object.freeze({ columnAdded: true }),
  Object.freeze({ serviceCut: true, columnAdded: true }),
];

function factsOf(serviceCut: boolean, columnAdded: boolean): CellFacts {
  return FACTS[(serviceCut ? 1 : 0) + (columnAdded ? 2 : 0)] as CellFacts;
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

/**
 * A new digest record holding the base's digests of columns[0..upTo) (and, when `withDeleted`, those
 * of columns no longer in the schema, so edits to them stay detectable), deleted ones first.
 */
function digestsFrom(
  baseDigests: Record<string, Digest> | undefined,
  columns: readonly ColumnSpec[],
  upTo: number,
  withDeleted: boolean,
): Record<string, Digest> {
  const digests = fresh<Digest>();
  if (baseDigests === undefined) return digests;
  if (withDeleted) {
    const live = columnIdsOf(columns);
    for (const key in baseDigests) if (!live.has(key)) digests[key] = baseDigests[key] as Digest;
  }
  for (let k = 0; k < upTo; k++) {
    const columnId = (columns[k] as ColumnSpec).id;
    digests[columnId] = baseDigests[columnId] as Digest;
  }
  return digests;
}

/** A merged row: the cells to write listed by column index, the new base record, the outcome. */
export interface MergedCells {
  /** Indexes (into the column list) of the cells that take the service's value, ascending. */
  writeAt: readonly number[];
  /** What to write in each of them. */
  writeCells: readonly EncodedCell[];
  /**
   * The new base record; its digests are the old record's own object when they are all the same.
   * When `same`, it is the old record itself: read it, never modify it.
   */
  base: BaseRecord;
  /** The new record would hold the old one's id, lMod and digests, and no conflict. */
  same: boolean;
  outcome: PullOutcome;
  /** Columns that took the service's value over the sheet's ('take-service', 'fill'). */
  updated: readonly string[];
  keptLocal: readonly string[];
  conflicts: readonly string[];
  /** Columns whose value is longer than a cell holds and whose edited cell was put back. */
  restoredCut: readonly string[];
}

/**
 * Merges one service row into its line by applying mergeCell to each column. The line is read as
 * cells: column k's local value is cells[at[k]] ('' where the line is shorter); at[k] < 0: the sheet
 * lacks the column; `cells` undefined: a row new to the sheet. `takeService[k]`: column k was just
 * added to the sheet (mergeCell's columnAdded).
 * The new base record agrees each column at the service's digest where the cell takes or holds the
 * service's value, and keeps the old agreed digest otherwise; it moves to the service's lMod unless a
 * cell is in conflict or unsettled. A conflict keeps the service's values in the record's conflict
 * until the person resolves it. The row's outcome is its strongest cell's: conflict, then kept-local,
 * then updated (or a new row: added).
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
  const baseDigests = base?.digests;
  const tally = new RowTally();
  // Built only once a column's agreed digest differs from the base's: while null, every column so far
  // kept the base's digest, so an unchanged row reuses the base's own record and builds none.
  let digests: Record<string, Digest> | null = null;
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
    const local = localCell(cells, at[k] as number, read, serviceDigest);
    // A line new to the sheet has agreed nothing yet, whatever the base holds for its row.
    const agreedBefore = cells === undefined ? undefined : baseDigest;
    // Whether the service's value is cut only matters for a cell that differs from it (skips the check
    // for nearly every cell).
    const cut = local >= 0 && local !== serviceDigest && isCutRead(read);
    const added = takeService !== undefined && takeService[k] === true;
    const outcome = mergeCell(local, agreedBefore, serviceDigest, factsOf(cut, added));
    const agreed = tally.note(outcome, k, column, serviceValue, serviceDigest, agreedBefore);
    if (digests === null) {
      if (agreed === baseDigest) continue;
      digests = digestsFrom(baseDigests, columns, k, mayHoldDeleted);
    }
    if (agreed !== NO_DIGEST) digests[columnId] = agreed;
  }
  if (digests === null) {
    // Every column kept the base's digest: the base's own digests stand, unless they hold columns no
    // longer in the schema that this merge must drop (the key count shows whether they do).
    const own = baseDigests as Record<string, Digest>;
    const keepOwn = mayHoldDeleted || hasKeyCount(own, columnIdsOf(columns).size);
    digests = keepOwn ? own : digestsFrom(own, columns, count, false);
  }
  return tally.merged(serviceRow, cells === undefined, base, digests);
}

/** The sheet's side of column k's cell (`position`: its index in the line's cells, or -1). */
function localCell(
  cells: readonly unknown[] | undefined,
  position: number,
  read: EncodedCell['read'],
  serviceDigest: Digest,
): LocalCell {
  if (position < 0) return NOT_IN_SHEET;
  if (cells === undefined) return NEW_LINE;
  const value = cells[position];
  const localValue = value === undefined ? '' : value;
  // An unedited cell reads back exactly as written: no need to hash it a second time.
  return readsBackAs(localValue, read) ? serviceDigest : cellDigest(localValue);
}

/** What the cells of one row came to, noted column by column; lists are allocated only when used. */
class RowTally {
  writeAt: number[] | null = null;
  writeCells: EncodedCell[] | null = null;
  updated: string[] | null = null;
  keptLocal: string[] | null = null;
  conflicts: string[] | null = null;
  restoredCut: string[] | null = null;
  unsettled = false;
  theirs: Record<string, unknown> | null = null;
  theirDigests: Record<string, Digest> | null = null;

  /**
   * Notes one cell's outcome; returns the digest the cell is agreed at (NO_DIGEST: none): the
   * service's where the cell takes or holds its value, what was agreed before otherwise.
   */
  note(
    outcome: CellOutcome,
    k: number,
    column: ColumnSpec,
    serviceValue: unknown,
    serviceDigest: Digest,
    agreedBefore: Digest | undefined,
  ): number {
    switch (outcome) {
      case 'same':
        return serviceDigest;
      case 'take-service':
      case 'fill':
        this.updated = pushed(this.updated, column.id);
        break;
      case 'restore-cut':
        this.restoredCut = pushed(this.restoredCut, column.id);
        break;
      case 'add':
      case 'fill-empty':
        break;
      case 'keep-local':
        this.keptLocal = pushed(this.keptLocal, column.id);
        return agreedBefore ?? NO_DIGEST;
      case 'conflict':
        this.conflicts = pushed(this.conflicts, column.id);
        this.theirs ??= fresh<unknown>();
        this.theirDigests ??= fresh<Digest>();
        this.theirs[column.id] = serviceValue;
        this.theirDigests[column.id] = serviceDigest;
        return agreedBefore ?? NO_DIGEST;
      case 'absent-changed':
        this.unsettled = true;
        return agreedBefore ?? NO_DIGEST;
      case 'absent':
        return agreedBefore ?? NO_DIGEST;
    }
    // The cell takes the service's value: written.
    this.writeAt = pushed(this.writeAt, k);
    this.writeCells = pushed(this.writeCells, encodeCell(serviceValue, column.kind));
    return serviceDigest;
  }

  /** The merged row, its new base record agreeing `digests`. */
  merged(
    serviceRow: Readonly<Record<string, unknown>>,
    newLine: boolean,
    base: BaseRecord | undefined,
    digests: Record<string, Digest>,
  ): MergedCells {
    const id = String(serviceRow.id);
    const serviceLMod = typeof serviceRow.lMod === 'string' ? serviceRow.lMod : String(serviceRow.lMod ?? '');
    const { conflicts } = this;
    // Nothing agreed anew (the common row): the base's own record stands, and no record is built.
    const same =
      base !== undefined &&
      !this.unsettled &&
      digests === base.digests &&
      conflicts === null &&
      base.conflict === undefined &&
      base.lMod === serviceLMod &&
      base.id === id;
    let record: BaseRecord;
    if (same) {
      record = base;
    } else {
      record = { id, lMod: this.unsettled ? (base?.lMod ?? '') : serviceLMod, digests };
      if (conflicts !== null) {
        record.lMod = base?.lMod ?? '';
        const conflict: ConflictRecord = {
          lMod: serviceLMod,
          theirs: this.theirs ?? fresh<unknown>(),
          digests: this.theirDigests ?? fresh<Digest>(),
        };
        if (typeof serviceRow.lModBy === 'string' && serviceRow.lModBy !== '')
          conflict.by = serviceRow.lModBy;
        record.conflict = conflict;
      }
    }
    let outcome: PullOutcome = 'unchanged';
    if (newLine) outcome = 'added';
    else if (conflicts !== null) outcome = 'conflict';
    else if (this.keptLocal) outcome = 'kept-local';
    else if (this.updated || this.restoredCut) outcome = 'updated';
    return {
      writeAt: this.writeAt ?? NO_INDEXES,
      writeCells: this.writeCells ?? NO_CELLS,
      base: record,
      same,
      outcome,
      updated: this.updated ?? NONE,
      keptLocal: this.keptLocal ?? NONE,
      conflicts: conflicts ?? NONE,
      restoredCut: this.restoredCut ?? NONE,
    };
  }
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
