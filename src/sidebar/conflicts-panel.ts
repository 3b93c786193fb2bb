// The conflicts of the last run: one card per line changed here and on the service, named by its
// title and row, with both values, who changed it on the service and when, and Keep mine / Take
// theirs / Show in sheet.
import { countOf } from '../core/summary';
import type { ConflictLine, SyncSummary } from '../shared/types';
import { byId, el, show, when } from './dom';
import { guarded } from './feedback';
import { run } from './server';

/** What a conflict card's buttons do. */
export interface ConflictActions {
  /** Settles the lines with these row ids by keeping the sheet's values or taking the service's. */
  resolve(keep: 'mine' | 'theirs', rowIds: string[]): Promise<void>;
  /** Selects this sheet row ("Show in sheet"). */
  selectRow(row: number): Promise<void>;
}

/** One card per line in conflict: both values, who changed it on the service and when, and its choices. */
function renderConflicts(lines: ConflictLine[], actions: ConflictActions): void {
  const list = byId('conflicts');
  list.textContent = '';
  for (const line of lines) {
    const item = el('li', { class: 'conflict-line', 'data-row': String(line.row) });
    const heading = el('h4', {}, line.title ? `${line.title} · row ${line.row}` : `Row ${line.row}`);
    const who = line.changedBy ? `Changed on the service by ${line.changedBy}` : 'Changed on the service';
    const select = el(
      'button',
      { type: 'button', class: 'link', 'aria-label': `Show row ${line.row} in the sheet` },
      'Show in sheet',
    );
    select.addEventListener(
      'click',
      guarded(() => actions.selectRow(line.row)),
    );
    const table = el('table');
    const head = el('tr');
    head.append(
      el('th', { scope: 'col' }, 'Column'),
      el('th', { scope: 'col' }, 'Yours'),
      el('th', { scope: 'col' }, 'Theirs'),
    );
    table.append(head);
    for (const cell of line.cells) {
      const row = el('tr');
      row.append(
        el(
          'th',
          { scope: 'row' },
          cell.columnName === cell.columnId ? cell.columnId : `${cell.columnName} (${cell.columnId})`,
        ),
        el('td', { class: 'mine' }, cell.mine === '' ? '(empty)' : cell.mine),
        el(
          'td',
          { class: 'theirs' },
          cell.theirs === null ? '(too long to show)' : cell.theirs === '' ? '(empty)' : cell.theirs,
        ),
      );
      table.append(row);
    }
    const buttons = el('div', { class: 'buttons' });
    const mine = el('button', { type: 'button', 'aria-label': `Keep mine on row ${line.row}` }, 'Keep mine');
    const theirs = el(
      'button',
      { type: 'button', 'aria-label': `Take theirs on row ${line.row}` },
      'Take theirs',
    );
    mine.addEventListener(
      'click',
      guarded(() => actions.resolve('mine', [line.rowId])),
    );
    theirs.addEventListener(
      'click',
      guarded(() => actions.resolve('theirs', [line.rowId])),
    );
    buttons.append(mine, theirs, select);
    const at = line.changedAtLocal ?? when(line.changedAt);
    item.append(heading, el('p', { class: 'hint' }, `${who} on ${at}.`), table, buttons);
    list.append(item);
  }
}

/** Reads and shows the lines in conflict of `summary`, if it has any. */
export async function loadConflicts(summary: SyncSummary | null, actions: ConflictActions): Promise<void> {
  if (!summary || !summary.issues.some((issue) => issue.kind === 'conflict')) return;
  const lines = await run('getConflicts');
  renderConflicts(lines, actions);
  if (summary.conflicts > lines.length && lines.length > 0) {
    byId('conflicts').append(
      el(
        'li',
        { class: 'hint' },
        `…and ${countOf(summary.conflicts - lines.length, 'more line')} in conflict: settle these, or all of them below.`,
      ),
    );
    show(byId('resolve'), true);
  }
}
