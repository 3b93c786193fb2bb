// This execution's spreadsheet and the sheets found by id. Every Spreadsheet call costs time, so each
// is asked for once; Apps Script starts every execution afresh, so nothing here outlives one.

let spreadsheetOfThisRun: GoogleAppsScript.Spreadsheet.Spreadsheet | null = null;
const sheetsById = new Map<number, GoogleAppsScript.Spreadsheet.Sheet>();

/** The active spreadsheet, asked for once per execution. */
export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  if (!spreadsheetOfThisRun) spreadsheetOfThisRun = SpreadsheetApp.getActiveSpreadsheet();
  return spreadsheetOfThisRun;
}

let activeSheetOfThisRun: GoogleAppsScript.Spreadsheet.Sheet | null = null;

/** The sheet active when the execution started, asked for once (only the script changes it). */
export function activeSheet(): GoogleAppsScript.Spreadsheet.Sheet {
  if (!activeSheetOfThisRun) activeSheetOfThisRun = activeSpreadsheet().getActiveSheet();
  return activeSheetOfThisRun;
}

/** Records the sheet the script made active (setActiveSheet). */
export function rememberActiveSheet(sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  activeSheetOfThisRun = sheet;
}

/** The id of the active sheet; the sheet is remembered, so finding it by id again costs nothing. */
export function activeSheetId(): number {
  const sheet = activeSheet();
  const id = sheet.getSheetId();
  sheetsById.set(id, sheet);
  return id;
}

/** A sheet this execution already found by id (sheet ids never change). */
export function knownSheet(sheetId: number): GoogleAppsScript.Spreadsheet.Sheet | undefined {
  return sheetsById.get(sheetId);
}

export function rememberSheet(sheetId: number, sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  sheetsById.set(sheetId, sheet);
}
