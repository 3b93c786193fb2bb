// The three-way rules, per row: the base (last agreed), the sheet's line, and the service's row.
import type { BaseRecord, ConflictRecord } from './base';
import {
  type CellValue,
  cellDigest,
  cellRead,
  type DecodeContext,
  decodeCell,
  type EncodedCell,
  encodeCell,
  type JsonValue,
  sameCell,
} from './codec';
import type { ColumnSpec } from './columns';
import type { Digest } from './digest';

export type PullOutcome = 'added' | 'unchanged' | 'updated' | 'kept-local' | 'conflict';

export interface PulledRow {
  /** Cells to write (column id → encoded service value); cells absent here stay as they are. */
  writes: Map<string, EncodedCell>;
  base: BaseRecord;
  outcome: PullOutcome;
  updated: string[];
  keptLocal: string[];
  conflicts: string[];
}

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
const NO_WRITES: Map<string, EncodedCell> = new Map();

function written(
  map: Map<string, EncodedCell> | null,
  key: string,
  cell: EncodedCell,
): Map<string, EncodedCell> {
  const result = map ?? new Map<string, EncodedCell>();
  result.set(key, cell);
  return result;
}

function pushed(list: string[] | null, item: string): string[] {
  const result = list ?? [];
  result.push(item);
  return result;
}

function fresh<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * Merges one service row into its line. `local` is undefined for a row new to the sheet.
 * - changed on the service only: the cell takes the service's value;
 * - changed in the sheet only: the local edit stays (unpushed work is never thrown away);
 * - changed on both to different values: a conflict; the local value stays and the service's is kept
 *   in the base's conflict record until the person resolves it.
 */
export function mergePulledRow(
  serviceRow: Readonly<Record<string, unknown>>,
  local: ((columnId: string) => CellValue) | undefined,
  base: BaseRecord | undefined,
  columns: readonly ColumnSpec[],
  /** Whether the base may hold digests of columns gone from the schema (skips a loop when not). */
  mayHoldGone = true,
): PulledRow {
  const id = String(serviceRow.id);
  const serviceLMod = typeof serviceRow.lMod === 'string' ? serviceRow.lMod : String(serviceRow.lMod ?? '');
  let writes: Map<string, EncodedCell> | null = null;
  const digests = fresh<Digest>();
  const emptyDigest = cellDigest('');
  // Columns no longer in the schema keep their last agreed digest, so edits to them stay detectable.
  if (base && mayHoldGone) {
    const live = columnIdsOf(columns);
    for (const key in base.digests) if (!live.has(key)) digests[key] = base.digests[key] as Digest;
  }
  // Most rows are unchanged: the lists are only allocated when something goes in them.
  let updated: string[] | null = null;
  let keptLocal: string[] | null = null;
  const conflicts: string[] = [];
  let theirs: Record<string, unknown> | null = null;
  let theirDigests: Record<string, Digest> | null = null;
  const addConflict = (columnId: string, value: unknown, digestOfTheirs: Digest): void => {
    conflicts.push(columnId);
    theirs ??= fresh<unknown>();
    theirDigests ??= fresh<Digest>();
    theirs[columnId] = value;
    theirDigests[columnId] = digestOfTheirs;
  };

  for (const column of columns) {
    const own = Object.prototype.hasOwnProperty.call(serviceRow, column.id);
    const serviceValue = own ? serviceRow[column.id] : null;
    const read = cellRead(serviceValue, column.kind);
    const serviceDigest = cellDigest(read);
    if (!local) {
      writes = written(writes, column.id, encodeCell(serviceValue, column.kind));
      digests[column.id] = serviceDigest;
      continue;
    }
    const localValue = local(column.id);
    // An unedited cell reads back exactly as written: no need to hash it a second time.
    const localDigest = sameCell(localValue, read) ? serviceDigest : cellDigest(localValue);
    const baseDigest = base?.digests[column.id];
    if (localDigest === serviceDigest) {
      digests[column.id] = serviceDigest;
    } else if (baseDigest === undefined) {
      // No agreed value yet (a new column, or a line the base does not know): an empty cell takes the
      // service's value; anything else is for the person to decide.
      if (localDigest === emptyDigest) {
        writes = written(writes, column.id, encodeCell(serviceValue, column.kind));
        updated = pushed(updated, column.id);
        digests[column.id] = serviceDigest;
      } else {
        addConflict(column.id, serviceValue, serviceDigest);
      }
    } else if (localDigest === baseDigest) {
      writes = written(writes, column.id, encodeCell(serviceValue, column.kind));
      updated = pushed(updated, column.id);
      digests[column.id] = serviceDigest;
    } else if (serviceDigest === baseDigest) {
      keptLocal = pushed(keptLocal, column.id);
      digests[column.id] = baseDigest;
    } else {
      digests[column.id] = baseDigest;
      addConflict(column.id, serviceValue, serviceDigest);
    }
  }

  const record: BaseRecord = { id, lMod: serviceLMod, digests };
  if (conflicts.length > 0) {
    record.lMod = base?.lMod ?? '';
    record.conflict = {
      lMod: serviceLMod,
      theirs: theirs ?? fresh<unknown>(),
      digests: theirDigests ?? fresh<Digest>(),
    } satisfies ConflictRecord;
  }
  let outcome: PullOutcome = 'unchanged';
  if (!local) outcome = 'added';
  else if (conflicts.length > 0) outcome = 'conflict';
  else if (keptLocal) outcome = 'kept-local';
  else if (updated) outcome = 'updated';
  return {
    writes: writes ?? NO_WRITES,
    base: record,
    outcome,
    updated: updated ?? NONE,
    keptLocal: keptLocal ?? NONE,
    conflicts,
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

/** The local edits of a line: the columns whose cell no longer matches the base. */
export function lineEdits(
  local: (columnId: string) => CellValue,
  base: BaseRecord,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  let edits: LineEdits | null = null;
  for (const column of columns) {
    const baseDigest = base.digests[column.id];
    if (baseDigest === undefined) continue;
    const value = local(column.id);
    const localDigest = cellDigest(value);
    if (localDigest === baseDigest) continue;
    // Most lines are unedited: the result is only allocated for the first edit.
    edits ??= { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
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

/** The values of a new line (no row id) that are worth creating: its non-empty table cells. */
export function newLineValues(
  local: (columnId: string) => CellValue,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  const result: LineEdits = { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
  for (const column of columns) {
    const value = local(column.id);
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
