// The Members sheet: account members keyed by user id, updated in place; the person's own columns stay.

import type { LineGrid } from './line-grid';
import { cellText } from './lines';

export const MEMBER_HEADERS = [
  'id',
  'emailId',
  'firstName',
  'lastName',
  'accountId',
  'orgId',
  'activationStatus',
] as const;

/**
 * A member as the core reads it: the Members sheet's fields (the service client's `User` has this
 * shape; the core does not import the client). Values come from the service: read as unknown.
 */
export type Member = { readonly [Field in (typeof MEMBER_HEADERS)[number]]?: unknown };

export interface MemberMerge {
  headers: string[];
  added: number;
  updated: number;
  unchanged: number;
}

/**
 * Merges members into the sheet's lines by user id: known ids are updated in place, new ones are
 * appended; missing headers are appended at the right edge; other columns are never touched.
 */
export function mergeMembers(
  headers: readonly unknown[],
  grid: LineGrid,
  users: readonly Member[],
): MemberMerge {
  const names = headers.map((header) => cellText(header));
  for (const header of MEMBER_HEADERS) if (!names.includes(header)) names.push(header);
  grid.widen(names.length);
  const column = new Map(MEMBER_HEADERS.map((header) => [header, names.indexOf(header)]));
  const idColumn = column.get('id') as number;
  const lineById = new Map<string, number>();
  for (let line = 0; line < grid.length; line++) {
    const id = cellText(grid.get(line, idColumn));
    if (id !== '' && !lineById.has(id)) lineById.set(id, line);
  }
  const result: MemberMerge = { headers: names, added: 0, updated: 0, unchanged: 0 };
  for (const user of users) {
    const id = String(user.id ?? '');
    if (id === '') continue;
    let line = lineById.get(id);
    const isNew = line === undefined;
    if (line === undefined) {
      line = grid.appendLine();
      lineById.set(id, line);
    }
    let changed = false;
    for (const header of MEMBER_HEADERS) {
      const value = user[header];
      const text = value === null || value === undefined ? '' : String(value);
      if (grid.set(line, column.get(header) as number, text)) changed = true;
    }
    if (isNew) result.added += 1;
    else if (changed) result.updated += 1;
    else result.unchanged += 1;
  }
  return result;
}

/** Maps user ids to e-mails for showing createdBy / lModBy; unknown ids stay as they are. */
export function emailLookup(users: readonly Member[]): (id: unknown) => string {
  const emails = new Map<string, string>();
  for (const user of users) if (user.id && user.emailId) emails.set(String(user.id), String(user.emailId));
  return (id) => {
    const text = id === null || id === undefined ? '' : String(id);
    return emails.get(text) ?? text;
  };
}
