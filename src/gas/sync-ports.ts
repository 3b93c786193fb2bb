// The ports of a pull, push or resolve (core/sync/ports.ts) over Apps Script: the linked sheet over
// SpreadsheetApp, its base over the hidden base sheet, the service over UrlFetchApp, the run's clock,
// budget and progress, and the link over document properties.

import type { LinkRecord } from '../core/records';
import { basePortOver } from '../core/sync/base-sheet';
import { linkedSheetOver } from '../core/sync/linked-sheet';
import type { OperationPorts } from '../core/sync/operation/run-operation';
import type { LinkedSheetPort, RunPort, SheetShape, SyncPorts } from '../core/sync/ports';
import { activeSpreadsheet } from './active';
import { baseCellsOf } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { execution } from './execution';
import { gridSizeOf } from './grid-size';
import { restoreNumberFormats } from './number-formats';
import { type OperationContext, reportProgress } from './operation';
import { CONTINUE_AFTER_MS, createContinuationTrigger, deleteTriggerById } from './schedule-triggers';
import { sheetCellsOf } from './sheet-cells';
import { requireLinkedSheet } from './sheets';
import { clearJob, connectedEmail, loadJob, saveJob, updateLink } from './stores';
import { waitsSoFar } from './url-fetch-port';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The ports of one operation on one link, for the core's runPull, runPush and runResolve. */
export function syncPortsOf(context: OperationContext, link: LinkRecord): SyncPorts {
  return {
    openSheet: () => linkedSheetPort(requireLinkedSheet(link), link),
    base: basePortOver(baseCellsOf(link)),
    service: context.client,
    run: runPortOf(context),
    links: { update: (change) => updateLink(link.sheetId, change) },
  };
}

/** The ports of an operation (pull, push, sync) on one link: the sync ports, its job and continuations. */
export function operationPortsOf(context: OperationContext, link: LinkRecord): OperationPorts {
  return {
    ...syncPortsOf(context, link),
    jobs: {
      load: () => loadJob(link.sheetId),
      save: (job) => saveJob(link.sheetId, job),
      clear: () => clearJob(link.sheetId),
    },
    continuations: {
      create: (delayMs) => createContinuationTrigger(delayMs ?? CONTINUE_AFTER_MS),
      delete: deleteTriggerById,
    },
    ownerEmail: connectedEmail,
  };
}

/** The linked sheet: the core's rules over its cells, which re-identify lines before writing. */
function linkedSheetPort(sheet: Sheet, link: LinkRecord): LinkedSheetPort {
  return linkedSheetOver(sheetCellsOf(sheet), {
    restoreNumberFormats: (grid, layout, live) => {
      restoreNumberFormats(sheet, grid, layout, live);
    },
    workbookShapes: () => sheetShapes(sheet, link),
    commitWrites: () => SpreadsheetApp.flush(),
    decodeContext: spreadsheetDecodeContext,
  });
}

/**
 * The spreadsheet's sheets as the footprint needs them (a few waiting calls a sheet, asked once near
 * the cell limit): the linked and base sheets' blank rows and columns past the content as last read.
 */
function sheetShapes(sheet: Sheet, link: LinkRecord): SheetShape[] {
  const linkedId = sheet.getSheetId();
  const shapes: SheetShape[] = [];
  for (const each of activeSpreadsheet().getSheets()) {
    const columns = each.getMaxColumns();
    const rows = each.getMaxRows();
    const linked = each.getSheetId() === linkedId;
    if (linked || each.getName() === link.baseSheetName) {
      const content = gridSizeOf(linked ? sheet : (execution.baseSheets.get(link.baseSheetName) ?? each));
      shapes.push({
        role: linked ? 'linked' : 'base',
        columns,
        rows: 0,
        blankRows: Math.max(0, rows - content.rowsAtLeast),
        blankColumns: Math.max(0, columns - content.columnsAtLeast),
      });
    } else shapes.push({ role: 'other', columns, rows });
  }
  return shapes;
}

function runPortOf(context: OperationContext): RunPort {
  return {
    userId: context.connection.info.userId,
    now: () => Date.now(),
    timeLeft: () => context.deadline.left(),
    waitsSoFar,
    lastServiceTime: () => context.counter.lastServiceTime ?? '',
    uniqueId: () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`,
    progress: () => context.progress,
    report: (change) => reportProgress(context, change),
  };
}
