// Linking a sheet (by its id, not its name) to a table of a table app, and ending the link; the link
// step's list of the person's table apps.
import { SyncError } from '../core/errors';
import { ID_HEADER, LMOD_HEADER, OPTIONAL_FIXED_FIELDS } from '../core/layout';
import { checkTableHint, isUsableId, parseTableAppRef } from '../core/table-app-ref';
import { appListNote } from '../core/table-app-note';
import type {
  LinkInfo,
  LinkInput,
  LinkOptionsInput,
  LinkRefusal,
  TableAppInfo,
  TableAppList,
} from '../shared/types';
import { activeSheetId, activeSpreadsheet, rememberActiveSheet } from './active';
import { forgetBaseSheet } from './base-sheet';
import { clearHeld } from './held';
import { dropEditTriggerIfUnused, liveInfo, setLive } from './live-switch';
import { assertLiveSyncFits } from './quota';
import { localTime } from './local-time';
import { MEMBERS_SHEET } from './members';
import { clientFor, Deadline, requireConnection } from './operation';
import { LOG_SHEET } from './run-log';
import { deleteTriggers } from './schedule-triggers';
import { findSheetById, forgetSheetCount } from './sheets';
import {
  allLinks,
  clearQuotaDay,
  deleteLink,
  type LinkRecord,
  loadJob,
  loadLink,
  loadRetry,
  saveLink,
  updateLink,
} from './stores';
import { createUrlFetchPort } from './url-fetch-port';

/** Base sheets are named this plus the linked sheet's id. */
const BASE_SHEET_PREFIX = '_tas_base_';

/** Accepts an id or a pasted link that contains it (see core/table-app-ref); throws what to paste instead. */
export function extractTableAppId(input: string): string {
  const ref = parseTableAppRef(input);
  if (!ref.ok) throw new SyncError('CONFIG', ref.reason);
  return ref.tableAppId;
}

/**
 * Why a sheet is the add-on's own (the Sync log, the Members sheet, a hidden base sheet) and must
 * not be linked, or null for a sheet of the person's.
 */
export function addOnSheetReason(sheet: GoogleAppsScript.Spreadsheet.Sheet): string | null {
  const name = sheet.getName();
  if (name === LOG_SHEET) return `"${name}" is the add-on's log of runs`;
  if (name === MEMBERS_SHEET) return `"${name}" holds the account members the add-on imports`;
  if (name.startsWith(BASE_SHEET_PREFIX) || sheet.isSheetHidden())
    return `"${name}" is a hidden sheet the add-on keeps for its own records`;
  return null;
}

/** Characters of a search of table apps at most. */
const MAX_SEARCH_CHARS = 100;
/** The list of table apps waits this long at most, retries included: the person is waiting for it. */
const SEARCH_BUDGET_MS = 30_000;

/**
 * The person's table apps whose name contains `query` (any case; empty: all), for the link step; or,
 * where the service does not list table apps (remembered for a day), why not, so the sidebar asks for
 * a pasted link or id instead.
 */
export function listTableApps(input?: { query?: string | null }): TableAppList {
  const connection = requireConnection();
  const raw = input?.query ?? '';
  if (typeof raw !== 'string') throw new SyncError('CONFIG', 'Type part of a table app’s name to search.');
  const query = raw.trim();
  if (query.length > MAX_SEARCH_CHARS) {
    throw new SyncError(
      'CONFIG',
      `Search with at most ${MAX_SEARCH_CHARS} characters of the table app’s name (this search has ${query.length}).`,
    );
  }
  const client = clientFor(connection, createUrlFetchPort(), new Deadline(SEARCH_BUDGET_MS));
  const found = client.searchTableApps(query);
  if (!found.available) return { available: false, query, reason: found.reason };
  // Cut short by the cap or by the time allowed: either way, searching by name finds the rest.
  const more = found.complete
    ? null
    : appListNote({
        shown: found.apps.length,
        query,
        ...(found.rateLimitedMs === undefined ? {} : { rateLimitedMs: found.rateLimitedMs }),
      });
  return {
    available: true,
    query,
    apps: found.apps.map((app) => ({
      id: app.id,
      name: app.name,
      tableCount: app.tables === undefined ? null : app.tables.length,
    })),
    more,
  };
}

export function listTables(input: { tableAppId: string }): TableAppInfo {
  const connection = requireConnection();
  const ref = parseTableAppRef(input?.tableAppId);
  if (!ref.ok) throw new SyncError('CONFIG', ref.reason);
  const appId = ref.tableAppId;
  const app = clientFor(connection, createUrlFetchPort()).tableApp(appId);
  const tables = (app.tables ?? []).map((table) => ({
    id: String(table.id),
    name: String(table.name ?? table.id),
    columnCount: (table.columns ?? []).filter((column) => column.deleted !== true).length,
  }));
  const hint = checkTableHint(ref, tables);
  return {
    id: String(app.id ?? appId),
    name: String(app.name ?? ''),
    understood: hint.understood,
    tableIdHint: hint.tableIdHint,
    tableProblem: hint.problem,
    tables,
  };
}

function toInfo(link: LinkRecord): LinkInfo {
  return {
    sheetId: link.sheetId,
    sheetName: link.sheetName,
    tableAppId: link.tableAppId,
    tableAppName: link.tableAppName,
    tableId: link.tableId,
    tableName: link.tableName,
    fixedFields: link.fixedFields,
    showEmails: link.showEmails === true,
    linkedAt: link.linkedAt,
    lastSyncAt: link.lastSyncAt,
    live: liveInfo(link),
  };
}

export function linkInfo(link: LinkRecord | null): LinkInfo | null {
  if (!link) return null;
  const sheet = findSheetById(activeSpreadsheet(), link.sheetId);
  return {
    ...toInfo(link),
    sheetName: sheet ? sheet.getName() : link.sheetName,
    lastSyncLocal: localTime(link.lastSyncAt),
  };
}

function uniqueSheetName(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, wanted: string): string {
  const clean =
    wanted
      .replace(/[[\]*?:/\\]/g, ' ')
      .trim()
      .slice(0, 90) || 'Table';
  let name = clean;
  for (let n = 2; spreadsheet.getSheetByName(name); n++) name = `${clean} (${n})`;
  return name;
}

/** A sheet holds other data unless it is empty or already linked to this very table. */
function holdsOtherData(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  tableAppId: string,
  tableId: string,
): boolean {
  if (sheet.getLastRow() === 0 && sheet.getLastColumn() === 0) return false;
  const previous = loadLink(sheet.getSheetId());
  return !(previous && previous.tableAppId === tableAppId && previous.tableId === tableId);
}

/**
 * Links the active sheet (or a new one) to a table. A sheet that holds other data is replaced only
 * with `replace`; without it the link is refused, as a LinkRefusal with `askBeforeReplacing`
 * (the sidebar then asks the person), else by a thrown SyncError.
 */
export function linkActiveSheet(input: LinkInput): LinkInfo | LinkRefusal {
  const connection = requireConnection();
  const appId = extractTableAppId(input?.tableAppId);
  const tableId = String(input?.tableId ?? '').trim();
  if (!isUsableId(tableId)) throw new SyncError('CONFIG', 'Choose a table of the table app.');
  const active = activeSpreadsheet().getActiveSheet();
  const ownSheet = input?.newSheet ? null : addOnSheetReason(active);
  if (ownSheet) {
    throw new SyncError(
      'SHEET',
      `${ownSheet}; linking it would mix table rows into it. Choose "A new sheet", or go to one of your sheets first.`,
    );
  }
  const app = clientFor(connection, createUrlFetchPort()).tableApp(appId);
  const table = (app.tables ?? []).find((each) => String(each.id) === tableId);
  if (!table)
    throw new SyncError(
      'NOT_FOUND',
      `Table app ${app.name ?? appId} has no table ${tableId}: choose one of its tables.`,
    );
  const spreadsheet = activeSpreadsheet();
  let sheet = spreadsheet.getActiveSheet();
  if (input.newSheet) {
    sheet = spreadsheet.insertSheet(uniqueSheetName(spreadsheet, String(table.name ?? tableId)));
    forgetSheetCount();
  } else if (holdsOtherData(sheet, appId, tableId)) {
    if (!input.replace) {
      const message = `Sheet "${sheet.getName()}" already holds data. Choose "a new sheet", or confirm replacing this sheet's contents.`;
      if (input.askBeforeReplacing === true) return { linked: false, code: 'SHEET_HOLDS_DATA', message };
      throw new SyncError('SHEET', message);
    }
    sheet.clear();
  }
  const sheetId = sheet.getSheetId();
  const previous = loadLink(sheetId);
  if (previous && (previous.tableAppId !== appId || previous.tableId !== tableId)) endLink(previous);
  const link: LinkRecord =
    previous && previous.tableAppId === appId && previous.tableId === tableId
      ? previous
      : {
          sheetId,
          sheetName: sheet.getName(),
          tableAppId: appId,
          tableAppName: String(app.name ?? appId),
          tableId,
          tableName: String(table.name ?? tableId),
          fixedFields: [ID_HEADER, LMOD_HEADER],
          linkedAt: new Date().toISOString(),
          lastSyncAt: null,
          baseSheetName: `${BASE_SHEET_PREFIX}${sheetId}`,
          deletedColumnIds: [],
          // The service profile's e-mail: Session's e-mail needs a scope the manifest does not ask for.
          owner: connection.info.email || null,
          schedule: null,
        };
  saveLink(link);
  spreadsheet.setActiveSheet(sheet);
  rememberActiveSheet(sheet);
  return toInfo(link);
}

/**
 * Link settings of the active sheet: which optional fixed fields show (id and lMod always do) and
 * whether createdBy / lModBy show as e-mails. They take effect on the next pull.
 */
export function setLinkOptions(input: LinkOptionsInput): LinkInfo {
  // Link options change what the schedule's owner sends and shows: only a connected person may.
  requireConnection();
  if (input?.live !== undefined && typeof input.live !== 'boolean') {
    throw new SyncError('CONFIG', 'Turn "Send edits as I type" on or off (true or false).');
  }
  const chosen = Array.isArray(input?.fixedFields)
    ? input.fixedFields.filter((field) => (OPTIONAL_FIXED_FIELDS as readonly string[]).includes(field))
    : null;
  // Only the options are this call's: a run saving its own fields meanwhile keeps them.
  const link = updateLink(activeSheetId(), (stored) => {
    if (chosen) stored.fixedFields = [ID_HEADER, LMOD_HEADER, ...chosen];
    if (typeof input?.showEmails === 'boolean') stored.showEmails = input.showEmails;
    // Every line shows the options from the next pull: a whole listing, not only the rows changed.
    delete stored.fullListingAt;
  });
  if (!link) throw new SyncError('CONFIG', 'This sheet is not linked to a table yet: link it first.');
  if (typeof input?.live === 'boolean') {
    // Planned, not discovered: live sync that would run out of a daily quota is refused.
    if (input.live) assertLiveSyncFits(link);
    const saved = setLive(link.sheetId, input.live);
    if (saved) return toInfo(saved);
  }
  return toInfo(link);
}

/**
 * Ends a link: every trigger of it the caller owns (the schedule's, a continuation's, a displaced
 * job's, a retry's), its hidden base sheet and its stored records. The sheet's data stays.
 */
export function endLink(link: LinkRecord): void {
  const job = loadJob(link.sheetId);
  deleteTriggers([
    link.schedule?.triggerId,
    job?.triggerId,
    job?.displaced?.triggerId,
    loadRetry(link.sheetId)?.triggerId,
  ]);
  // Found by name, not by what this execution knows: another one may have deleted or made it.
  forgetBaseSheet(link);
  const spreadsheet = activeSpreadsheet();
  const base = spreadsheet.getSheetByName(link.baseSheetName);
  if (base) {
    spreadsheet.deleteSheet(base);
    forgetSheetCount();
  }
  deleteLink(link.sheetId);
  clearHeld(link.sheetId);
  // The Sync log's day of quota use belongs to the spreadsheet's links: it goes with the last one.
  if (allLinks().length === 0) clearQuotaDay();
  // The caller's edit trigger goes with their last live link; another sender's deletes itself when it fires.
  if (link.live?.length) dropEditTriggerIfUnused();
}

/** Ends the active sheet's link: its base, job and schedule trigger go; the sheet's data stays. */
export function unlinkActiveSheet(): { unlinked: boolean } {
  const sheet = activeSpreadsheet().getActiveSheet();
  const link = loadLink(sheet.getSheetId());
  if (!link) return { unlinked: false };
  endLink(link);
  return { unlinked: true };
}
