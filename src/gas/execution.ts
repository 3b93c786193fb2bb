// What one execution of the add-on remembers about the spreadsheet, in one place. Apps Script starts
// every execution (a menu click, a sidebar call, a trigger firing) with fresh module state, so
// nothing here outlives the execution that learned it; every Spreadsheet call that waits costs
// ~150 ms, so each fact is asked for once. Each entry says why it stays true for the execution.

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * How far a sheet reaches as far as this execution knows without asking its size: the rows and
 * columns its content (read or written) reaches, which the grid has at least, and its row count where
 * a read told it (src/gas/grid-size.ts).
 */
export interface GridSize {
  /** The grid's row count where a read told it without asking (null: unknown, never asked). */
  maxRows: number | null;
  rowsAtLeast: number;
  columnsAtLeast: number;
}

export const execution = {
  /** The active spreadsheet: the same document for the whole execution. */
  spreadsheet: null as GoogleAppsScript.Spreadsheet.Spreadsheet | null,
  /** The sheet active when the execution started; only the script itself changes it (setActiveSheet). */
  activeSheet: null as Sheet | null,
  /** Sheets found by id: sheet ids never change, and a sheet object stays valid while it exists. */
  sheetsById: new Map<number, Sheet>(),
  /**
   * Base sheets found or made, by name, and names asked for and not found. Only this add-on makes a
   * base sheet, under the document lock, so one found absent stays absent for the execution.
   */
  baseSheets: new Map<string, Sheet>(),
  absentBaseSheets: new Set<string>(),
  /** Content extents: noted again by every read that finds them after a wait (people delete rows). */
  gridSizes: new Map<Sheet, GridSize>(),
  /** The spreadsheet's time zone (File › Settings); a change during an execution waits for the next. */
  timeZone: null as string | null,
  /**
   * The sheet count as last asked or changed, and the waits then: with no wait since, nobody can have
   * added or deleted a sheet.
   */
  sheetCount: null as { count: number; atWait: number } | null,
  /**
   * Waits so far (network calls and sleeps), during which people may change the sheet: a sheet read
   * after the last wait is still true.
   */
  waits: 0,
};
