// OAuth scopes per service member, as Google's reference lists them, and the manifest check that
// throws Google's error when a script calls a member whose scope its appsscript.json does not name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GasError } from './realm';

const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
const EXTERNAL_REQUEST = 'https://www.googleapis.com/auth/script.external_request';
const CONTAINER_UI = 'https://www.googleapis.com/auth/script.container.ui';
const SCRIPT_APP = 'https://www.googleapis.com/auth/script.scriptapp';
const SEND_MAIL = 'https://www.googleapis.com/auth/script.send_mail';
const USER_EMAIL = 'https://www.googleapis.com/auth/userinfo.email';

/** Either of these satisfies a spreadsheet member (reference: "one or more of the following scopes"). */
const SHEET_SCOPES = [CURRENT_ONLY, SPREADSHEETS] as const;

/**
 * Classes whose every method needs one of the listed scopes, from the "Authorization" section of each
 * method in developers.google.com/apps-script/reference (see README "Scopes").
 */
const CLASS_SCOPES: Record<string, readonly string[]> = {
  SpreadsheetApp: SHEET_SCOPES,
  Spreadsheet: SHEET_SCOPES,
  Sheet: SHEET_SCOPES,
  Range: SHEET_SCOPES,
  RangeList: SHEET_SCOPES,
  Protection: SHEET_SCOPES,
  TextFinder: SHEET_SCOPES,
  DataValidation: SHEET_SCOPES,
  DataValidationBuilder: SHEET_SCOPES,
  DeveloperMetadata: SHEET_SCOPES,
  UrlFetchApp: [EXTERNAL_REQUEST],
  MailApp: [SEND_MAIL],
  Trigger: [SCRIPT_APP],
  TriggerBuilder: [SCRIPT_APP],
  ClockTriggerBuilder: [SCRIPT_APP],
  SpreadsheetTriggerBuilder: [SCRIPT_APP],
  User: [USER_EMAIL],
};

/** Single members that differ from their class (or whose class needs no scope otherwise). */
const MEMBER_SCOPES: Record<string, readonly string[]> = {
  // Opening another file is outside "current only".
  'SpreadsheetApp.open': [SPREADSHEETS],
  'SpreadsheetApp.openById': [SPREADSHEETS],
  'SpreadsheetApp.openByUrl': [SPREADSHEETS],
  'SpreadsheetApp.create': [SPREADSHEETS],
  'Session.getActiveUser': [USER_EMAIL],
  'Session.getEffectiveUser': [USER_EMAIL],
  'ScriptApp.newTrigger': [SCRIPT_APP],
  'ScriptApp.getProjectTriggers': [SCRIPT_APP],
  'ScriptApp.getUserTriggers': [SCRIPT_APP],
  'ScriptApp.deleteTrigger': [SCRIPT_APP],
  'Ui.showSidebar': [CONTAINER_UI],
  'Ui.showModalDialog': [CONTAINER_UI],
  'Ui.showModelessDialog': [CONTAINER_UI],
};

/** The scopes Google's reference lists for `Class.member`; empty when it needs none. */
export function scopesFor(className: string, member: string): readonly string[] {
  return MEMBER_SCOPES[`${className}.${member}`] ?? CLASS_SCOPES[className] ?? [];
}

/** Every member → scopes rule, for docs and tests. */
export function scopeTable(): { member: string; scopes: readonly string[] }[] {
  return [
    ...Object.entries(CLASS_SCOPES).map(([name, scopes]) => ({ member: `${name}.*`, scopes })),
    ...Object.entries(MEMBER_SCOPES).map(([member, scopes]) => ({ member, scopes })),
  ];
}

/**
 * The manifest's `oauthScopes`, or null when the manifest names none (Apps Script then detects the
 * scopes from the code, so every call is allowed).
 */
export function readManifestScopes(distDir: string): string[] | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'appsscript.json'), 'utf8'));
    return Array.isArray(manifest.oauthScopes) ? manifest.oauthScopes.map(String) : null;
  } catch {
    return null;
  }
}

/**
 * Throws Google's authorization error if `member` of `className` needs a scope the manifest lacks:
 * "You do not have permission to call X. Required permissions: Y" (apps-script-facts §4, §12).
 */
export function assertScope(granted: readonly string[] | null, className: string, member: string): void {
  if (granted === null) return;
  const needed = scopesFor(className, member);
  if (needed.length === 0 || needed.some((scope) => granted.includes(scope))) return;
  throw new GasError(
    `You do not have permission to call ${className}.${member}. Required permissions: ${needed.join(', ')}`,
  );
}
