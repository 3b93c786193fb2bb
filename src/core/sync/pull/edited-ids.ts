import { cellDigestFor } from '../../codec';
import type { ColumnSpec } from '../../columns';
import { ID_HEADER, LMOD_HEADER } from '../../layout';
import { cellsByGet, cellText } from '../../lines';
import { STATUS } from '../../status';
import { isPendingToken } from '../lost-creates';
import type { PullState } from './pull-state';

/**
 * Lines whose id cell a person edited: an id neither the base nor a pending create knows, on a line
 * that matches exactly one row of the base that is on no line (its lMod cell shows that row's lMod,
 * or every synced cell still holds that row's agreed value). The id is put back, so the line is
 * merged as that row's and never marked removed while the row comes back as a second line. Returns
 * the lines put back.
 */
export function restoreEditedIds(
  state: Pick<PullState, 'grid' | 'layout' | 'live' | 'base' | 'index'>,
): number[] {
  const { grid, layout, live, base, index } = state;
  const idColumn = layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return [];
  const orphans: Array<{ id: string; line: number }> = [];
  for (const [id, line] of index.lineById) {
    if (!base.has(id) && !index.duplicates.has(id) && !isPendingToken(id)) orphans.push({ id, line });
  }
  if (orphans.length === 0) return [];
  const missing = base.ids().filter((id) => !index.lineById.has(id) && !isPendingToken(id));
  if (missing.length === 0) return [];
  grid.ensureLoaded(orphans.map((orphan) => orphan.line));
  base.ensureLoaded(missing);
  const lModColumn = layout.fixed.get(LMOD_HEADER);
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const anySynced = at.some((position) => position >= 0);
  const matchesOf = (line: number): string[] => {
    // The line's lMod text and cell digests are read once, then compared with every missing row.
    const lModCell = lModColumn === undefined ? '' : cellText(grid.get(line, lModColumn));
    const cells = grid.lineCells(line) ?? cellsByGet(grid, line, at);
    const digests = at.map((position, k) =>
      position < 0 ? -1 : cellDigestFor(cells[position] ?? '', (live[k] as ColumnSpec).kind),
    );
    const found: string[] = [];
    for (const id of missing) {
      const record = base.get(id);
      if (!record) continue;
      const shownLMod = record.shown?.lMod ?? record.lMod;
      let same = lModCell !== '' && lModCell === String(shownLMod);
      if (!same) {
        same = anySynced;
        for (let k = 0; k < live.length && same; k++) {
          const digest = record.digests[(live[k] as ColumnSpec).id];
          if ((at[k] as number) < 0 || digest === undefined) continue;
          if (digests[k] !== digest) same = false;
        }
      }
      if (same) found.push(id);
    }
    return found;
  };
  const restored: number[] = [];
  const claimed = new Set<string>();
  for (const orphan of orphans) {
    const found = matchesOf(orphan.line).filter((id) => !claimed.has(id));
    if (found.length !== 1) continue;
    const rowId = found[0] as string;
    claimed.add(rowId);
    grid.set(orphan.line, idColumn, rowId);
    index.lineById.delete(orphan.id);
    index.lineById.set(rowId, orphan.line);
    restored.push(orphan.line);
  }
  return restored;
}

/** Edited id cells are put back (and say so) before anything is matched by id; returns those lines. */
export function putBackEditedIds(state: PullState): number[] {
  const restored = restoreEditedIds(state);
  const statusColumn = state.layout.status;
  if (statusColumn !== undefined)
    for (const line of restored) state.grid.set(line, statusColumn, STATUS.idRestored);
  return restored;
}
