// Completing the header row: column ids as headers, appended at the right edge when missing; display
// name and type as notes, styled, frozen; fixed fields marked read-only with a warning-only protection.
import type { ColumnSpec } from '../columns';
import {
  adjacentColumnGroups,
  columnLetters,
  extendLayout,
  type Layout,
  missingHeaders,
  STATUS_HEADER,
} from '../layout';
import type { HeaderCompletion } from './ports';
import type { HeaderLook, SheetCells } from './sheet-cells';

const TABLE_HEADER_BACKGROUND = '#e8f0fe';
const READ_ONLY_HEADER_BACKGROUND = '#eeeeee';
const DELETED_HEADER_BACKGROUND = '#fce8e6';

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
export function completeHeaders(cells: SheetCells, request: HeaderCompletion): Layout {
  const { layout, grid, live } = request;
  const added = missingHeaders(layout, live, request.fixedFields, request.keepOut);
  const next = added.length > 0 ? appendHeaders(cells, request, added) : layout;
  if (next.width === 0) return next;
  styleHeaderRow(cells, next, live);
  // The header row is frozen when the add-on makes it: a sheet whose headers were all there already
  // had it frozen then, or a person unfroze it on purpose. On a sheet with nothing in it yet the
  // add-on writes the whole header row and freezes it without asking (a waiting call); on one with
  // headers it asks, so a person's freeze of more rows is kept.
  if (added.length > 0) {
    const emptySheet = layout.width === 0 && grid.length === 0;
    if (emptySheet || cells.frozenRows() < 1) cells.freezeRows(1);
  }
  return next;
}

/** Appends the missing headers at the right edge: plain-text new text columns, protected read-only fields. */
function appendHeaders(cells: SheetCells, request: HeaderCompletion, added: string[]): Layout {
  const { layout, grid, live } = request;
  cells.ensureColumns(layout.width + added.length);
  cells.write(1, layout.width + 1, [added], true);
  const next = extendLayout(layout, added, live, request.deletedIds);
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
  cells.setPlainText(adjacentColumnGroups(textAdded).map(([start, width]) => wholeColumns(start, width)));
  // One warning-only protection per run of adjacent read-only columns (four queued calls each).
  const readOnly = new Map<number, string>();
  for (const field of added) {
    const index = next.fixed.get(field) ?? (field === STATUS_HEADER ? next.status : undefined);
    if (index !== undefined) readOnly.set(index, field);
  }
  for (const [start, width] of adjacentColumnGroups([...readOnly.keys()].sort((a, b) => a - b))) {
    const fields = Array.from({ length: width }, (_, i) => readOnly.get(start + i) as string);
    cells.protectWarningOnly(
      wholeColumns(start, width),
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
function styleHeaderRow(cells: SheetCells, next: Layout, live: readonly ColumnSpec[]): void {
  // Only the headers the add-on manages are written; the person's own header cells are left alone.
  // Written without reading them first: a read waits for the spreadsheet (about 150 ms each, three
  // of them), queued writes of one header row cost a few ms (docs/performance.md).
  const looks: Record<HeaderLook, Array<string | undefined>> = {
    notes: [],
    backgrounds: [],
    fontWeights: [],
  };
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
      looks.notes[index] = noteFor(column);
      looks.backgrounds[index] = TABLE_HEADER_BACKGROUND;
      looks.fontWeights[index] = 'bold';
    } else if (next.fixed.get(header) === index || next.status === index) {
      looks.notes[index] = fixedNote(header);
      looks.backgrounds[index] = READ_ONLY_HEADER_BACKGROUND;
      looks.fontWeights[index] = 'bold';
    } else if (next.deleted.get(header) === index) {
      looks.notes[index] =
        `${header}: this column was deleted on the service. Its cells stay here but are no longer synced.`;
      looks.backgrounds[index] = DELETED_HEADER_BACKGROUND;
    }
  }
  for (const look of ['notes', 'backgrounds', 'fontWeights'] as const)
    writeHeaderRuns(cells, look, looks[look]);
}

/** Writes each run of adjacent set values of the header row in one call. */
function writeHeaderRuns(
  cells: SheetCells,
  look: HeaderLook,
  values: ReadonlyArray<string | undefined>,
): void {
  const indexes: number[] = [];
  values.forEach((value, index) => {
    if (value !== undefined) indexes.push(index);
  });
  for (const [start, width] of adjacentColumnGroups(indexes)) {
    cells.styleHeader(look, start + 1, values.slice(start, start + width) as string[]);
  }
}
