// What a run writes to a sheet, seen from the simulator: every setValues on it, by its rows.
import { RangeImpl } from '../../emulators/apps-script/spreadsheet';

/** One setValues on a sheet: its first sheet row (1-based), rows and columns. */
export interface SheetWrite {
  row: number;
  rows: number;
  columns: number;
}

/** Runs `work`, recording every setValues on the sheet named `sheetName`. */
export function setValuesDuring(sheetName: string, work: () => void): SheetWrite[] {
  const writes: SheetWrite[] = [];
  const original = RangeImpl.prototype.setValues;
  RangeImpl.prototype.setValues = function recorded(this: RangeImpl, values: unknown[][]): RangeImpl {
    if (this._sheet._name === sheetName)
      writes.push({ row: this._row, rows: this._numRows, columns: this._numCols });
    return original.call(this, values);
  };
  try {
    work();
  } finally {
    RangeImpl.prototype.setValues = original;
  }
  return writes;
}

/** The sheet rows the writes cover, ascending. */
export function rowsWritten(writes: readonly SheetWrite[]): number[] {
  const rows = new Set(writes.flatMap(({ row, rows }) => Array.from({ length: rows }, (_, i) => row + i)));
  return [...rows].sort((a, b) => a - b);
}

/** The cells the writes cover. */
export function cellsWritten(writes: readonly SheetWrite[]): number {
  return writes.reduce((sum, { rows, columns }) => sum + rows * columns, 0);
}
