// Re-identifying a run's lines right before it writes: people sort, insert and delete lines while a
// run waits for the network, so a line is found again by its row id (or, for a new line, by the
// pending mark of its create), never trusted to stand where it was read.
import { cellText } from '../lines';

/** What the run believes one of its lines holds in the sheet, and where (physical data row, 0-based). */
export interface ExpectedLine {
  /**
   * Physical data row (row 2 of the sheet is 0); NOT_WRITTEN_YET: appended by this run, not written yet;
   * LOST: could not be found after an earlier move.
   */
  row: number;
  id: string;
  /** The pending-create mark of a new line, or null. */
  marker: string | null;
}

/** The id and mark columns as the sheet holds them now. */
export interface CurrentColumns {
  ids: readonly unknown[];
  markers: readonly (string | null)[];
}

/** Where a line appended by this run stands until it is written: not in the sheet yet. */
export const NOT_WRITTEN_YET = -1;
/** Where a line stands that could not be found after a move: nothing more is written to it in this run. */
export const LOST = -2;

export interface LocatedLines {
  /** Whether anything moved: false means every line stands where the run believes it does. */
  moved: boolean;
  /** Per line (same order as the input): its physical data row now, or LOST. */
  rows: number[];
}

/**
 * Finds each line in the sheet as it is now. When the id and mark columns hold exactly what the run
 * expects, nothing moved. Otherwise a line with an id is where that id now stands (once; an id now on
 * two lines, or gone, cannot be found), a new line is where its pending mark now stands, and any other
 * line cannot be found: its writes wait for the next run. Lines not yet in the sheet go after its
 * last line, in order.
 */
export function locateLines(
  expected: readonly ExpectedLine[],
  sheetRows: number,
  current: CurrentColumns,
): LocatedLines {
  const count = current.ids.length;
  let moved = count !== sheetRows;
  for (let i = 0; i < expected.length && !moved; i++) {
    const line = expected[i] as ExpectedLine;
    if (line.row < 0) continue;
    if (line.row >= count) moved = true;
    else if (cellText(current.ids[line.row]) !== line.id) moved = true;
    else if ((current.markers[line.row] ?? null) !== line.marker) moved = true;
  }
  const rows: number[] = new Array(expected.length);
  let next = count;
  if (!moved) {
    for (let i = 0; i < expected.length; i++) {
      const row = (expected[i] as ExpectedLine).row;
      rows[i] = row === NOT_WRITTEN_YET ? next++ : row;
    }
    return { moved, rows };
  }
  const rowById = new Map<string, number>();
  const rowByMarker = new Map<string, number>();
  const AMBIGUOUS = -2;
  for (let row = 0; row < count; row++) {
    const id = cellText(current.ids[row]);
    if (id !== '') rowById.set(id, rowById.has(id) ? AMBIGUOUS : row);
    const marker = current.markers[row] ?? null;
    if (marker !== null) rowByMarker.set(marker, rowByMarker.has(marker) ? AMBIGUOUS : row);
  }
  for (let i = 0; i < expected.length; i++) {
    const line = expected[i] as ExpectedLine;
    let row = LOST;
    if (line.row === NOT_WRITTEN_YET) row = next++;
    else if (line.row === LOST) row = LOST;
    else if (line.id !== '') row = rowById.get(line.id) ?? LOST;
    else if (line.marker !== null) row = rowByMarker.get(line.marker) ?? LOST;
    rows[i] = row < 0 ? LOST : row;
  }
  return { moved, rows };
}
