// Account members: the Members sheet, and e-mails for createdBy / lModBy in linked sheets.

import { SyncError } from '../core/errors';
import { adjacentColumnGroups } from '../core/layout';
import { sheetRowOf } from '../core/lines';
import { MEMBER_HEADERS, mergeMembers } from '../core/members';
import { membersMessage } from '../core/summary';
import { readLines } from '../core/sync/read-lines';
import type { MembersSummary } from '../shared/types';
import { activeSpreadsheet } from './active';
import { clientFor, requireConnection } from './operation';
import { sheetCellsOf } from './sheet-cells';
import { insertSheetQuietly } from './sheets';
import { createUrlFetchPort } from './url-fetch-port';

export const MEMBERS_SHEET = 'Members';

/**
 * Writes the account's members (or the one with `emailId`) into the Members sheet, paging with
 * limit 100 until the service says there are no more; re-running updates lines in place by user id.
 */
export function importAccountMembers(input?: { emailId?: string }): MembersSummary {
  const connection = requireConnection();
  const emailId = typeof input?.emailId === 'string' ? input.emailId.trim() : '';
  if (emailId !== '' && !/^[^\s@]+@[^\s@]+$/.test(emailId)) {
    throw new SyncError('CONFIG', `"${emailId}" is not an e-mail address.`);
  }
  const client = clientFor(connection, createUrlFetchPort());
  const users = client.allPeople(emailId ? { emailId } : {});
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getSheetByName(MEMBERS_SHEET) ?? insertSheetQuietly(MEMBERS_SHEET);
  const { headers, grid } = readLines(sheetCellsOf(sheet));
  const merged = mergeMembers(headers, grid, users);
  if (merged.headers.length > headers.length) {
    const added = merged.headers.slice(headers.length);
    sheet
      .getRange(1, headers.length + 1, 1, added.length)
      .setNumberFormat('@')
      .setValues([added])
      .setFontWeight('bold');
    sheet.setFrozenRows(1);
  }
  const dirty = grid.takeDirty();
  if (dirty.length > 0) {
    const first = dirty[0] as number;
    const count = (dirty[dirty.length - 1] as number) - first + 1;
    const maxRows = sheet.getMaxRows();
    if (first + count + 1 > maxRows) sheet.insertRowsAfter(maxRows, first + count + 1 - maxRows);
    const columns = MEMBER_HEADERS.map((header) => merged.headers.indexOf(header)).sort((a, b) => a - b);
    for (const [start, width] of adjacentColumnGroups(columns)) {
      const range = sheet.getRange(sheetRowOf(first), start + 1, count, width);
      range.setNumberFormat('@');
      range.setValues(grid.lines.slice(first, first + count).map((line) => line.slice(start, start + width)));
    }
  }
  const message = membersMessage({
    emailId,
    members: users.length,
    added: merged.added,
    updated: merged.updated,
    unchanged: merged.unchanged,
  });
  spreadsheet.toast(message, 'Table App Sync', 6);
  return {
    sheetName: MEMBERS_SHEET,
    members: users.length,
    added: merged.added,
    updated: merged.updated,
    unchanged: merged.unchanged,
    message,
  };
}

export function menuImportMembers(): void {
  try {
    importAccountMembers();
  } catch (error) {
    activeSpreadsheet().toast(
      error instanceof Error ? error.message : String(error),
      'Table App Sync: not done',
      10,
    );
  }
}
