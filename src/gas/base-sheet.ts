// The link's hidden base sheet: found or made once per execution; the core reads and writes its cells
// (core/sync/base-sheet.ts). Invariant: only this add-on makes a base sheet, under the document lock,
// so a base found absent stays absent for the rest of the execution.

import { BASE_HEADER_WIDTH } from '../core/base';
import { columnLetters } from '../core/layout';
import type { BaseSheetCells } from '../core/sync/base-sheet';
import { activeSpreadsheet } from './active';
import { execution } from './execution';
import { sheetCellsOf } from './sheet-cells';
import { insertHiddenSheet } from './sheets';
import type { LinkRecord } from './stores';

/** The link's base sheet's cells, for the core's BasePort (core/sync/base-sheet.ts). */
export function baseCellsOf(link: LinkRecord): BaseSheetCells {
  return {
    name: link.baseSheetName,
    synced: () => Boolean(link.lastSyncAt),
    open: (create) => {
      const sheet = baseSheetOf(link, create);
      return sheet && sheetCellsOf(sheet);
    },
  };
}

/**
 * The link's base sheet, made when absent and `create`. A base found absent is not asked for again
 * in the same execution (only this add-on makes it, under the document lock; should a sheet of that
 * hidden name appear meanwhile, inserting it fails loudly and nothing is written).
 */
export function baseSheetOf(link: LinkRecord, create: boolean): GoogleAppsScript.Spreadsheet.Sheet | null {
  const known = execution.baseSheets.get(link.baseSheetName);
  if (known) return known;
  if (execution.absentBaseSheets.has(link.baseSheetName) && !create) return null;
  const spreadsheet = activeSpreadsheet();
  let sheet = execution.absentBaseSheets.has(link.baseSheetName)
    ? null
    : spreadsheet.getSheetByName(link.baseSheetName);
  if (!sheet && create) {
    sheet = insertHiddenSheet(link.baseSheetName);
    // Plain text everywhere: ids, lMods and digests must never be parsed as numbers or dates. Whole
    // columns, so the grid's size need not be asked (rows inserted later get it as they come).
    sheet.getRange(`A:${columnLetters(BASE_HEADER_WIDTH)}`).setNumberFormat('@');
  }
  if (sheet) {
    execution.baseSheets.set(link.baseSheetName, sheet);
    execution.absentBaseSheets.delete(link.baseSheetName);
  } else execution.absentBaseSheets.add(link.baseSheetName);
  return sheet;
}

/** Forgets a base sheet this execution found (it is about to be deleted). */
export function forgetBaseSheet(link: LinkRecord): void {
  execution.baseSheets.delete(link.baseSheetName);
}
