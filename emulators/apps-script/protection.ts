// Protection (apps-script-facts.md §14; reference: Range#protect, Sheet#getProtections, Protection):
// range and sheet protections, warning-only ones that let every editor edit after a confirmation,
// and the warnings a person was shown. Editors are not modelled: the current user can always edit.
import { columnToLetters } from './a1';
import { GasObject } from './realm';
import type { RangeImpl, SheetImpl, SpreadsheetImpl } from './spreadsheet';

export class ProtectionImpl extends GasObject {
  protected readonly _gasType = 'Protection';
  override readonly _family = 'sheet' as const;
  private _description = '';
  private _warningOnly = false;
  constructor(
    readonly _sheet: SheetImpl,
    readonly _type: 'SHEET' | 'RANGE',
    private readonly _range: RangeImpl,
  ) {
    super();
  }
  getProtectionType(): string {
    return this._type;
  }
  getRange(): RangeImpl {
    return this._range;
  }
  getDescription(): string {
    return this._description;
  }
  setDescription(description: string): ProtectionImpl {
    this._description = String(description);
    return this;
  }
  isWarningOnly(): boolean {
    return this._warningOnly;
  }
  /**
   * Warning-only: every editor may edit after confirming a warning. A script's writes into the range
   * pass without one (UNCONFIRMED, §14: the documented reading, "every user can edit data in the
   * area", which is also the one the add-on must live with: it cannot be asked to confirm).
   */
  setWarningOnly(warningOnly: boolean): ProtectionImpl {
    this._warningOnly = Boolean(warningOnly);
    return this;
  }
  canEdit(): boolean {
    return true;
  }
  addEditor(): ProtectionImpl {
    return this;
  }
  removeEditors(): ProtectionImpl {
    return this;
  }
  getEditors(): unknown[] {
    return [];
  }
  setDomainEdit(): ProtectionImpl {
    return this;
  }
  remove(): void {
    const i = this._sheet._protections.indexOf(this);
    if (i >= 0) this._sheet._protections.splice(i, 1);
  }
  /** Whether the protected range overlaps the block (rows and columns 1-based). */
  _covers(row: number, col: number, rows: number, cols: number): boolean {
    const r = this._range;
    return (
      r._row <= row + rows - 1 &&
      row <= r._row + r._numRows - 1 &&
      r._col <= col + cols - 1 &&
      col <= r._col + r._numCols - 1
    );
  }
}

/** A warning Sheets showed a person before an edit of a warning-only range (they went on). */
export interface ProtectionWarning {
  sheet: string;
  /** The edited block. */
  a1: string;
  /** The protection's description ('' when it has none). */
  description: string;
  /** Whose hands (the person's editor e-mail). */
  editor: string;
  at: number;
}

const warnings = new WeakMap<SpreadsheetImpl, ProtectionWarning[]>();

/** The warnings shown to people so far, oldest first (the test API's record). */
export function protectionWarnings(ss: SpreadsheetImpl): ProtectionWarning[] {
  return [...(warnings.get(ss) ?? [])];
}

/**
 * A person edits a block: each warning-only protection over it shows its warning, which the person
 * confirms (the edit goes through), once per protection and edit. Called by the person's actions.
 */
export function warnPersonEdit(
  sheet: SheetImpl,
  row: number,
  col: number,
  rows: number,
  cols: number,
  editor: string,
): void {
  const list = warnings.get(sheet._ss) ?? [];
  warnings.set(sheet._ss, list);
  const a1 = `${columnToLetters(col)}${row}${rows * cols > 1 ? `:${columnToLetters(col + cols - 1)}${row + rows - 1}` : ''}`;
  for (const p of sheet._protections) {
    if (!p.isWarningOnly() || !p._covers(row, col, rows, cols)) continue;
    list.push({
      sheet: sheet._name,
      a1,
      description: p.getDescription(),
      editor,
      at: sheet._ss._rt.clock.now(),
    });
  }
}

/** Spreadsheet#getProtections: every sheet's protections of the type, in tab order. */
export class SpreadsheetProtections {
  getProtections(this: SpreadsheetImpl, type: string): ProtectionImpl[] {
    return this._sheets.flatMap((sheet) => sheet.getProtections(type));
  }
}

declare module './spreadsheet' {
  interface SpreadsheetImpl extends SpreadsheetProtections {}
}
