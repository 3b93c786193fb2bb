import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import type { DecodeContext } from '../../codec';
import { ID_HEADER, type Layout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, cellText } from '../../lines';
import { pendingTokenOf } from '../../status';
import { type LineEdits, newCellValues } from '../line-values';
import { isPendingToken, matchPendingByContent } from '../lost-creates';
import type { PendingCreates, PullState } from './pull-state';

/**
 * Pending creates (a lost answer) on this sheet: the lines marked with a pending token whose record
 * the base holds, then the unmarked lines that match a pending record no mark claims (see
 * unmarkedPendingCreates). Undefined when there are none (a pull adopts nothing).
 */
export function findPendingCreates(
  state: PullState & { decode: DecodeContext },
  me: string,
): PendingCreates | undefined {
  const pending = markedPendingCreates(state.grid, state.layout, state.base, me);
  const claimed = new Set(pending?.lines.map((each) => each.record.id) ?? []);
  const unmarked = unmarkedPendingCreates(state, claimed);
  if (pending) {
    pending.lines.push(...unmarked);
    return pending;
  }
  return unmarked.length > 0 ? { me, lines: unmarked } : undefined;
}

/** Lines whose status carries a pending token, with the record the base holds for it. */
function markedPendingCreates(
  grid: LineGrid,
  layout: Layout,
  base: BaseTable,
  me: string,
): PendingCreates | undefined {
  const statusColumn = layout.status;
  if (statusColumn === undefined) return undefined;
  const lines: Array<{ line: number; token: string }> = [];
  for (let line = 0; line < grid.length; line++) {
    const token = pendingTokenOf(grid.get(line, statusColumn));
    if (token) lines.push({ line, token });
  }
  if (lines.length === 0) return undefined;
  grid.ensureLoaded(lines.map((each) => each.line));
  base.ensureLoaded(lines.map((each) => each.token));
  const found: PendingCreates['lines'] = [];
  for (const { line, token } of lines) {
    const record = base.get(token);
    if (record) found.push({ line, record });
  }
  return { me, lines: found };
}

/**
 * Pending creates whose line carries no mark: a person inserted or sorted lines while the push waited
 * for its POST, so the mark and the id were never written (the line was lost to that push), or the
 * person cleared the status cell. Without this the pull added the created row as a second line and
 * the next push, finding that row on a line, created the person's line again (chaos seed 20240233).
 * Such a line is matched by exactly the values sent (as push does) and gets the row like a marked one.
 * Only asked when the base holds a pending record no mark claims (rare): then every line without an
 * id is read.
 */
function unmarkedPendingCreates(
  state: Pick<PullState, 'grid' | 'layout' | 'base' | 'live'> & { decode: DecodeContext },
  marked: ReadonlySet<string>,
): Array<{ line: number; record: BaseRecord }> {
  const { grid, layout, base, live, decode } = state;
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  if (idColumn === undefined || statusColumn === undefined) return [];
  const tokens = base.ids().filter((id) => isPendingToken(id) && !marked.has(id));
  if (tokens.length === 0) return [];
  base.ensureLoaded(tokens);
  const records = tokens.map((token) => base.get(token)).filter((record) => record !== undefined);
  // The id and status columns are always known (preloaded): only the lines they leave are read whole.
  const unclaimed: number[] = [];
  for (let line = 0; line < grid.length; line++) {
    if (cellText(grid.get(line, idColumn)) === '' && !pendingTokenOf(grid.get(line, statusColumn)))
      unclaimed.push(line);
  }
  grid.ensureLoaded(unclaimed);
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const candidates: Array<{ line: number; values: LineEdits['values']; digests: LineEdits['digests'] }> = [];
  for (const line of unclaimed) {
    const edits = newCellValues(cellsByGet(grid, line, at), at, live, decode);
    if (edits.errors.length === 0 && Object.keys(edits.values).length > 0)
      candidates.push({ line, values: edits.values, digests: edits.digests });
  }
  const out: Array<{ line: number; record: BaseRecord }> = [];
  for (const [index, token] of matchPendingByContent(candidates, records, new Set(), live)) {
    const record = records.find((each) => each.id === token);
    if (record) out.push({ line: (candidates[index] as { line: number }).line, record });
  }
  return out;
}
