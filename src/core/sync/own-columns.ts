// A column the service adds under a header the sheet already uses for a column of a person's own
// (their private `notes`, say): that column stays theirs. It is never synced, its cells are never
// sent nor overwritten, until they rename it; then the next pull adds the service's column.
import type { ColumnSpec } from '../columns';
import type { Layout } from '../layout';
import type { LineGrid } from '../line-grid';
import { cellText } from '../lines';
import type { LinkRecord } from '../records';
import type { LinkStorePort } from './ports';

export interface OwnColumnsInput {
  layout: Layout;
  live: readonly ColumnSpec[];
  /** The column ids the base followed before this run (empty: nothing synced yet). */
  syncedBefore: readonly string[];
  /** Column ids a pull added (back) itself and is filling: ours, not a person's. */
  fresh: readonly string[];
  /** Column ids recorded as a person's own by an earlier run (`LinkRecord.ownColumns`). */
  recorded: readonly string[];
  grid: LineGrid;
}

/**
 * The live column ids whose header in the sheet heads a person's own column: recorded ones whose
 * header is still there, and columns new to the table (never synced by this sheet) whose header a
 * column with values already carries. A first pull (nothing synced yet) claims matching headers as
 * before; an empty column of the same header is simply filled.
 */
export function personsColumnsUnderServiceIds(input: OwnColumnsInput): string[] {
  const { layout, live, syncedBefore, grid } = input;
  const still = input.recorded.filter((id) => layout.columns.has(id));
  if (syncedBefore.length === 0) return still;
  const synced = new Set(syncedBefore);
  const ours = new Set(input.fresh);
  const found = [...still];
  for (const column of live) {
    const at = layout.columns.get(column.id);
    if (at === undefined || synced.has(column.id) || ours.has(column.id) || found.includes(column.id))
      continue;
    if (columnHasValues(grid, at)) found.push(column.id);
  }
  return found;
}

/** Whether any line holds a value in a sheet column (loads every line: asked only for a new column). */
function columnHasValues(grid: LineGrid, at: number): boolean {
  const lines: number[] = [];
  for (let line = 0; line < grid.length; line++) lines.push(line);
  grid.ensureLoaded(lines);
  for (let line = 0; line < grid.length; line++) if (cellText(grid.get(line, at)) !== '') return true;
  return false;
}

/** Takes a person's columns out of the synced ones: they count as the person's own columns. */
export function setAsidePersonsColumns(layout: Layout, ids: readonly string[]): void {
  for (const id of ids) {
    const at = layout.columns.get(id);
    if (at === undefined) continue;
    layout.columns.delete(id);
    if (!layout.own.includes(at)) layout.own.push(at);
  }
  layout.own.sort((a, b) => a - b);
}

/** Records the person's columns on the link when they changed (a run never writes back the rest). */
export function recordPersonsColumns(links: LinkStorePort, link: LinkRecord, ids: readonly string[]): void {
  const before = link.ownColumns ?? [];
  if (before.length === ids.length && before.every((id) => ids.includes(id))) return;
  link.ownColumns = [...ids];
  links.update((stored) => {
    if (ids.length > 0) stored.ownColumns = [...ids];
    else delete stored.ownColumns;
  });
}
