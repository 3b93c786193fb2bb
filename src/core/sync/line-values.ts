// What a line's cells say as values to send: shared by the push (what a new line creates, which cells
// of a line are edited) and the pull (matching a line to the row its lost create made).
import { cellDigestFor, type DecodeContext, decodeCell, type JsonValue } from '../codec';
import type { ColumnSpec } from '../columns';
import type { Digest } from '../digest';

/** A record with no prototype (a column id such as "constructor" is an ordinary key). */
export function fresh<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The value of column k in a line's cells: '' for a column the sheet lacks, as LineGrid.get reads it. */
export function cellAt(cells: readonly unknown[], at: readonly number[], k: number): unknown {
  const position = at[k] as number;
  if (position < 0) return '';
  const value = cells[position];
  return value === undefined ? '' : value;
}

/**
 * A line's cell digests by column into `into` (undefined for a column the sheet lacks): what its cells
 * are compared with the base by (cellEdits) and weighed by (the id-swap check).
 */
export function lineDigests(
  cells: readonly unknown[],
  at: readonly number[],
  columns: readonly ColumnSpec[],
  into: Array<Digest | undefined>,
): Array<Digest | undefined> {
  for (let k = 0; k < columns.length; k++) {
    into[k] =
      (at[k] as number) < 0
        ? undefined
        : cellDigestFor(cellAt(cells, at, k), (columns[k] as ColumnSpec).kind);
  }
  return into;
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
      result.digests[column.id] = cellDigestFor(value, column.kind);
    } else {
      result.errors.push(decoded.reason);
    }
  }
  return result;
}

/** How a fixed field's value shows in its (plain-text) cell. */
export function fixedFieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
