// The three-way rules, per row: the base (last agreed), the sheet's line, and the service's row.
import type { BaseRecord, ConflictRecord } from './base';
import {
  type CellValue,
  cellDigest,
  type DecodeContext,
  decodeCell,
  type EncodedCell,
  encodeCell,
  type JsonValue,
} from './codec';
import type { ColumnSpec } from './columns';

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
): PulledRow {
  const id = String(serviceRow.id);
  const serviceLMod = typeof serviceRow.lMod === 'string' ? serviceRow.lMod : String(serviceRow.lMod ?? '');
  const writes = new Map<string, EncodedCell>();
  const digests = fresh<string>();
  // Columns no longer in the schema keep their last agreed digest, so edits to them stay detectable.
  if (base) {
    const live = new Set(columns.map((column) => column.id));
    for (const key of Object.keys(base.digests))
      if (!live.has(key)) digests[key] = base.digests[key] as string;
  }
  const updated: string[] = [];
  const keptLocal: string[] = [];
  const conflicts: string[] = [];
  const theirs = fresh<unknown>();
  const theirDigests = fresh<string>();

  for (const column of columns) {
    const own = Object.prototype.hasOwnProperty.call(serviceRow, column.id);
    const serviceValue = own ? serviceRow[column.id] : null;
    const encoded = encodeCell(serviceValue, column.kind);
    const serviceDigest = cellDigest(encoded.read);
    if (!local) {
      writes.set(column.id, encoded);
      digests[column.id] = serviceDigest;
      continue;
    }
    const localValue = local(column.id);
    const localDigest = cellDigest(localValue);
    const baseDigest = base?.digests[column.id];
    if (localDigest === serviceDigest) {
      digests[column.id] = serviceDigest;
    } else if (baseDigest === undefined) {
      // No agreed value yet (a new column, or a line the base does not know): an empty cell takes the
      // service's value; anything else is for the person to decide.
      if (localDigest === cellDigest('')) {
        writes.set(column.id, encoded);
        updated.push(column.id);
        digests[column.id] = serviceDigest;
      } else {
        conflicts.push(column.id);
        theirs[column.id] = serviceValue;
        theirDigests[column.id] = serviceDigest;
      }
    } else if (localDigest === baseDigest) {
      writes.set(column.id, encoded);
      updated.push(column.id);
      digests[column.id] = serviceDigest;
    } else if (serviceDigest === baseDigest) {
      keptLocal.push(column.id);
      digests[column.id] = baseDigest;
    } else {
      conflicts.push(column.id);
      digests[column.id] = baseDigest;
      theirs[column.id] = serviceValue;
      theirDigests[column.id] = serviceDigest;
    }
  }

  const record: BaseRecord = { id, lMod: serviceLMod, digests };
  if (conflicts.length > 0) {
    record.lMod = base?.lMod ?? '';
    record.conflict = { lMod: serviceLMod, theirs, digests: theirDigests } satisfies ConflictRecord;
  }
  let outcome: PullOutcome = 'unchanged';
  if (!local) outcome = 'added';
  else if (conflicts.length > 0) outcome = 'conflict';
  else if (keptLocal.length > 0) outcome = 'kept-local';
  else if (updated.length > 0) outcome = 'updated';
  return { writes, base: record, outcome, updated, keptLocal, conflicts };
}

export interface LineEdits {
  /** Edited columns with the value to send. */
  values: Record<string, JsonValue>;
  /** Local digests of the edited columns. */
  digests: Record<string, string>;
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
  const edits: LineEdits = { values: fresh<JsonValue>(), digests: fresh<string>(), errors: [] };
  for (const column of columns) {
    const baseDigest = base.digests[column.id];
    if (baseDigest === undefined) continue;
    const value = local(column.id);
    const localDigest = cellDigest(value);
    if (localDigest === baseDigest) continue;
    const decoded = decodeCell(value, column, context);
    if (decoded.ok) {
      edits.values[column.id] = decoded.value;
      edits.digests[column.id] = localDigest;
    } else {
      edits.errors.push(decoded.reason);
    }
  }
  return edits;
}

/** The values of a new line (no row id) that are worth creating: its non-empty table cells. */
export function newLineValues(
  local: (columnId: string) => CellValue,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  const result: LineEdits = { values: fresh<JsonValue>(), digests: fresh<string>(), errors: [] };
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
  theirDigests: Record<string, string>;
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
    theirDigests: fresh<string>(),
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
  settledDigests: Readonly<Record<string, string>>,
  stale: boolean,
  conflict: ConflictRecord | undefined,
): BaseRecord {
  const digests = fresh<string>();
  if (base) for (const key of Object.keys(base.digests)) digests[key] = base.digests[key] as string;
  for (const key of Object.keys(settledDigests)) digests[key] = settledDigests[key] as string;
  const record: BaseRecord = {
    id: rowId,
    lMod: !stale && !conflict ? answeredLMod : (base?.lMod ?? ''),
    digests,
  };
  if (conflict) record.conflict = conflict;
  return record;
}
