// The header row: column ids as headers, display name and type as notes, frozen, styled; fixed
// fields marked read-only with a warning-only protection.
import type { ColumnSpec } from '../core/columns';
import {
  adjacentColumnGroups,
  columnLetters,
  extendLayout,
  type Layout,
  missingHeaders,
  STATUS_HEADER,
} from '../core/layout';
import type { LineGrid } from '../core/line-grid';
import { ensureColumns } from './grid-size';

const TABLE_HEADER_BACKGROUND = '#e8f0fe';
const READ_ONLY_HEADER_BACKGROUND = '#eeeeee';

function noteFor(column: ColumnSpec): string {
  return `${column.name}\nType: ${column.type}${column.maxLength !== undefined ? ` (max ${column.maxLength} characters)` : ''}\nColumn id: ${column.id}`;
}

function fixedNote(field: string): string {
  return field === STATUS_HEADER
    ? 'Sync status of each line (written by Table App Sync).'
    : `${field}: read-only field of the service row. Edits here are not sent and are restored on the next pull.`;
}

/**
 * Appends missing headers at the right edge and refreshes header notes and styles. Returns the
 * layout the sheet has afterwards.
 */
export function prepareHeaders(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layout: Layout,
  grid: LineGrid,
  live: readonly ColumnSpec[],
  deletedIds: readonly string[],
  fixedFields: readonly string[],
  keepOut: ReadonlySet<string> = new Set(),
): Layout {
  const added = missingHeaders(layout, live, fixedFields, keepOut);
  const next = added.length > 0 ? appendHeaders(sheet, layout, grid, live, deletedIds, added) : layout;
  if (next.width === 0) return next;
  styleHeaderRow(sheet, next, live);
  // The header row is frozen when the add-on makes it: a sheet whose headers were all there already
  // had it frozen then, or a person unfroze it on purpose. On a sheet with nothing in it yet the
  // add-on writes the whole header row and freezes it without asking (a waiting call); on one with
  // headers it asks, so a person's freeze of more rows is kept.
  if (added.length > 0) {
    const emptySheet = layout.width === 0 && grid.length === 0;
    if (emptySheet || sheet.getFrozenRows() < 1) sheet.setFrozenRows(1);
  }
  return next;
}

/** Appends the missing headers at the right edge: plain-text new text columns, protected read-only fields. */
function appendHeaders(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  layout: Layout,
  grid: LineGrid,
  live: readonly ColumnSpec[],
  deletedIds: readonly string[],
  added: string[],
): Layout {
  const startColumn = layout.width + 1;
  ensureColumns(sheet, layout.width + added.length);
  sheet.getRange(1, startColumn, 1, added.length).setNumberFormat('@').setValues([added]);
  const next = extendLayout(layout, added, live, deletedIds);
  grid.widen(next.width);
  // Whole new text columns become plain text, so what a person types on new lines stays literal.
  const kinds = new Map(live.map((column) => [column.id, column.kind]));
  const textAdded = added
    .map((header, i) => ({ header, index: layout.width + i }))
    .filter(({ header }) => {
      const kind = kinds.get(header);
      return kind === undefined || kind === 'text' || kind === 'list' || kind === 'json';
    })
    .map(({ index }) => index);
  // Whole columns (open-ended A1, the header cell included: it is plain text already), so the grid's
  // size need not be asked (a waiting call); rows inserted later get their format as they come.
  const textBlocks = adjacentColumnGroups(textAdded).map(([start, width]) => wholeColumns(start, width));
  const only = textBlocks.length === 1 ? textBlocks[0] : undefined;
  if (only) sheet.getRange(only).setNumberFormat('@');
  else if (textBlocks.length > 1) sheet.getRangeList(textBlocks).setNumberFormat('@');
  // One warning-only protection per run of adjacent read-only columns (four queued calls each).
  const readOnly = new Map<number, string>();
  for (const field of added) {
    const index = next.fixed.get(field) ?? (field === STATUS_HEADER ? next.status : undefined);
    if (index !== undefined) readOnly.set(index, field);
  }
  for (const [start, width] of adjacentColumnGroups([...readOnly.keys()].sort((a, b) => a - b))) {
    const fields = Array.from({ length: width }, (_, i) => readOnly.get(start + i) as string);
    const protection = sheet.getRange(wholeColumns(start, width)).protect();
    protection.setWarningOnly(true);
    protection.setDescription(
      `Table App Sync: ${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'} written by the add-on`,
    );
  }
  return next;
}

/** A1 notation of whole columns from the 0-based `start`, `width` wide (`C:D`): to the grid's end. */
function wholeColumns(start: number, width: number): string {
  return `${columnLetters(start + 1)}:${columnLetters(start + width)}`;
}

/** Writes the notes and styles of the header cells the add-on manages (the person's own are left alone). */
function styleHeaderRow(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  next: Layout,
  live: readonly ColumnSpec[],
): void {
  // Only the headers the add-on manages are written; the person's own header cells are left alone.
  // Written without reading them first: a read waits for the spreadsheet (about 150 ms each, three
  // of them), queued writes of one header row cost a few ms (docs/performance.md).
  const notes: Array<string | undefined> = [];
  const backgrounds: Array<string | undefined> = [];
  const weights: Array<GoogleAppsScript.Spreadsheet.FontWeight | undefined> = [];
  // By sheet position: a column id with surrounding spaces shows trimmed in its header cell.
  const columnAt = new Map<number, ColumnSpec>();
  for (const column of live) {
    const index = next.columns.get(column.id);
    if (index !== undefined) columnAt.set(index, column);
  }
  for (let index = 0; index < next.width; index++) {
    const header = next.headers[index] ?? '';
    const column = columnAt.get(index);
    if (column) {
      notes[index] = noteFor(column);
      backgrounds[index] = TABLE_HEADER_BACKGROUND;
      weights[index] = 'bold';
    } else if (next.fixed.get(header) === index || next.status === index) {
      notes[index] = fixedNote(header);
      backgrounds[index] = READ_ONLY_HEADER_BACKGROUND;
      weights[index] = 'bold';
    } else if (next.deleted.get(header) === index) {
      notes[index] =
        `${header}: this column was deleted on the service. Its cells stay here but are no longer synced.`;
      backgrounds[index] = '#fce8e6';
    }
  }
  writeHeaderRuns(sheet, notes, (range, run) => range.setNotes([run]));
  writeHeaderRuns(sheet, backgrounds, (range, run) => range.setBackgrounds([run]));
  writeHeaderRuns(sheet, weights, (range, run) => range.setFontWeights([run]));
}

/** Writes each run of adjacent set values of the header row in one call. */
function writeHeaderRuns<T extends string>(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  values: ReadonlyArray<T | undefined>,
  write: (range: GoogleAppsScript.Spreadsheet.Range, run: T[]) => void,
): void {
  const indexes: number[] = [];
  values.forEach((value, index) => {
    if (value !== undefined) indexes.push(index);
  });
  for (const [start, width] of adjacentColumnGroups(indexes)) {
    write(sheet.getRange(1, start + 1, 1, width), values.slice(start, start + width) as T[]);
  }
}
