// Linking: read a table app's tables, choose one and where it goes (this sheet or a new one),
// confirm replacing a sheet that holds data; and unlinking, after a confirmation.
import type { SidebarState, TableAppInfo } from '../shared/types';
import type { Sidebar } from './context';
import { byId, el, show } from './dom';
import { fail, on, say, step } from './feedback';
import { run } from './server';

/** The table app whose tables are listed, until another lookup or an unlink. */
let found: TableAppInfo | null = null;

export function renderLinkPanel(current: SidebarState): void {
  byId('this-sheet-label').textContent = `This sheet (“${current.sheet.name}”)`;
  renderOwnSheet(current);
}

/** The add-on's own sheets (Sync log, Members) cannot be linked: only "A new sheet" is offered. */
function renderOwnSheet(current: SidebarState): void {
  const own = current.sheet.addOnSheet;
  const thisSheet = byId('link-form').querySelector<HTMLInputElement>('input[name="target"][value="this"]');
  const newSheet = byId('link-form').querySelector<HTMLInputElement>('input[name="target"][value="new"]');
  if (thisSheet && newSheet) {
    thisSheet.disabled = own !== null;
    if (own !== null) newSheet.checked = true;
  }
  const hint = byId('own-sheet-hint');
  hint.textContent = own ? `${own}, so the table goes into a new sheet.` : '';
  show(hint, own !== null);
}

export function wireLinkPanel(sidebar: Sidebar): void {
  on('find-form', 'submit', (event) => findTables(sidebar, event));
  on('link-form', 'submit', async (event) => {
    event.preventDefault();
    await link(sidebar, {});
  });
  on('replace-confirm', 'click', () => link(sidebar, { replace: true, newSheet: false }));
  on('replace-new', 'click', () => link(sidebar, { newSheet: true }));
  on('unlink', 'click', askUnlink);
  on('unlink-confirm', 'click', () => unlink(sidebar));
  on('unlink-cancel', 'click', async () => {
    show(byId('unlink-confirm-box'), false);
    byId('unlink').focus();
  });
}

async function findTables(sidebar: Sidebar, event: Event): Promise<void> {
  event.preventDefault();
  const tableAppId = byId<HTMLInputElement>('app-id').value.trim();
  show(byId('replace-box'), false);
  // A new lookup replaces the last one: nothing of the previous app stays on screen if this one fails.
  found = null;
  byId('table-list').textContent = '';
  show(byId('link-form'), false);
  show(byId('understood'), false);
  if (!tableAppId) {
    fail('No table app', new Error('Paste the table app’s link or id, then choose Show its tables.'));
    byId('app-id').focus();
    return;
  }
  const info = await step('Reading the table app…', 'Could not read the table app', () =>
    run('listTables', { tableAppId }),
  );
  if (!info) return;
  found = info;
  byId('understood').textContent = `Understood: ${info.understood}.`;
  show(byId('understood'), true);
  byId('tables-legend').textContent = `Tables of ${info.name || info.id}`;
  const list = byId('table-list');
  list.textContent = '';
  info.tables.forEach((table, index) => {
    const input = el('input', { type: 'radio', name: 'table', value: table.id });
    input.checked = info.tableIdHint ? table.id === info.tableIdHint : index === 0;
    const columns = `${table.columnCount} ${table.columnCount === 1 ? 'column' : 'columns'}`;
    const label = el('label', { class: 'choice' });
    label.append(
      input,
      el('span', { class: 'table-name' }, table.name),
      el('span', { class: 'hint' }, `· ${columns}`),
    );
    list.append(label);
  });
  if (info.tables.length === 0) list.append(el('p', { class: 'hint' }, 'This table app has no tables yet.'));
  show(byId('link-form'), info.tables.length > 0);
  say(
    `${info.tables.length} ${info.tables.length === 1 ? 'table' : 'tables'} in ${info.name || info.id}. Choose one.`,
  );
  const state = sidebar.state();
  if (state) renderOwnSheet(state);
  byId('table-list').querySelector<HTMLInputElement>('input:checked')?.focus();
}

function chosenTable(): string | null {
  return byId('table-list').querySelector<HTMLInputElement>('input[name="table"]:checked')?.value ?? null;
}

async function link(sidebar: Sidebar, options: { replace?: boolean; newSheet?: boolean }): Promise<void> {
  const tableId = chosenTable();
  if (!found || !tableId) {
    fail('No table chosen', new Error('Choose one of the tables, then choose Link.'));
    return;
  }
  const tableAppId = found.id;
  const target = byId('link-form').querySelector<HTMLInputElement>('input[name="target"]:checked')?.value;
  const newSheet = options.newSheet ?? target === 'new';
  const answer = await step('Linking…', 'Could not link the sheet', () =>
    run('linkActiveSheet', {
      tableAppId,
      tableId,
      newSheet,
      replace: options.replace === true,
      askBeforeReplacing: true,
    }),
  );
  if (!answer) return;
  // The server does not overwrite a sheet that holds data until the person confirms.
  if ('code' in answer && answer.code === 'SHEET_HOLDS_DATA') {
    byId('replace-message').textContent = answer.message;
    show(byId('replace-box'), true);
    say('This sheet already holds data: confirm below.');
    byId('replace-confirm').focus();
    return;
  }
  if ('code' in answer) {
    fail('Could not link the sheet', new Error(answer.message));
    return;
  }
  const info = answer;
  show(byId('replace-box'), false);
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say(`Linked “${info.sheetName}” to ${info.tableName}. Choose Pull to bring its rows in.`);
  byId('pull').focus();
}

async function askUnlink(): Promise<void> {
  show(byId('unlink-confirm-box'), true);
  byId('unlink-cancel').focus();
}

async function unlink(sidebar: Sidebar): Promise<void> {
  show(byId('unlink-confirm-box'), false);
  if ((await step('Unlinking…', 'Could not unlink the sheet', () => run('unlinkActiveSheet'))) === undefined)
    return;
  found = null;
  show(byId('link-form'), false);
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say('The sheet is no longer linked; its data stays.');
  sidebar.focusFirst();
}
