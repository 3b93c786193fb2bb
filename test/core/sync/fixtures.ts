// Shared fixtures for the sync-session tests: a table (title, amount, note), its sheet layout
// (id, title, amount, lMod, _sync: no note) and base records agreed on given values.
import type { BaseRecord } from '../../../src/core/base';
import { BaseTable } from '../../../src/core/base-table';
import { valueDigest } from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import { readLayout } from '../../../src/core/layout';
import { LineGrid } from '../../../src/core/line-grid';

export const live: ColumnSpec[] = [
  { id: 'title', name: 'Title', type: 'text', kind: 'text', deleted: false },
  { id: 'amount', name: 'Amount', type: 'number', kind: 'number', deleted: false },
  // A column of the table the sheet does not show: sent by a create only when given a value.
  { id: 'note', name: 'Note', type: 'text', kind: 'text', deleted: false },
];
export const HEADERS = ['id', 'title', 'amount', 'lMod', '_sync'];
/** Sheet columns of HEADERS. */
export const ID = 0;
export const TITLE = 1;
export const AMOUNT = 2;
export const LMOD = 3;
export const STATUS_COLUMN = 4;

export const decode = { formatDate: () => '2024-01-01' };

/** A base record agreeing on these values at `lMod`. */
export function agreed(id: string, lMod: string, title: string | null, amount: number | null): BaseRecord {
  return { id, lMod, digests: { title: valueDigest(title, 'text'), amount: valueDigest(amount, 'number') } };
}

/** A sheet line: [id, title, amount, lMod, status]. */
export function line(id: string, title: string, amount: number | '', lMod: string, status = ''): unknown[] {
  return [id, title, amount, lMod, status];
}

export function gridOf(lines: readonly unknown[][]): LineGrid {
  return new LineGrid(
    lines.map((each) => [...each]),
    HEADERS.length,
  );
}

export function baseOf(records: readonly BaseRecord[]): BaseTable {
  const base = new BaseTable([], []);
  base.ensureColumns(live.map((column) => column.id));
  for (const record of records) base.set(record);
  return base;
}

export function layoutOf(headers: readonly string[] = HEADERS, deleted: readonly string[] = []) {
  return readLayout(headers, live, deleted);
}
