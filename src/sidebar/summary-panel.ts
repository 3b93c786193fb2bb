// "Last run": the result of the last pull, push, sync or resolve (headed by what it left undone, if
// anything), its lines to check (each selects its row), and whether the conflicts box and its "for
// all" buttons show.
import { runHeadline } from '../core/summary';
import type { LineIssue, SyncSummary } from '../shared/types';
import { byId, el, setMessage, show } from './dom';
import { guarded } from './feedback';

function issueLabel(issue: LineIssue): string {
  return `Row ${issue.row}: ${issue.message}`;
}

/**
 * The last run's result: the one place it shows (no banner, no toast from the sidebar).
 * `selectRow` selects a listed line's row in the sheet.
 */
export function renderSummary(summary: SyncSummary | null, selectRow: (row: number) => Promise<void>): void {
  show(byId('summary'), summary !== null);
  if (!summary) return;
  const text = byId('summary-text');
  text.textContent = '';
  setMessage(text, summary.message);
  text.className = summary.ok ? '' : 'error';
  // A failed run's message is already an error box; a run that left something undone gets a
  // headline styled as a warning, so it never reads like success.
  const headline = byId('summary-headline');
  const undone = summary.ok ? runHeadline(summary) : null;
  headline.textContent = undone ?? '';
  show(headline, undone !== null);
  const list = byId('issues');
  list.textContent = '';
  const others = summary.issues.filter((issue) => issue.kind !== 'conflict');
  for (const issue of others) {
    const button = el('button', { type: 'button', 'data-row': String(issue.row) }, issueLabel(issue));
    button.title = 'Show this line in the sheet';
    button.addEventListener(
      'click',
      guarded(() => selectRow(issue.row)),
    );
    const item = el('li', { class: `issue issue-${issue.kind}` });
    item.append(button);
    list.append(item);
  }
  // The list stops at the first lines; the counts in the summary cover every line of the sheet.
  const listed = summary.errors + summary.removedOnService;
  if (listed > others.length && others.length > 0) {
    list.append(
      el(
        'li',
        { class: 'hint' },
        `…and ${listed - others.length} more: the first ${others.length} are listed.`,
      ),
    );
  }
  show(byId('issues-box'), others.length > 0);
  const conflicts = summary.issues.filter((issue) => issue.kind === 'conflict');
  show(byId('conflicts-box'), conflicts.length > 0);
  if (conflicts.length === 0) byId('conflicts').textContent = '';
  show(byId('resolve'), conflicts.length > 1);
}
