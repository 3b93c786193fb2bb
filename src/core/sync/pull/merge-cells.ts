// A pull's merge of one service row into its line: the three-way cell rule (cell-rule.ts) applied to
// each column makes the writes, the new base record and the row's outcome.
import type { BaseRecord, ConflictRecord } from '../../base';
import {
  cellDigestFor,
  cellRead,
  type EncodedCell,
  encodeCell,
  isCutRead,
  readDigest,
  readsBackAs,
} from '../../codec';
import type { ColumnKind, ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { type CellOutcome, COLUMN_ABSENT, factsOf, type LocalCell, mergeCell, NEW_LINE } from '../cell-rule';

export type PullOutcome = 'added' | 'unchanged' | 'updated' | 'kept-local' | 'conflict';

/** An agreed digest that is none (digests are never negative). */
const NO_DIGEST = -1;

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
  { withDeleted }: { withDeleted: boolean },
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

/** How a row is merged, the same for every row of a batch. */
export interface MergeOptions {
  /**
   * The base may hold digests of columns no longer in the schema (default true): they are kept, so
   * edits to them stay detectable; false: a record holding any is rewritten without them.
   */
  mayHoldDeleted?: boolean;
  /** Per column index k: column k is a fresh column (this pull just put it (back) into the sheet). */
  freshColumns?: readonly boolean[];
}

const DEFAULT_MERGE: MergeOptions = Object.freeze({});

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
  /** Columns the sheet lacks whose value the service changed since it was agreed (the row is unsettled). */
  absentChanged: readonly string[];
}

/**
 * Merges one service row into its line by applying mergeCell to each column. The line is read as
 * cells: column k's local value is cells[at[k]] ('' where the line is shorter); at[k] < 0: the sheet
 * lacks the column; `cells` undefined: a row new to the sheet. See MergeOptions for the options.
 * The new base record agrees each column at the service's digest where the cell takes or holds the
 * service's value, and keeps the old agreed digest otherwise; it moves to the service's lMod unless a
 * cell is in conflict or unsettled. A conflict keeps the service's values in the record's conflict
 * until the person resolves it. The row's outcome is its strongest cell's: conflict, then kept-local,
 * then updated (or a new row: added). `lineDigests`, when given, receives the line's cell digests by
 * column (undefined where the sheet lacks the column), as the id-swap check weighs them: worked out
 * here anyway, mostly without hashing the cell again.
 */
export function mergeCells(
  serviceRow: Readonly<Record<string, unknown>>,
  cells: readonly unknown[] | undefined,
  at: readonly number[],
  base: BaseRecord | undefined,
  columns: readonly ColumnSpec[],
  options: MergeOptions = DEFAULT_MERGE,
  lineDigests?: Array<Digest | undefined>,
): MergedCells {
  const { mayHoldDeleted = true, freshColumns } = options;
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
    const serviceDigest = readDigest(serviceValue, read, column.kind);
    const baseDigest = baseDigests === undefined ? undefined : baseDigests[columnId];
    const local = localCell(cells, at[k] as number, read, serviceDigest, column.kind);
    if (lineDigests !== undefined) lineDigests[k] = local >= 0 ? local : undefined;
    // A line new to the sheet has agreed nothing yet, whatever the base holds for its row.
    const agreedBefore = cells === undefined ? undefined : baseDigest;
    // Whether the service's value is cut only matters for a cell that differs from it (skips the check
    // for nearly every cell).
    const cut = local >= 0 && local !== serviceDigest && isCutRead(read);
    const fresh = freshColumns !== undefined && freshColumns[k] === true;
    const outcome = mergeCell(local, agreedBefore, serviceDigest, factsOf(cut, fresh));
    const agreed = tally.note(outcome, k, column, serviceValue, serviceDigest, agreedBefore);
    // A list written another way (`a,b`, JSON, or as lists showed before) holds the same choices: it
    // is shown the way the service's value shows, silently (nothing changed).
    if (
      outcome === 'same' &&
      column.kind === 'list' &&
      !readsBackAs(cellValueAt(cells, at[k] as number), read)
    ) {
      tally.redisplay(k, encodeCell(serviceValue, column.kind));
    }
    if (digests === null) {
      if (agreed === baseDigest) continue;
      digests = digestsFrom(baseDigests, columns, k, { withDeleted: mayHoldDeleted });
    }
    if (agreed !== NO_DIGEST) digests[columnId] = agreed;
  }
  if (digests === null) {
    // Every column kept the base's digest: the base's own digests stand, unless they hold columns no
    // longer in the schema that this merge must drop (the key count shows whether they do).
    const own = baseDigests as Record<string, Digest>;
    const keepOwn = mayHoldDeleted || hasKeyCount(own, columnIdsOf(columns).size);
    digests = keepOwn ? own : digestsFrom(own, columns, count, { withDeleted: false });
  }
  return tally.merged(serviceRow, cells === undefined, base, digests);
}

/** The sheet's side of column k's cell (`position`: its index in the line's cells, or -1). */
function localCell(
  cells: readonly unknown[] | undefined,
  position: number,
  read: EncodedCell['read'],
  serviceDigest: Digest,
  kind: ColumnKind,
): LocalCell {
  if (position < 0) return COLUMN_ABSENT;
  if (cells === undefined) return NEW_LINE;
  const value = cells[position];
  const localValue = value === undefined ? '' : value;
  // An unedited cell reads back exactly as written: no need to hash it a second time.
  return readsBackAs(localValue, read) ? serviceDigest : cellDigestFor(localValue, kind);
}

/** The cell at a position of a line's cells ('' for a cell past its end). */
function cellValueAt(cells: readonly unknown[] | undefined, position: number): unknown {
  const value = cells?.[position];
  return value === undefined ? '' : value;
}

/** What the cells of one row came to, noted column by column; lists are allocated only when used. */
class RowTally {
  writeAt: number[] | null = null;
  writeCells: EncodedCell[] | null = null;
  updated: string[] | null = null;
  keptLocal: string[] | null = null;
  conflicts: string[] | null = null;
  restoredCut: string[] | null = null;
  absentChanged: string[] | null = null;
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
        this.absentChanged = pushed(this.absentChanged, column.id);
        return agreedBefore ?? NO_DIGEST;
      case 'absent':
        return agreedBefore ?? NO_DIGEST;
    }
    // The cell takes the service's value: written.
    this.writeAt = pushed(this.writeAt, k);
    this.writeCells = pushed(this.writeCells, encodeCell(serviceValue, column.kind));
    return serviceDigest;
  }

  /** A cell that holds the service's value written another way: shown the service's way (not counted). */
  redisplay(k: number, cell: EncodedCell): void {
    this.writeAt = pushed(this.writeAt, k);
    this.writeCells = pushed(this.writeCells, cell);
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
      absentChanged: this.absentChanged ?? NONE,
    };
  }
}
