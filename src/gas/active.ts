// This execution's spreadsheet and the sheets found by id. Every Spreadsheet call costs time, so each
// is asked for once; Apps Script starts every execution afresh, so nothing here outlives one.

import { execution } from './execution';

/** The active spreadsheet, asked for once per execution. */
export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  if (!execution.spreadsheet) execution.spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return execution.spreadsheet;
}

/** The spreadsheet a trigger's event names (its `source`): asking for it again would wait. */
export function rememberSpreadsheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  execution.spreadsheet = spreadsheet;
}

/** The sheet active when the execution started, asked for once (only the script changes it). */
export function activeSheet(): GoogleAppsScript.Spreadsheet.Sheet {
  if (!execution.activeSheet) execution.activeSheet = activeSpreadsheet().getActiveSheet();
  return execution.activeSheet;
}

/** Records the sheet the script made active (setActiveSheet). */
export function rememberActiveSheet(sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  execution.activeSheet = sheet;
}

/** The id of the active sheet; the sheet is remembered, so finding it by id again costs nothing. */
export function activeSheetId(): number {
  const sheet = activeSheet();
  const id = sheet.getSheetId();
  execution.sheetsById.set(id, sheet);
  return id;
}

/** A sheet this execution already found by id (sheet ids never change). */
export function knownSheet(sheetId: number): GoogleAppsScript.Spreadsheet.Sheet | undefined {
  return execution.sheetsById.get(sheetId);
}

export function rememberSheet(sheetId: number, sheet: GoogleAppsScript.Spreadsheet.Sheet): void {
  execution.sheetsById.set(sheetId, sheet);
}
