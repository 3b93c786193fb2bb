// Whether a table fits in a spreadsheet (10 million cells), with the arithmetic for the message.
import { SyncError } from './errors';

/** Cells a spreadsheet holds at most, every sheet's grid counted (apps-script-facts §3). */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;

/** Columns of a sheet Google creates (the base sheet is one; its grid keeps this width). */
export const NEW_SHEET_COLUMNS = 26;

/** Rows of a sheet Google creates (the simulator's insertSheet, as Sheets' default grid of 1,000). */
export const NEW_SHEET_ROWS = 1000;

/**
 * Blank rows an estimate counts below the lines. The add-on grows a sheet right after its content, so
 * the blank rows the sheet had stay below; the exact check near the limit counts them all
 * (workbookFootprint), an estimate only these.
 */
export const GROWTH_SPARE_ROWS = 100;

/**
 * The least any table occupies a row: one column, the id, lMod and status columns, and the base
 * sheet's grid. Rows past what this allows cannot fit whatever the table's columns.
 */
export const SMALLEST_FOOTPRINT: Readonly<TableFootprint> = {
  sheetColumns: 4,
  baseColumns: NEW_SHEET_COLUMNS,
  otherCells: 0,
};

/** What a pulled table occupies besides its rows. */
export interface TableFootprint {
  /** Grid columns of the linked sheet once pulled: its width, or more if the grid is wider. */
  sheetColumns: number;
  /** Grid columns of the hidden base sheet that records each row's last synced state. */
  baseColumns: number;
  /** Cells of the spreadsheet's other sheets (0 when not asked: the check is then a lower bound). */
  otherCells: number;
}

/** Cells the spreadsheet holds after pulling `rows` rows: a header row and spare rows in both sheets. */
export function cellsForRows(rows: number, footprint: TableFootprint): number {
  const gridRows = rows + 1 + GROWTH_SPARE_ROWS;
  return gridRows * (footprint.sheetColumns + footprint.baseColumns) + footprint.otherCells;
}

/** The most rows of a table with this footprint that fit in one spreadsheet (0 if none). */
export function largestTableRows(footprint: TableFootprint): number {
  const perRow = footprint.sheetColumns + footprint.baseColumns;
  if (perRow <= 0) return Number.POSITIVE_INFINITY;
  const room = SPREADSHEET_CELL_LIMIT - footprint.otherCells;
  return Math.max(0, Math.floor(room / perRow) - 1 - GROWTH_SPARE_ROWS);
}

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * Throws a SHEET error when `rows` rows do not fit; called before writing. The message shows the
 * arithmetic and what to do. `atLeast`: the table has at least that many rows (its end not seen
 * yet); `linesWritten`: lines this pull already wrote.
 */
export function assertTableFits(
  rows: number,
  footprint: TableFootprint,
  { atLeast, linesWritten = 0 }: { atLeast: boolean; linesWritten?: number },
): void {
  const needed = cellsForRows(rows, footprint);
  if (needed <= SPREADSHEET_CELL_LIMIT) return;
  const fit = largestTableRows(footprint);
  const others = footprint.otherCells > 0 ? ` + ${n(footprint.otherCells)} cells of the other sheets` : '';
  throw new SyncError(
    'SHEET',
    `This table is too large for one spreadsheet: it has ${atLeast ? 'at least ' : ''}${n(rows)} rows, and ` +
      `(${n(rows)} rows + 1 header + ${GROWTH_SPARE_ROWS} spare) x (${n(footprint.sheetColumns)} columns of the sheet + ` +
      `${n(footprint.baseColumns)} of its hidden sync record)${others} = ${n(needed)} cells, more than the ` +
      `${n(SPREADSHEET_CELL_LIMIT)} a spreadsheet holds; at most ${n(fit)} rows of it fit. ${linesWritten > 0 ? `The first ${n(linesWritten)} lines were written; nothing more was.` : 'Nothing was written.'} ` +
      'Pull it into a spreadsheet of its own, delete unused columns or sheets here, or split the table on the service.',
  );
}
