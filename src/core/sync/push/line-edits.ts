// A push's reading of lines against the base: which cells of a line are edited (cellEdits), how edits meet a row the service changed meanwhile
// (reconcileEdits), and the base once a write was answered (baseAfterWrite).
import type { BaseRecord, ConflictRecord } from '../../base';
import {
  cellDigestFor,
  type DecodeContext,
  decodeCell,
  isCutCell,
  type JsonValue,
  valueDigest,
} from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';
import { cutNotSentReason } from '../../status';
import { cellAt, fresh, type LineEdits } from '../line-values';

export type { LineEdits };

/**
 * The local edits of a line: the columns whose cell no longer matches the base. Column k's value is
 * cells[at[k]]; a column the sheet lacks (at[k] < 0) has no edits. The result of an unedited line is shared and frozen.
 * `digests`: the line's cell digests when already worked out (lineDigests), so no cell is hashed twice.
 */
export function cellEdits(
  cells: readonly unknown[],
  at: readonly number[],
  base: BaseRecord,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
  digests?: ReadonlyArray<Digest | undefined>,
): LineEdits {
  let edits: LineEdits | null = null;
  const baseDigests = base.digests;
  for (let k = 0; k < columns.length; k++) {
    const column = columns[k] as ColumnSpec;
    const baseDigest = baseDigests[column.id];
    // A column without its (single) header holds no edits: an absent cell is not an empty one.
    if (baseDigest === undefined || (at[k] as number) < 0) continue;
    const value = cellAt(cells, at, k);
    const localDigest = digests?.[k] ?? cellDigestFor(value, column.kind);
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
    const serviceDigest = valueDigest(serviceValue, column.kind);
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

/** A write the service answered, as baseAfterWrite settles it. */
export interface AnsweredWrite {
  rowId: string;
  /** The row's lMod in the service's answer. */
  answeredLMod: string;
  /** The local digests of the columns now agreed (sent, or already equal). */
  settledDigests: Readonly<Record<string, Digest>>;
  /** The row had moved on since its base (default false): the base lMod stays. */
  stale?: boolean;
  /** A conflict the row keeps (the base lMod stays). */
  conflict?: ConflictRecord | undefined;
}

/**
 * The base after a successful write. Sent and already-equal columns take the local digest (if the
 * service normalised a value, the next pull brings its version); conflicting columns keep theirs; the
 * base lMod moves only when every column is agreed at the answered lMod.
 */
export function baseAfterWrite(base: BaseRecord | undefined, write: AnsweredWrite): BaseRecord {
  const { rowId, answeredLMod, settledDigests, stale = false, conflict } = write;
  const digests = fresh<Digest>();
  if (base) for (const key of Object.keys(base.digests)) digests[key] = base.digests[key] as Digest;
  for (const key of Object.keys(settledDigests)) digests[key] = settledDigests[key] as Digest;
  const record: BaseRecord = {
    id: rowId,
    lMod: !stale && !conflict ? answeredLMod : (base?.lMod ?? ''),
    digests,
  };
  if (conflict) record.conflict = conflict;
  // What the line shows is not changed by a write to the service: the answer's fields, once written
  // onto the line, replace it (settleUpdates).
  if (base?.shown) record.shown = base.shown;
  if (base?.lineShows) record.lineShows = base.lineShows;
  return record;
}
