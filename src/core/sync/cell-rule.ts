// The three-way rule for one cell: the base (what the sheet and the service last agreed), the sheet's
// cell and the service's value decide what the cell becomes. Pulls apply it per row (mergeCells).
import { cellDigest } from '../codec';
import type { Digest } from '../digest';

const EMPTY_DIGEST = cellDigest('');
const NO_FACTS: CellFacts = Object.freeze({});

/** The sheet's side of a cell when the row is new to the sheet: there is no cell yet. */
export const NEW_LINE = -1;
/** The sheet's side of a cell when the sheet has no (single) header for the column: nothing is read or written there. */
export const COLUMN_ABSENT = -2;

/**
 * The sheet's side of one cell: the digest of what it holds, or NEW_LINE, or COLUMN_ABSENT (digests are
 * never negative, so all three are one number type).
 */
export type LocalCell = Digest | typeof NEW_LINE | typeof COLUMN_ABSENT;

/** Two facts about a cell besides its three sides. */
export interface CellFacts {
  /** The service's value is longer than a cell holds: the cell shows its marked start, read-only. */
  serviceCut?: boolean;
  /** A fresh column: this pull put (back) the column into the sheet, so its empty cells are not edits. */
  freshColumn?: boolean;
}

/**
 * What one cell becomes:
 * - 'add': the row is new to the sheet; the cell takes the service's value.
 * - 'same': both sides hold the same value; it is agreed, nothing is written.
 * - 'take-service': changed on the service only (or an empty cell with nothing agreed yet): the cell
 *   takes the service's value.
 * - 'keep-local': changed in the sheet only: the local edit stays (unpushed work is never thrown
 *   away), and the agreed value stays as it was.
 * - 'conflict': changed on both sides to different values (or a filled cell with nothing agreed yet):
 *   the local value stays, the agreed value stays, and the service's is kept for the person to decide.
 * - 'restore-cut': the service's value is longer than a cell holds and the cell was edited: the shown
 *   start is read-only, so it is put back.
 * - 'fill' / 'fill-empty': the column is fresh (this pull (re-)added it) and the cell is empty or holds
 *   the agreed value (an earlier, killed run wrote it): it takes the service's value, which is not
 *   empty / empty.
 *   A cell the person typed into there is their edit and follows the rule above (chaos seed 20240220),
 *   also where nothing is agreed yet: a value typed while the header was missing was never sent
 *   (chaos seed 20240128), so it stays beside the service's as a conflict.
 * - 'absent': the sheet lacks the column: nothing is read or written and the agreed value stays.
 * - 'absent-changed': the same, but the service changed the value since it was agreed: the row stays
 *   unsettled, so a later push of this column is checked against the service (never a blind overwrite).
 */
export type CellOutcome =
  | 'add'
  | 'same'
  | 'take-service'
  | 'keep-local'
  | 'conflict'
  | 'restore-cut'
  | 'fill'
  | 'fill-empty'
  | 'absent'
  | 'absent-changed';

/**
 * The three-way rule for one cell (see CellOutcome for what each outcome means). `local`: the sheet's
 * side; `base`: what the sheet and the service last agreed the cell holds, undefined when nothing yet
 * (a new column, a line the base does not know, or a line new to the sheet); `service`: the digest of
 * the cell the service's value becomes. Pure.
 */
export function mergeCell(
  local: LocalCell,
  base: Digest | undefined,
  service: Digest,
  facts: CellFacts = NO_FACTS,
): CellOutcome {
  if (local === COLUMN_ABSENT) return base !== undefined && service !== base ? 'absent-changed' : 'absent';
  if (local === NEW_LINE) return 'add';
  if (facts.freshColumn === true && (local === EMPTY_DIGEST || local === base)) {
    return service === EMPTY_DIGEST ? 'fill-empty' : 'fill';
  }
  if (local === service) return 'same';
  if (facts.serviceCut === true) return 'restore-cut';
  if (base === undefined) return local === EMPTY_DIGEST ? 'take-service' : 'conflict';
  if (local === base) return 'take-service';
  if (service === base) return 'keep-local';
  return 'conflict';
}

// The four combinations of a cell's facts, shared: a merge passes one per cell and allocates none.
const FACTS: readonly CellFacts[] = [
  NO_FACTS,
  Object.freeze({ serviceCut: true }),
  Object.freeze({ freshColumn: true }),
  Object.freeze({ serviceCut: true, freshColumn: true }),
];

export function factsOf(serviceCut: boolean, freshColumn: boolean): CellFacts {
  return FACTS[(serviceCut ? 1 : 0) + (freshColumn ? 2 : 0)] as CellFacts;
}
