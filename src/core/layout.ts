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
  /** Deleted columns (table columns once, not live now) that still have a sheet column. */
  deleted: Map<string, number>;
  status: number | undefined;
  own: number[];
  /** Header texts that appear more than once among the synced headers. */
  duplicates: string[];
  /**
   * Table, deleted or fixed-field columns whose header appears more than once, with every sheet column carrying it:
   * none of them is synced (read, sent or written) until only one is left, so a person's own column
   * headed like a column id never takes the synced column over silently.
   */
  blocked: Map<string, number[]>;
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
  // Column ids are matched as the header cell shows them: trimmed, like the header text.
  const liveByHeader = new Map<string, string>();
  for (const column of live) {
    const header = headerText(column.id);
    if (!liveByHeader.has(header)) liveByHeader.set(header, column.id);
  }
  const deletedByHeader = new Map<string, string>();
  for (const id of knownGoneIds) {
    const header = headerText(id);
    if (!liveByHeader.has(header) && !deletedByHeader.has(header)) deletedByHeader.set(header, id);
  }
  const layout: Layout = {
    width: headerRow.length,
    headers: headerRow.map(headerText),
    fixed: new Map(),
    columns: new Map(),
    deleted: new Map(),
    status: undefined,
    own: [],
    duplicates: [],
    blocked: new Map(),
  };
  // A table column's header twice: neither column is synced; both stay as they are.
  const claimSynced = (map: Map<string, number>, key: string, index: number): void => {
    const blocked = layout.blocked.get(key);
    if (blocked) {
      blocked.push(index);
      return;
    }
    const first = map.get(key);
    if (first === undefined) {
      map.set(key, index);
      return;
    }
    map.delete(key);
    layout.blocked.set(key, [first, index]);
    if (!layout.duplicates.includes(key)) layout.duplicates.push(key);
  };
  layout.headers.forEach((header, index) => {
    if (header === '') {
      layout.own.push(index);
    } else if (header === STATUS_HEADER) {
      if (layout.status === undefined) layout.status = index;
      else layout.own.push(index);
    } else if (ALL_FIXED_FIELDS.includes(header)) {
      claimSynced(layout.fixed, header, index);
    } else if (liveByHeader.has(header)) {
      claimSynced(layout.columns, liveByHeader.get(header) as string, index);
    } else if (deletedByHeader.has(header)) {
      claimSynced(layout.deleted, deletedByHeader.get(header) as string, index);
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
  keepOut: ReadonlySet<string> = new Set(),
): string[] {
  const missing: string[] = [];
  if (!layout.fixed.has(ID_HEADER) && !layout.blocked.has(ID_HEADER)) missing.push(ID_HEADER);
  for (const column of live) {
    if (!layout.columns.has(column.id) && !layout.blocked.has(column.id) && !keepOut.has(column.id)) {
      missing.push(column.id);
    }
  }
  for (const field of fixedFields) {
    if (
      field !== ID_HEADER &&
      !layout.fixed.has(field) &&
      !layout.blocked.has(field) &&
      !missing.includes(field)
    ) {
      missing.push(field);
    }
  }
  if (!layout.fixed.has(LMOD_HEADER) && !layout.blocked.has(LMOD_HEADER) && !missing.includes(LMOD_HEADER)) {
    missing.push(LMOD_HEADER);
  }
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

/** Groups sorted column indexes into groups of adjacent columns: [start, count][]. */
export function adjacentColumnGroups(indexes: readonly number[]): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  for (const index of indexes) {
    const last = groups[groups.length - 1];
    if (last && last[0] + last[1] === index) last[1] += 1;
    else groups.push([index, 1]);
  }
  return groups;
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

/** Why a synced column holds no edits in this run, and what restores it. */
export interface HeaderProblem {
  columnId: string;
  kind: 'missing' | 'repeated' | 'renamed';
  /** 1-based sheet columns carrying the header (repeated), the renamed column, or empty (missing). */
  sheetColumns: number[];
  /** The header the column carries now (renamed). */
  renamedTo?: string;
}

/**
 * Synced columns renamed by a person: a column the sheet synced before whose header is gone, while
 * one of the person's own columns still holds its agreed values on most lines (`agreedShare` of the
 * lines the base knows). Such a column is not added again (its cells, edits included, come back when
 * the header is renamed back). `agreed(columnId, sheetColumn)` counts [matching, known] lines.
 */
export function renamedColumns(
  layout: Layout,
  live: readonly ColumnSpec[],
  syncedBefore: readonly string[],
  agreed: (columnId: string, sheetColumn: number) => [number, number],
  agreedShare = 0.6,
): Map<string, number> {
  const renamed = new Map<string, number>();
  const before = new Set(syncedBefore);
  const taken = new Set<number>();
  for (const column of live) {
    if (!before.has(column.id) || layout.columns.has(column.id) || layout.blocked.has(column.id)) continue;
    let best = -1;
    let bestShare = 0;
    for (const index of layout.own) {
      if (taken.has(index) || layout.headers[index] === '') continue;
      const [matching, known] = agreed(column.id, index);
      const share = known === 0 ? 0 : matching / known;
      if (known > 0 && share >= agreedShare && share > bestShare) {
        best = index;
        bestShare = share;
      }
    }
    if (best >= 0) {
      renamed.set(column.id, best);
      taken.add(best);
    }
  }
  return renamed;
}

/**
 * Table columns that hold no edits in this run: headers present more than once, and headers of
 * columns the sheet synced before (`syncedBefore`, e.g. the base's digest columns) that are gone.
 * A push sends nothing for them; a pull writes nothing into a repeated one.
 */
export function headerProblems(
  layout: Layout,
  live: readonly ColumnSpec[],
  syncedBefore: readonly string[],
  renamed: ReadonlyMap<string, number> = new Map(),
): HeaderProblem[] {
  const problems: HeaderProblem[] = [];
  const before = new Set(syncedBefore);
  for (const column of live) {
    const blocked = layout.blocked.get(column.id);
    const renamedAt = renamed.get(column.id);
    if (blocked) {
      problems.push({ columnId: column.id, kind: 'repeated', sheetColumns: blocked.map((i) => i + 1) });
    } else if (renamedAt !== undefined && !layout.columns.has(column.id)) {
      problems.push({
        columnId: column.id,
        kind: 'renamed',
        sheetColumns: [renamedAt + 1],
        renamedTo: layout.headers[renamedAt] ?? '',
      });
    } else if (!layout.columns.has(column.id) && before.has(column.id)) {
      problems.push({ columnId: column.id, kind: 'missing', sheetColumns: [] });
    }
  }
  return problems;
}
