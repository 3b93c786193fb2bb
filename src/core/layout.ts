// Finds columns by header text: which sheet columns are the table's, which are fixed fields, the
// status column, columns deleted on the service, and the person's own columns (never touched).
import type { ColumnSpec } from './columns';

export const STATUS_HEADER = '_sync';
export const ID_HEADER = 'id';
export const LMOD_HEADER = 'lMod';
/** Fixed fields a person may choose to show; `id` and `lMod` always show. */
export const OPTIONAL_FIXED_FIELDS = ['cOn', 'createdBy', 'lModBy', 'indexId', 'position', 'state'] as const;
export const REQUIRED_FIXED_FIELDS = [ID_HEADER, LMOD_HEADER] as const;
export const ALL_FIXED_FIELDS: readonly string[] = [...REQUIRED_FIXED_FIELDS, ...OPTIONAL_FIXED_FIELDS];

export interface Layout {
  /** Number of header cells read (the sheet's width). */
  width: number;
  headers: string[];
  /** 0-based sheet column of each fixed field shown. */
  fixed: Map<string, number>;
  /** 0-based sheet column of each live table column. */
  columns: Map<string, number>;
  /** Columns deleted on the service (or otherwise gone) that still have a sheet column. */
  dead: Map<string, number>;
  status: number | undefined;
  own: number[];
  /** Header texts that appear more than once among the synced headers. */
  duplicates: string[];
}

export function headerText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

/**
 * Maps a header row. `knownGoneIds` are ids that were table columns once (deleted on the service or
 * dropped from the schema); their sheet columns are kept but no longer synced.
 */
export function readLayout(
  headerRow: readonly unknown[],
  live: readonly ColumnSpec[],
  knownGoneIds: readonly string[] = [],
): Layout {
  const liveIds = new Set(live.map((column) => column.id));
  const goneIds = new Set(knownGoneIds);
  const layout: Layout = {
    width: headerRow.length,
    headers: headerRow.map(headerText),
    fixed: new Map(),
    columns: new Map(),
    dead: new Map(),
    status: undefined,
    own: [],
    duplicates: [],
  };
  const claim = (map: Map<string, number>, key: string, index: number): void => {
    if (map.has(key)) {
      if (!layout.duplicates.includes(key)) layout.duplicates.push(key);
      layout.own.push(index);
      return;
    }
    map.set(key, index);
  };
  layout.headers.forEach((header, index) => {
    if (header === '') {
      layout.own.push(index);
    } else if (header === STATUS_HEADER) {
      if (layout.status === undefined) layout.status = index;
      else layout.own.push(index);
    } else if (ALL_FIXED_FIELDS.includes(header)) {
      claim(layout.fixed, header, index);
    } else if (liveIds.has(header)) {
      claim(layout.columns, header, index);
    } else if (goneIds.has(header)) {
      claim(layout.dead, header, index);
    } else {
      layout.own.push(index);
    }
  });
  return layout;
}

/** Headers the sheet lacks, in the order they are appended at its right edge. */
export function missingHeaders(
  layout: Layout,
  live: readonly ColumnSpec[],
  fixedFields: readonly string[],
): string[] {
  const missing: string[] = [];
  if (!layout.fixed.has(ID_HEADER)) missing.push(ID_HEADER);
  for (const column of live) if (!layout.columns.has(column.id)) missing.push(column.id);
  for (const field of fixedFields) {
    if (field !== ID_HEADER && !layout.fixed.has(field) && !missing.includes(field)) missing.push(field);
  }
  if (!layout.fixed.has(LMOD_HEADER) && !missing.includes(LMOD_HEADER)) missing.push(LMOD_HEADER);
  if (layout.status === undefined) missing.push(STATUS_HEADER);
  return missing;
}

/** The layout after appending `added` headers at the right edge. */
export function extendLayout(
  layout: Layout,
  added: readonly string[],
  live: readonly ColumnSpec[],
  knownGoneIds: readonly string[],
): Layout {
  return readLayout([...layout.headers, ...added], live, knownGoneIds);
}

/** Sheet columns the add-on writes (fixed fields, table columns, status), sorted. */
export function syncedColumns(layout: Layout): number[] {
  const indexes = [...layout.fixed.values(), ...layout.columns.values()];
  if (layout.status !== undefined) indexes.push(layout.status);
  return indexes.sort((a, b) => a - b);
}

/** Groups sorted column indexes into runs of adjacent columns: [start, count][]. */
export function contiguousRuns(indexes: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const index of indexes) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === index) last[1] += 1;
    else runs.push([index, 1]);
  }
  return runs;
}

/** A1 letters of a 1-based column: 1 → A, 26 → Z, 27 → AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** A1 notation of a block of cells (1-based first row and column). */
export function a1Notation(row: number, column: number, rows: number, columns: number): string {
  return `${columnLetters(column)}${row}:${columnLetters(column + columns - 1)}${row + rows - 1}`;
}

/** Joins row blocks [firstRow, count] that overlap or touch, sorted by first row. */
export function joinRowBlocks(blocks: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const joined: Array<[number, number]> = [];
  for (const [first, count] of [...blocks].sort((a, b) => a[0] - b[0])) {
    const last = joined[joined.length - 1];
    if (last && first <= last[0] + last[1]) last[1] = Math.max(last[1], first + count - last[0]);
    else joined.push([first, count]);
  }
  return joined;
}
