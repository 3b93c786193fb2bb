// The menu, the sidebar, and the state the sidebar shows. Menu actions on a sheet that is not
// linked open the sidebar at the link step instead of failing.
import { isSyncError } from '../core/errors';
import type { SidebarState, SyncSummary } from '../shared/types';
import { resolveConflicts, runActiveSheetFromMenu, toastTitle } from './actions';
import { activeSheetId, activeSpreadsheet } from './active';
import { heldChoice } from './held';
import { keySafety } from './key-safety';
import { addOnSheetReason, linkInfo } from './link';
import { askAboutMissingRows } from './review';
import { scheduleInfo } from './schedule';
import { liveSyncUse } from './quota';
import { scheduleOptions } from './schedule-triggers';
import { loadConnection, loadLink, loadProgress, loadSummary } from './stores';

export const MENU_TITLE = 'Table App Sync';
const SIDEBAR_FILE = 'Sidebar';

interface OpenEvent {
  authMode?: GoogleAppsScript.Script.AuthMode;
}

export function onOpen(event?: OpenEvent): void {
  const ui = SpreadsheetApp.getUi();
  const menu = ui.createAddonMenu();
  menu.addItem('Open sidebar', 'showSidebar');
  if (event?.authMode !== ScriptApp.AuthMode.NONE) {
    menu
      .addSeparator()
      .addItem('Pull', 'menuPull')
      .addItem('Pull everything', 'menuPullEverything')
      .addItem('Push', 'menuPush')
      .addItem('Sync (push, then pull)', 'menuSync')
      .addItem('Resolve conflicts…', 'showSidebar')
      .addItem('Schedule…', 'showSidebar')
      .addItem('Import account members', 'menuImportMembers')
      .addSeparator()
      .addItem('Check this spreadsheet', 'menuSelfCheck');
  }
  menu.addItem('Help', 'menuHelp');
  menu.addToUi();
}

export function onInstall(event?: OpenEvent): void {
  onOpen(event);
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile(SIDEBAR_FILE).setTitle(MENU_TITLE);
  SpreadsheetApp.getUi().showSidebar(html);
}

function activeSheetIsLinked(): boolean {
  return loadLink(activeSheetId()) !== null;
}

function fromMenu(run: () => SyncSummary): void {
  if (!loadConnection() || !activeSheetIsLinked()) {
    showSidebar();
    return;
  }
  try {
    run();
  } catch (error) {
    // Summaries already report failures; this catches what happens before an operation starts.
    const message = isSyncError(error) || error instanceof Error ? error.message : String(error);
    activeSpreadsheet().toast(message, 'Table App Sync: not done', 10);
  }
}

export function menuPull(): void {
  fromMenu(() => runActiveSheetFromMenu('pull'));
}

/** "Pull everything": the whole table listed, rows removed on the service marked. */
export function menuPullEverything(): void {
  fromMenu(() => runActiveSheetFromMenu('pull', { everything: true }));
}

/**
 * After a menu push that held edits as a likely accident: a dialog lists them per column with a few
 * before → after examples and asks; Yes sends them ("Push anyway"), No leaves them unsent and the
 * sidebar keeps the choice.
 */
function askAboutHeld(summary: SyncSummary): void {
  const held = summary.held;
  if (!held) return;
  const ui = SpreadsheetApp.getUi();
  const lines = held.columns.map((column) => {
    const examples = column.examples
      .map((example) => `   row ${example.row}: ${example.before} → ${example.after}`)
      .join('\n');
    return `${column.columnId}: ${column.reason}\n${examples}`;
  });
  const answer = ui.alert(
    'Push anyway?',
    `This push was held because it looks like an accident; nothing of it was sent.\n\n${lines.join('\n\n')}\n\nYes: push anyway. No: decide later — the sidebar keeps the choice (Push anyway, Put the service's values back, or Keep editing).`,
    ui.ButtonSet.YES_NO,
  );
  if (answer === ui.Button.YES) runActiveSheetFromMenu('push', { confirmHeld: held.key });
}

export function menuPush(): void {
  const startedAt = Date.now();
  fromMenu(() => {
    const summary = runActiveSheetFromMenu('push');
    askAboutHeld(summary);
    if (summary.ok) askAboutMissingRows(startedAt);
    return summary;
  });
}

export function menuSync(): void {
  const startedAt = Date.now();
  fromMenu(() => {
    const summary = runActiveSheetFromMenu('sync');
    askAboutHeld(summary);
    if (summary.ok) askAboutMissingRows(startedAt);
    return summary;
  });
}

export function menuResolveTheirs(): void {
  fromMenu(() => {
    const summary = resolveConflicts({ keep: 'theirs' });
    activeSpreadsheet().toast(summary.message, toastTitle(summary), 8);
    return summary;
  });
}

export function menuHelp(): void {
  SpreadsheetApp.getUi().alert(
    'Table App Sync',
    [
      '1. Open the sidebar and connect with the service address and your personal API key (kept in your own user properties).',
      '2. Link a sheet to a table: row 1 holds the column ids; id, lMod and _sync are kept by the add-on.',
      '3. Pull brings rows in; edit cells or add lines; Push sends only what you changed (new lines are created).',
      '4. Conflicts (changed here and on the service) are marked on the line; the sidebar shows both values and who changed it: choose Keep mine or Take theirs, per line or for all.',
      '   A line the service would refuse (say 31/02/2024 in a date column) says why in _sync until you fix it.',
      '5. Schedule keeps the sheet in step; runs are logged in the "Sync log" sheet.',
    ].join('\n'),
    SpreadsheetApp.getUi().ButtonSet.OK,
  );
}

/** Selects a line of the active sheet (the sidebar's issue list calls this). */
export function selectSheetRow(input: { row: number }): { row: number } {
  const row = Math.max(2, Math.floor(Number(input?.row) || 2));
  const sheet = activeSpreadsheet().getActiveSheet();
  sheet.getRange(row, 1, 1, Math.max(1, sheet.getLastColumn())).activate();
  return { row };
}

/** Everything the sidebar shows; never the API key. */
export function getState(): SidebarState {
  const sheet = activeSpreadsheet().getActiveSheet();
  const sheetId = sheet.getSheetId();
  const stored = loadConnection();
  const link = loadLink(sheetId);
  return {
    connection: stored ? stored.info : null,
    sheet: { id: sheetId, name: sheet.getName(), addOnSheet: addOnSheetReason(sheet) },
    link: linkInfo(link),
    lastSummary: link ? loadSummary(sheetId) : null,
    held: link ? heldChoice(sheetId) : null,
    progress: link ? loadProgress(sheetId) : null,
    schedule: scheduleInfo(link),
    scheduleOptions: scheduleOptions(link ? sheetId : null),
    livePlan: link ? liveSyncUse(link) : null,
    keySafety: keySafety(),
    hints: { baseUrl: PropertiesService.getScriptProperties().getProperty('tas.demoBaseUrl') },
  };
}
