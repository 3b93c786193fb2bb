// Checks a pulled sheet cell by cell against the service's rows, independently of the add-on's codec.
import { isDeepStrictEqual } from 'node:util';
import type { AdminClient } from '../emulators/table-service';
import type { Column, Row } from '../emulators/table-service/types';

/** Outcome of a cell-by-cell comparison. */
export interface Verification {
  rows: number;
  cellsChecked: number;
  mismatches: number;
  /** The first few mismatches, in words. */
  examples: string[];
}

/** The service's rows of a table in listing (position) order, with its live columns. */
export async function serviceTable(
  admin: AdminClient,
  appId: string,
  tableId: string,
): Promise<{ columns: Column[]; rows: Row[] }> {
  const state = await admin.state();
  const table = state.apps.find((app) => app.id === appId)?.tables.find((each) => each.id === tableId);
  if (!table) throw new Error(`The emulator has no table ${appId}/${tableId}`);
  const rows = [...table.rows].sort((a, b) =>
    a.position < b.position ? -1 : a.position > b.position ? 1 : 0,
  );
  return { columns: table.columns.filter((column) => !column.deleted), rows };
}

/**
 * Does the cell hold the service's value? Text stays the exact string, numbers and booleans stay
 * typed, null is an empty cell, arrays and objects are JSON text that parses back to an equal value
 * (a list of texts may show as its choices separated by commas).
 */
export function cellHolds(cell: unknown, value: unknown): boolean {
  if (value === null || value === undefined) return cell === '';
  if (typeof value === 'string') return cell === value;
  if (typeof value === 'number')
    return typeof cell === 'number' && (cell === value || (cell === 0 && value === 0));
  if (typeof value === 'boolean') return cell === value;
  if (typeof cell !== 'string') return false;
  // A list of texts may show as its choices separated by commas (a multi-select column).
  if (Array.isArray(value) && !/^\s*[[{"]/.test(cell)) {
    const choices = cell
      .split(',')
      .map((choice) => choice.trim())
      .filter((choice) => choice !== '');
    return isDeepStrictEqual(choices, value);
  }
  try {
    return isDeepStrictEqual(JSON.parse(cell), value);
  } catch {
    return false;
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Compares the sheet (header row of column ids first) with the service rows: one line per row, in
 * the service's order, with the right id and lMod, and every table cell holding the service's value.
 */
export function verifySheet(
  values: readonly (readonly unknown[])[],
  columns: readonly Column[],
  rows: readonly Row[],
): Verification {
  const result: Verification = { rows: rows.length, cellsChecked: 0, mismatches: 0, examples: [] };
  const miss = (text: string): void => {
    result.mismatches++;
    if (result.examples.length < 8) result.examples.push(text);
  };
  const headers = (values[0] ?? []).map((header) => String(header));
  const at = (id: string): number => headers.indexOf(id);
  const idAt = at('id');
  const lModAt = at('lMod');
  if (idAt < 0) miss('no id header');
  for (const column of columns) if (at(column.id) < 0) miss(`no header ${column.id}`);
  const lines = values.slice(1).filter((line) => line.some((cell) => cell !== ''));
  if (lines.length !== rows.length) miss(`${lines.length} lines for ${rows.length} service rows`);
  const count = Math.min(lines.length, rows.length);
  for (let i = 0; i < count; i++) {
    const line = lines[i] as readonly unknown[];
    const row = rows[i] as Row;
    result.cellsChecked++;
    if (line[idAt] !== row.id) {
      miss(`line ${i + 2}: id ${show(line[idAt])}, service row ${i + 1} is ${row.id}`);
      continue;
    }
    if (lModAt >= 0) {
      result.cellsChecked++;
      if (line[lModAt] !== row.lMod)
        miss(`row ${row.id} lMod: sheet ${show(line[lModAt])} service ${row.lMod}`);
    }
    for (const column of columns) {
      const index = at(column.id);
      if (index < 0) continue;
      result.cellsChecked++;
      const cell = line[index];
      const value = row[column.id];
      if (!cellHolds(cell, value))
        miss(`row ${row.id} ${column.id}: sheet ${show(cell)} service ${show(value)}`);
    }
  }
  return result;
}
