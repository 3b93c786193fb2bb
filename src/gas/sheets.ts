// Finds the add-on's sheets in the active spreadsheet and inserts new ones quietly, keeping the
// execution's sheet count (execution.ts) up to date.
import { SyncError } from '../core/errors';
import { activeSheet, activeSpreadsheet, knownSheet, rememberSheet } from './active';
import { execution } from './execution';
import type { LinkRecord } from './stores';
import { waitsSoFar } from './url-fetch-port';

/**
 * Looks the sheet up among the spreadsheet's sheets (always asked: a deleted sheet is found missing)
 * and remembers it, so the run that follows finds it again without asking (requireLinkedSheet).
 */
export function findSheetById(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, sheetId: number) {
  const sheet = spreadsheet.getSheets().find((each) => each.getSheetId() === sheetId) ?? null;
  if (sheet) rememberSheet(sheetId, sheet);
  return sheet;
}

export function requireLinkedSheet(link: LinkRecord): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = knownSheet(link.sheetId) ?? findSheetById(activeSpreadsheet(), link.sheetId);
  if (!sheet) {
    throw new SyncError(
      'SHEET',
      `The sheet linked to table ${link.tableName} was deleted. Link another sheet from the sidebar.`,
    );
  }
  rememberSheet(link.sheetId, sheet);
  return sheet;
}

/** Forgets the sheet count (a sheet was inserted or deleted elsewhere). */
export function forgetSheetCount(): void {
  execution.sheetCount = null;
}

/**
 * Inserts a sheet last without leaving it active (insertSheet activates the new sheet). The count of
 * sheets is asked once; with no wait since (nobody can have deleted one), an insertion reuses it.
 */
export function insertSheetQuietly(name: string): GoogleAppsScript.Spreadsheet.Sheet {
  const spreadsheet = activeSpreadsheet();
  const active = activeSheet();
  const waits = waitsSoFar();
  const count =
    execution.sheetCount && execution.sheetCount.atWait === waits
      ? execution.sheetCount.count
      : spreadsheet.getSheets().length;
  const sheet = spreadsheet.insertSheet(name, count);
  execution.sheetCount = { count: count + 1, atWait: waits };
  if (active) spreadsheet.setActiveSheet(active);
  return sheet;
}

/**
 * Inserts a hidden sheet without leaving it active. Its place among the tabs shows nowhere, so the
 * sheet count is not asked (a waiting call): Sheets puts it where it puts a new sheet by default.
 */
export function insertHiddenSheet(name: string): GoogleAppsScript.Spreadsheet.Sheet {
  const spreadsheet = activeSpreadsheet();
  const active = activeSheet();
  const waits = waitsSoFar();
  const sheet = spreadsheet.insertSheet(name);
  execution.sheetCount =
    execution.sheetCount && execution.sheetCount.atWait === waits
      ? { count: execution.sheetCount.count + 1, atWait: waits }
      : null;
  if (active) spreadsheet.setActiveSheet(active);
  sheet.hideSheet();
  return sheet;
}
