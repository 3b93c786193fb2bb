// The review of deleted lines: rows whose lines were deleted from the sheet (held: delete them on the
// service after a confirmation naming how many and which, or bring them back), and lines of rows
// removed on the service (remove them after a confirmation naming the own columns that go with them).
import { deleteConfirmation, othersStayHeld } from '../core/sync/delete/wording';
import type {
  DeleteRowsInput,
  DeleteRowsResult,
  MissingRow,
  MissingRowsReview,
  RemovedLinesReview,
  SyncSummary,
} from '../shared/types';
import type { Sidebar } from './context';
import { byId, el, show } from './dom';
import { guarded, say, step } from './feedback';
import { run } from './server';

/** Rows listed in the panel at most (the message gives the whole count). */
const LISTED = 20;

function rowText(row: MissingRow): string {
  if (row.state === 'gone') return `${row.title}: no longer on the service`;
  if (row.state === 'unchanged') return row.title;
  const what = row.changes.map((change) => `${change.columnId} is now ${change.value}`).join(', ');
  return `${row.title}: changed on the service since your last sync${what ? ` (${what})` : ''}`;
}

function buttonOf(id: string, text: string, className = ''): HTMLButtonElement {
  const button = el('button', { id, type: 'button' }, text);
  if (className) button.className = className;
  return button;
}

function rowsWord(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

function linesWord(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}

/**
 * Reads and shows what waits for review after a run (or on load): the rows whose lines were deleted
 * from the sheet (always looked at: only a sheet with missing lines costs a request), and the lines
 * of rows removed on the service when the run found some.
 */
export async function showReviews(sidebar: Sidebar, summary: SyncSummary | null): Promise<void> {
  const missing = await run('getMissingRowsReview');
  renderMissingRows(sidebar, missing);
  const removed =
    summary !== null &&
    (summary.removedOnService > 0 || summary.issues.some((issue) => issue.kind === 'removed'));
  renderRemovedLines(sidebar, removed ? await run('getRemovedLinesReview') : null);
}

/** The rows whose lines were deleted from the sheet, with Delete on the service… and Bring them back. */
export function renderMissingRows(sidebar: Sidebar, review: MissingRowsReview): void {
  const box = byId('missing-box');
  box.replaceChildren();
  if (review.count === 0) {
    show(box, false);
    return;
  }
  box.append(el('h3', { id: 'missing-title' }, 'Lines deleted from this sheet'), el('p', {}, review.message));
  const list = el('ul', { class: 'review-rows', id: 'missing-rows' });
  for (const row of review.rows.slice(0, LISTED)) {
    // Each row may be kept on its own (a line deleted by mistake among others meant to go).
    const item = el('li', { class: `row-${row.state}` });
    const one = el(
      'button',
      { type: 'button', class: 'inline', 'aria-label': `Bring back ${row.title}` },
      'Bring back',
    );
    one.addEventListener(
      'click',
      guarded(() => bringBack(sidebar, [row.rowId])),
    );
    item.append(el('span', { class: 'row-text' }, rowText(row)), document.createTextNode(' '), one);
    list.append(item);
  }
  if (review.count > LISTED) list.append(el('li', { class: 'hint' }, `…and ${review.count - LISTED} more.`));
  box.append(list);
  const buttons = el('p', { class: 'buttons' });
  const rowIds = review.rows.map((row) => row.rowId);
  const back = buttonOf('missing-bring-back', 'Bring them back');
  back.addEventListener(
    'click',
    guarded(() => bringBack(sidebar, rowIds)),
  );
  if (review.deleteSupported) {
    const remove = buttonOf('missing-delete', 'Delete on the service…', 'danger');
    remove.addEventListener('click', () => confirmDelete(sidebar, review));
    buttons.append(remove);
  }
  buttons.append(back);
  box.append(buttons, el('div', { id: 'missing-confirm', class: 'confirm', role: 'alertdialog' }));
  show(byId('missing-confirm'), false);
  show(box, true);
}

/** The confirmation: how many rows, a few titles, what changed on the service; then Delete or Cancel. */
function confirmDelete(sidebar: Sidebar, review: MissingRowsReview): void {
  const confirm = byId('missing-confirm');
  confirm.replaceChildren();
  for (const line of deleteConfirmation(review).split('\n')) confirm.append(el('p', {}, line));
  if (review.count > review.rows.length) {
    confirm.append(el('p', { class: 'hint' }, othersStayHeld(review.count - review.rows.length)));
  }
  const yes = buttonOf('missing-delete-confirm', `Delete ${rowsWord(review.rows.length)}`, 'danger');
  const no = buttonOf('missing-delete-cancel', 'Cancel');
  const approval: DeleteRowsInput = { rows: review.rows.map(({ rowId, lMod }) => ({ rowId, lMod })) };
  yes.addEventListener(
    'click',
    guarded(() => deleteApproved(sidebar, approval)),
  );
  no.addEventListener('click', () => {
    show(confirm, false);
    say('Nothing was deleted: the rows stay held for review.');
  });
  const buttons = el('p', { class: 'buttons' });
  buttons.append(yes, no);
  confirm.append(buttons);
  show(confirm, true);
  yes.focus();
}

/**
 * Deletes exactly the approved rows. An execution that ran out of time returns what it did not send:
 * the same approval goes on in the next call (a new execution), as long as each call gets somewhere.
 */
async function deleteApproved(sidebar: Sidebar, approval: DeleteRowsInput): Promise<void> {
  let result: DeleteRowsResult | undefined;
  let pending = approval;
  let calls = 0;
  let deleted = 0;
  let alreadyGone = 0;
  do {
    const sent = pending.rows.length;
    result = await step(`Deleting ${rowsWord(sent)} on the service…`, 'Deleting did not finish', () =>
      run('deleteMissingRows', pending),
    );
    if (!result) return;
    calls += 1;
    deleted += result.deleted;
    alreadyGone += result.alreadyGone;
    pending = { rows: result.remaining };
    // A call that sent nothing (the service failing) is not repeated: the rows stay held.
    if (result.remaining.length === sent) break;
  } while (pending.rows.length > 0);
  const message =
    calls > 1
      ? `${result.message} In all: ${rowsWord(deleted)} deleted${alreadyGone ? `, ${rowsWord(alreadyGone)} already gone` : ''}.`
      : result.message;
  await reload(sidebar);
  say(message);
}

async function bringBack(sidebar: Sidebar, rowIds: string[]): Promise<void> {
  const summary = await step(
    `Bringing back ${rowsWord(rowIds.length)}…`,
    'Bringing them back did not finish',
    () => run('bringBackMissingRows', { rowIds }),
  );
  if (!summary) return;
  await reload(sidebar);
  say(summary.message);
}

/** Lines of rows removed on the service, with Remove these lines… (none: hidden). */
export function renderRemovedLines(sidebar: Sidebar, review: RemovedLinesReview | null): void {
  const box = byId('removed-box');
  box.replaceChildren();
  if (!review || review.count === 0) {
    show(box, false);
    return;
  }
  box.append(
    el('h3', { id: 'removed-title' }, 'Lines of rows removed on the service'),
    el('p', {}, review.message),
  );
  const list = el('ul', { class: 'review-rows', id: 'removed-lines' });
  for (const line of review.lines.slice(0, LISTED))
    list.append(el('li', {}, `Row ${line.row}: ${line.title}`));
  if (review.count > LISTED) list.append(el('li', { class: 'hint' }, `…and ${review.count - LISTED} more.`));
  box.append(list);
  const remove = buttonOf('removed-remove', 'Remove these lines…', 'danger');
  const confirm = el('div', { id: 'removed-confirm', class: 'confirm', role: 'alertdialog' });
  remove.addEventListener('click', () => {
    confirm.replaceChildren();
    const own =
      review.ownValues.length === 0
        ? 'None of your own columns holds a value on them.'
        : `Your own columns on them go too: ${review.ownValues.map((each) => `${each.header} (${linesWord(each.lines)})`).join(', ')}.`;
    confirm.append(
      el('p', {}, `Remove ${linesWord(review.lines.length)} from the sheet? Nothing is sent to the service.`),
      el('p', {}, own),
    );
    const yes = buttonOf('removed-remove-confirm', `Remove ${linesWord(review.lines.length)}`, 'danger');
    const no = buttonOf('removed-remove-cancel', 'Cancel');
    const rowIds = review.lines.map((line) => line.rowId);
    yes.addEventListener(
      'click',
      guarded(async () => {
        const result = await step('Removing lines…', 'Removing the lines did not finish', () =>
          run('removeLinesOfRemovedRows', { rowIds }),
        );
        if (!result) return;
        await reload(sidebar);
        say(result.message);
      }),
    );
    no.addEventListener('click', () => {
      show(confirm, false);
      say('No line was removed.');
    });
    const buttons = el('p', { class: 'buttons' });
    buttons.append(yes, no);
    confirm.append(buttons);
    show(confirm, true);
    yes.focus();
  });
  const buttons = el('p', { class: 'buttons' });
  buttons.append(remove);
  box.append(buttons, confirm);
  show(confirm, false);
  show(box, true);
}

/** Reads the state and both reviews again after an action. */
async function reload(sidebar: Sidebar): Promise<void> {
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  await step('Reading what waits for review…', 'Could not read what waits for review', () =>
    showReviews(sidebar, sidebar.state()?.lastSummary ?? null),
  );
}
