// How edited cells are read for sending: dates typed into cells are written in the spreadsheet's zone.
import type { DecodeContext } from '../core/codec';
import { spreadsheetZone } from './local-time';

/**
 * A DecodeContext that formats a cell's Date the way a person typed it (spreadsheet time zone). The
 * zone is asked (a waiting call) only when a Date is first formatted: most runs read none.
 */
export function spreadsheetDecodeContext(): DecodeContext {
  return {
    formatDate(date) {
      const timeZone = spreadsheetZone();
      const value = new Date(date.getTime());
      const hasTime = Utilities.formatDate(value, timeZone, 'HH:mm:ss') !== '00:00:00';
      return Utilities.formatDate(value, timeZone, hasTime ? "yyyy-MM-dd'T'HH:mm:ss" : 'yyyy-MM-dd');
    },
  };
}
