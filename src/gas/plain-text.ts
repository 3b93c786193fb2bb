// Plain-text number formats: strings like 00123, TRUE or =IMPORTXML(...) stay literal text.
import type { ColumnSpec } from '../core/columns';
import { a1Notation, type Layout } from '../core/layout';

/** A block of cells: 1-based first row and column, row and column counts. */
export type Block = [number, number, number, number];

/** Formats blocks as plain text in one call (a RangeList when there are several). */
export function setPlainText(sheet: GoogleAppsScript.Spreadsheet.Sheet, blocks: readonly Block[]): void {
  const only = blocks.length === 1 ? blocks[0] : undefined;
  if (only) sheet.getRange(only[0], only[1], only[2], only[3]).setNumberFormat('@');
  else if (blocks.length > 1)
    sheet.getRangeList(blocks.map((block) => a1Notation(...block))).setNumberFormat('@');
}

/** Sheet columns whose cells hold text: text and JSON table columns, fixed fields and the status. */
export function textColumns(layout: Layout, live: readonly ColumnSpec[]): number[] {
  const indexes: number[] = [...layout.fixed.values()];
  if (layout.status !== undefined) indexes.push(layout.status);
  for (const column of live) {
    const index = layout.columns.get(column.id);
    if (index !== undefined && (column.kind === 'text' || column.kind === 'list' || column.kind === 'json'))
      indexes.push(index);
  }
  return indexes.sort((a, b) => a - b);
}
