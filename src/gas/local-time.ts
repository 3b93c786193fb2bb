// Times as a person reads them: in the spreadsheet's time zone (File → Settings), not the script's
// zone (the manifest says Etc/UTC) and never as raw ISO text.
import { activeSpreadsheet } from './active';
import { execution } from './execution';

/** The spreadsheet's time zone, asked for once per execution. */
export function spreadsheetZone(): string {
  if (!execution.timeZone) execution.timeZone = activeSpreadsheet().getSpreadsheetTimeZone() || 'Etc/UTC';
  return execution.timeZone;
}

/** "2024-01-05 09:00" in the spreadsheet's zone; null stays null, text that is not a time stays as is. */
export function localTime(at: string | number | Date | null, pattern = 'yyyy-MM-dd HH:mm'): string | null {
  if (at === null || at === '') return null;
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return Utilities.formatDate(date, spreadsheetZone(), pattern);
}
