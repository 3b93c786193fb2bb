// The playground's Undo follows lines, not cell addresses: a step remembers the lines it changed, and
// puts its cells back where those lines are now, after the add-on (or anyone) inserted or removed
// lines above them. What it cannot place (a line gone, a cell changed since) it refuses to touch.
import type { AppsScriptSimulator, PersonActions } from '../emulators/apps-script/index';
import { columnToLetters } from '../emulators/apps-script/a1';

/** Everything stored for one cell, as the person's hands copy it. */
export type CellRecord = ReturnType<PersonActions['copyCells']>[number][number];

/** Undo's refusals: a sentence the person reads; nothing was changed. */
export class UndoRefused extends Error {}

/** Whether a cell holds no value and no formula (notes and formats aside). */
export function emptyCell(cell: CellRecord): boolean {
  return cell.f === undefined && (cell.v === null || cell.v === '');
}

/** Whether two cells hold the same content (formula, or value: a Date by its time). */
export function sameContent(a: CellRecord, b: CellRecord): boolean {
  if (a.f !== undefined || b.f !== undefined) return a.f === b.f;
  if (emptyCell(a) || emptyCell(b)) return emptyCell(a) && emptyCell(b);
  if (a.v instanceof Date && b.v instanceof Date) return a.v.getTime() === b.v.getTime();
  return a.v === b.v;
}

/** One line's place: `line` is its identity, `row` where it stood when the step was taken. */
export interface TrackedLine {
  line: object;
  row: number;
}

/** The lines of one sheet, followed by identity; every method reads the sheet as it is now. */
export class SheetLines {
  constructor(
    private readonly sim: AppsScriptSimulator,
    readonly sheetId: number,
  ) {}

  /** The sheet's name now; refused when the sheet is gone. */
  name(what: string): string {
    const sheet = this.sim.spreadsheet.getSheetById(this.sheetId);
    if (!sheet)
      throw new UndoRefused(`Undo cannot put back “${what}”: its sheet is gone. Nothing was undone.`);
    return sheet.getName();
  }

  get person(): PersonActions {
    return this.sim.person;
  }

  /** The lines `top`..`top + count - 1`, to be followed. */
  track(top: number, count: number): TrackedLine[] {
    const name = this.name('');
    return Array.from({ length: count }, (_, i) => ({
      line: this.person.lineAt(name, top + i),
      row: top + i,
    }));
  }

  /** Where each line is now; refused when one is gone. */
  rowsNow(lines: readonly TrackedLine[], what: string): number[] {
    const name = this.name(what);
    return lines.map((each) => {
      const row = this.person.rowOfLine(name, each.line);
      if (row === 0)
        throw new UndoRefused(
          `Undo cannot put back “${what}”: line ${each.row} was deleted since (by the add-on or another editor). Nothing was undone.`,
        );
      return row;
    });
  }

  /** Refused when a cell of these lines no longer holds what the step left there. */
  assertUnchanged(rows: readonly number[], left: number, after: CellRecord[][], what: string): void {
    const name = this.name(what);
    rows.forEach((row, i) => {
      const line = after[i] ?? [];
      const now = this.person.copyCells(name, row, left, 1, line.length)[0] ?? [];
      const changed = line.findIndex((cell, j) => !sameContent(cell, now[j] as CellRecord));
      if (changed >= 0)
        throw new UndoRefused(
          `Undo cannot put back “${what}”: ${columnToLetters(left + changed)}${row} changed since (by the add-on or another editor), and Undo would overwrite it. Nothing was undone.`,
        );
    });
  }

  /** Puts each line's cells back at its row now (lines that still stand together in one block). */
  putBack(rows: readonly number[], left: number, cells: CellRecord[][]): void {
    const name = this.name('');
    let start = 0;
    for (let i = 1; i <= rows.length; i++) {
      if (i < rows.length && rows[i] === (rows[i - 1] as number) + 1) continue;
      this.person.putCells(name, rows[start] as number, left, cells.slice(start, i));
      start = i;
    }
  }
}

/** " (its line is now row 6)" when the first line moved, else "". */
export function movedNote(lines: readonly TrackedLine[], rows: readonly number[]): string {
  const first = lines[0];
  const now = rows[0];
  if (!first || now === undefined || now === first.row) return '';
  return lines.length === 1 ? ` (its line is now row ${now})` : ` (its lines start at row ${now} now)`;
}
