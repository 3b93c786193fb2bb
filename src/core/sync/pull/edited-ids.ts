import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import { cellDigestFor } from '../../codec';
import type { ColumnSpec } from '../../columns';
import { ID_HEADER, type Layout, LMOD_HEADER } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, cellText, type LineIndex } from '../../lines';
import { pendingTokenOf, STATUS } from '../../status';
import { LModOwners, showsLMod } from '../line-identity';
import { isPendingToken } from '../lost-creates';
import { type LineMarks, type RowPool, rowStoodFor, rowsOf } from '../unnamed-lines';
import type { PullState } from './pull-state';

type EditedIdsState = Pick<PullState, 'grid' | 'layout' | 'live' | 'base' | 'index'>;

/** Lines whose id cell does not name their row, and the rows they stand for. */
export interface EditedIds {
  /** Lines whose id was put back. */
  restored: number[];
  /**
   * Rows no line names that a line whose id cell was cleared or typed over stands for, or may (it
   * could not tell which of a few rows): such a row is not missing from the sheet.
   */
  standing: Set<string>;
}

interface UnnamedLine {
  line: number;
  id: string;
  marks: LineMarks;
}

/**
 * Lines whose id cell a person cleared or edited, put back where the line names exactly one row that
 * no line names: an empty or unknown id, or another row's id on a line whose lMod is another row's
 * (the row whose id was typed over). The line names a row by its other fixed fields (lMod, and cOn or
 * createdBy when shown) and its values (rowStoodFor). The line is then merged as that row's and never
 * marked removed while the row comes back as a second line, nor created again. Returns the lines put
 * back. `everyLine`: look at every line of a grid read in part (loading them), not only those loaded.
 */
export function restoreEditedIds(state: EditedIdsState, everyLine = false): number[] {
  return findEditedIds(state, everyLine).restored;
}

/** restoreEditedIds, with the rows that lines it could not put back stand for. */
export function findEditedIds(state: EditedIdsState, everyLine = false): EditedIds {
  const { grid, layout, base, index } = state;
  const idColumn = layout.fixed.get(ID_HEADER);
  const restored: number[] = [];
  const standing = new Set<string>();
  if (idColumn === undefined) return { restored, standing };
  const missing = new Set(base.ids().filter((id) => !index.lineById.has(id) && !isPendingToken(id)));
  if (missing.size === 0) return { restored, standing };
  if (everyLine) grid.ensureLoaded(grid.lines.keys());
  // Records of the loaded lines' rows (a base read in part), their ids not listed for a whole base.
  base.ensureLoaded(idsOfLoadedLines(grid, idColumn));
  base.ensureLoaded([...missing]);
  const owners = new LModOwners(base);
  const lines = linesToLookAt(state, idColumn, owners);
  grid.ensureLoaded(lines);
  let unnamed = unnamedLines(state, idColumn, owners, lines);
  for (;;) {
    const pool = poolOf(base, missing);
    const found = unnamed.map((each) => ({
      each,
      stands: rowStoodFor(each.marks, state.live, owners, pool),
    }));
    const mentions = new Map<string, number>();
    for (const rowId of found.flatMap(({ stands }) => rowsOf(stands)))
      mentions.set(rowId, (mentions.get(rowId) ?? 0) + 1);
    // A row two lines may stand for goes back to neither.
    const putBack = found.flatMap(({ each, stands }) =>
      stands.kind === 'row' && mentions.get(stands.rowId) === 1 ? [{ each, rowId: stands.rowId }] : [],
    );
    if (putBack.length === 0) {
      for (const rowId of mentions.keys()) standing.add(rowId);
      return { restored, standing };
    }
    for (const { each, rowId } of putBack) {
      renameLine(grid, index, idColumn, each, rowId);
      missing.delete(rowId);
      // The row whose id the line showed may now be on no line: a line cleared beside it may be its.
      if (base.has(each.id) && !index.lineById.has(each.id)) missing.add(each.id);
      restored.push(each.line);
    }
    const done = new Set(putBack.map(({ each }) => each));
    unnamed = unnamed.filter((each) => !done.has(each));
    base.ensureLoaded([...missing]);
  }
}

/**
 * Edited id cells are put back (and say so) before anything is matched by id; the rows lines may stand
 * for are not missing. Returns the lines put back.
 */
export function putBackEditedIds(state: PullState): number[] {
  const { restored, standing } = findEditedIds(state);
  if (standing.size > 0) state.standing = standing;
  const statusColumn = state.layout.status;
  if (statusColumn !== undefined)
    for (const line of restored) state.grid.set(line, statusColumn, STATUS.idRestored);
  return restored;
}

/** The ids of the loaded lines, read only when asked for (a base read whole never asks). */
function* idsOfLoadedLines(grid: LineGrid, idColumn: number): Generator<string> {
  for (let line = 0; line < grid.length; line++)
    if (grid.isLoaded(line)) yield cellText(grid.get(line, idColumn));
}

/**
 * The lines whose id cell may not name their row, in one look down the id column: an empty or unknown
 * id, an id on several lines, and a loaded line whose lMod is another row's (most lines are looked
 * up once: their id, and their lMod against their row's).
 */
function linesToLookAt(state: EditedIdsState, idColumn: number, owners: LModOwners): number[] {
  const { grid, layout, base, index } = state;
  const lModColumn = layout.fixed.get(LMOD_HEADER);
  const anyDuplicate = index.duplicates.size > 0;
  const lines: number[] = [];
  for (let line = 0; line < grid.length; line++) {
    const cells = grid.lineCells(line);
    const id = cellText(cells ? cells[idColumn] : grid.get(line, idColumn));
    if (id === '' || (anyDuplicate && index.duplicates.has(id))) {
      lines.push(line);
      continue;
    }
    if (isPendingToken(id)) continue;
    if (!cells || lModColumn === undefined) {
      if (!base.has(id)) lines.push(line);
      continue;
    }
    const record = base.get(id);
    if (!record || !namesItsRow(cellText(cells[lModColumn]), record, owners)) lines.push(line);
  }
  return lines;
}

/** Rows no line names, as the lines that do not name their row may stand for. */
function poolOf(base: BaseTable, missing: ReadonlySet<string>): RowPool {
  return {
    has: (rowId) => missing.has(rowId),
    *records() {
      for (const rowId of missing) {
        const record = base.get(rowId);
        if (record) yield record;
      }
    },
  };
}

/** The lines among `lines` whose id cell does not name their row, with what they show besides it. */
function unnamedLines(
  state: EditedIdsState,
  idColumn: number,
  owners: LModOwners,
  lines: readonly number[],
): UnnamedLine[] {
  const { grid, layout, live, base } = state;
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const fixedColumns = [...layout.fixed].filter(([field]) => field !== ID_HEADER);
  const lModColumn = layout.fixed.get(LMOD_HEADER);
  const ids = lines.map((line) => cellText(grid.get(line, idColumn)));
  // The rows of lines loaded just now (a sheet read in part).
  base.ensureLoaded(ids.filter((id) => base.has(id)));
  const unnamed: UnnamedLine[] = [];
  lines.forEach((line, i) => {
    const id = ids[i] as string;
    // Most lines name their row: only their lMod cell is read.
    const lMod = lModColumn === undefined ? '' : cellText(grid.get(line, lModColumn));
    const record = id === '' ? undefined : base.get(id);
    if (record && namesItsRow(lMod, record, owners)) return;
    const marks = marksOf(grid, line, fixedColumns, at, live, id !== '');
    if (id === '' && isNewLine(grid, layout, line, marks)) return;
    unnamed.push({ line, id, marks });
  });
  return unnamed;
}

/** Whether a line without an id is a new line: blank, or a create already sent (its pending mark). */
function isNewLine(grid: LineGrid, layout: Layout, line: number, marks: LineMarks): boolean {
  if (marks.fixed.length === 0 && !marks.hasValue) return true;
  return layout.status !== undefined && pendingTokenOf(grid.get(line, layout.status)) !== null;
}

/**
 * Whether a line showing a row's id is that row's: the base knows the id and the line's lMod is not
 * another row's (an lMod no row shows was typed into the read-only cell, and is put back).
 */
function namesItsRow(lMod: string, record: BaseRecord, owners: LModOwners): boolean {
  if (lMod === '' || showsLMod(record, lMod)) return true;
  return !owners.rowsShowing(lMod).some((other) => other.id !== record.id);
}

function marksOf(
  grid: LineGrid,
  line: number,
  fixedColumns: ReadonlyArray<readonly [string, number]>,
  at: readonly number[],
  live: readonly ColumnSpec[],
  hasId: boolean,
): LineMarks {
  const fixed: Array<[string, string]> = [];
  for (const [field, column] of fixedColumns) {
    const text = cellText(grid.get(line, column));
    if (text !== '') fixed.push([field, text]);
  }
  const cells = grid.lineCells(line) ?? cellsByGet(grid, line, at);
  let hasValue = false;
  const digests = at.map((position, k) => {
    if (position < 0) return undefined;
    const cell = cells[position] ?? '';
    if (cellText(cell) !== '') hasValue = true;
    return cellDigestFor(cell, (live[k] as ColumnSpec).kind);
  });
  return { fixed, digests, hasValue, hasId };
}

/** Gives a line the id of the row it stands for, in the grid and the index. */
function renameLine(
  grid: LineGrid,
  index: LineIndex,
  idColumn: number,
  unnamed: UnnamedLine,
  rowId: string,
): void {
  const { line, id } = unnamed;
  grid.set(line, idColumn, rowId);
  const shared = index.duplicates.get(id);
  if (shared) {
    const rest = shared.filter((other) => other !== line);
    if (rest.length > 1) index.duplicates.set(id, rest);
    else index.duplicates.delete(id);
    index.lineById.set(id, rest[0] as number);
  } else if (id !== '' && index.lineById.get(id) === line) {
    index.lineById.delete(id);
  }
  index.lineById.set(rowId, line);
}
