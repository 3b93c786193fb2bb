// Dates typed into number columns: Sheets gives such a cell a date format, and from then on it reads
// back as a Date even after a number is typed in. A pull gives the cell the number format back.

import { isDateLike } from '../core/codec';
import type { ColumnSpec } from '../core/columns';
import { a1Notation, type Layout } from '../core/layout';
import type { LineGrid } from '../core/line-grid';
import { sheetRowOf } from '../core/lines';
import { spreadsheetZone } from './local-time';

/** The number format of a cell nobody formatted (what Sheets reports for it). */
export const NUMBER_COLUMN_FORMAT = '0.###############';

/** A date as a person would type it, in the spreadsheet's zone (time only when it has one). */
export function typedDate(date: Date): string {
  const zone = spreadsheetZone();
  const value = new Date(date.getTime());
  const hasTime = Utilities.formatDate(value, zone, 'HH:mm:ss') !== '00:00:00';
  return Utilities.formatDate(value, zone, hasTime ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd');
}

/**
 * For every loaded line whose number-column cell reads back as a Date, gives the cell the number
 * format back and keeps what the person typed as literal text (a leading apostrophe), so the line
 * stays marked "a date in a number column" and a number typed in next is a number again. Nothing is
 * sent anywhere. Returns how many cells were restored.
 */
export function restoreNumberFormats(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
): number {
  const cells: string[] = [];
  for (const column of live) {
    if (column.kind !== 'number') continue;
    const index = layout.columns.get(column.id);
    if (index === undefined) continue;
    for (let line = 0; line < grid.length; line++) {
      if (!grid.isLoaded(line)) continue;
      const value = grid.get(line, index);
      if (!isDateLike(value)) continue;
      grid.set(line, index, `'${typedDate(value as Date)}`);
      cells.push(a1Notation(sheetRowOf(line), index + 1, 1, 1));
    }
  }
  if (cells.length > 0) sheet.getRangeList(cells).setNumberFormat(NUMBER_COLUMN_FORMAT);
  return cells.length;
}
