// The words of deleting rows that the menu's dialogs and the sidebar's review share: a few titles
// named, and the confirmation of a delete. Pure text, no sync state.
import type { MissingRow, MissingRowsReview } from '../../../shared/types';

/** Titles a confirmation names at most ("and 297 more"). */
export const TITLES_NAMED = 3;

/** "“Acme deal”, “Globex renewal”, “row r7” and 297 more". */
export function namedTitles(rows: ReadonlyArray<Pick<MissingRow, 'title'>>, total = rows.length): string {
  const named = rows.slice(0, TITLES_NAMED).map((row) => `“${row.title}”`);
  const more = total - named.length;
  if (more > 0) return `${named.join(', ')} and ${more} more`;
  if (named.length <= 1) return named.join('');
  return `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/** The confirmation of a delete: how many rows, a few titles, and what changed on the service. */
export function deleteConfirmation(review: Pick<MissingRowsReview, 'rows'>): string {
  const count = review.rows.length;
  const changed = review.rows.filter((row) => row.state === 'changed');
  const lines = [
    `Delete ${count === 1 ? '1 row' : `${count} rows`} on the service: ${namedTitles(review.rows)}?`,
    `Everyone who uses the table loses ${count === 1 ? 'it' : 'them'}; this cannot be undone from the sheet.`,
  ];
  for (const row of changed.slice(0, TITLES_NAMED)) {
    const what = row.changes.map((change) => `${change.columnId} is now ${change.value}`).join(', ');
    lines.push(`“${row.title}” changed on the service since your last sync${what ? `: ${what}` : ''}.`);
  }
  if (changed.length > TITLES_NAMED) lines.push(`${changed.length - TITLES_NAMED} more changed too.`);
  return lines.join('\n');
}

/** Under a confirmation that lists only some of the held rows: the others, which stay held. */
export function othersStayHeld(others: number): string {
  return others === 1 ? 'The other row stays held.' : `The other ${others} rows stay held.`;
}
