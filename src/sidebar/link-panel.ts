// Linking: choose one of the person's table apps (searched by name) or paste its link or id, read its
// tables, choose one and where it goes (this sheet or a new one), confirm replacing a sheet that holds
// data; and unlinking, after a confirmation.
import type { SidebarState, TableAppChoice, TableAppInfo, TableAppList } from '../shared/types';
import type { Sidebar } from './context';
import { byId, el, show } from './dom';
import { fail, guarded, on, say, step } from './feedback';
import { run } from './server';

/** The table app whose tables are listed, until another lookup or an unlink. */
let found: TableAppInfo | null = null;

/** Typing pauses this long before a search goes to the service. */
const SEARCH_DEBOUNCE_MS = 300;

/** The person's table apps as last listed, and for which connection (a new one lists them again). */
let listed: { connection: string; list: TableAppList } | null = null;
/** The search sent last: an answer to an earlier one is dropped. */
let searchSeq = 0;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
/** The page's sidebar, for handlers made after wiring (the buttons of the list). */
let page: Sidebar | null = null;

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

/** Focus for the link step: the search of the person's apps, else the pasted link. */
export function focusLinkStep(): void {
  if (!byId('app-picker').hidden) byId('app-search').focus();
  else byId('app-id').focus();
}

/**
 * Lists the person's table apps once the link step shows for a connection (not again on later
 * refreshes). Never throws: a failure is said beside the list, and pasting stays open.
 */
export async function loadTableApps(current: SidebarState): Promise<void> {
  const info = current.connection;
  if (info === null) {
    listed = null;
    return;
  }
  const connection = `${info.baseUrl}${info.prefix} ${info.email}`;
  if (current.link !== null || listed?.connection === connection) return;
  const list = await searchApps('');
  if (list !== null) listed = { connection, list };
}

/** Asks the server for the apps matching `query` and shows them; null when the call failed (said). */
async function searchApps(query: string): Promise<TableAppList | null> {
  const seq = ++searchSeq;
  const box = byId('app-list');
  box.setAttribute('aria-busy', 'true');
  try {
    const list = await run('listTableApps', { query });
    if (seq !== searchSeq) return null;
    showAppList(list);
    return list;
  } catch (error) {
    if (seq !== searchSeq) return null;
    const message = (error instanceof Error ? error.message : String(error)).replace(
      /^\w*(?:Error|Exception):\s+/,
      '',
    );
    show(byId('app-picker'), true);
    byId('app-list').textContent = '';
    setNote(`Could not list your table apps. ${message} You can paste a table app’s link or id below.`, true);
    openPasteBox(false);
    return null;
  } finally {
    if (seq === searchSeq) box.setAttribute('aria-busy', 'false');
  }
}

function setNote(text: string, warning = false): void {
  const note = byId('app-note');
  note.textContent = text;
  note.classList.toggle('warning', warning);
}

/** Opens the paste form; `only` when it is the one way (the service lists no apps). */
function openPasteBox(only: boolean): void {
  byId<HTMLDetailsElement>('paste-box').open = true;
  byId('paste-summary').textContent = only ? 'Paste a table app’s link or id' : 'Paste a link or id instead';
}

function showAppList(list: TableAppList): void {
  const unavailable = byId('picker-unavailable');
  if (!list.available) {
    show(byId('app-picker'), false);
    unavailable.textContent = list.reason;
    show(unavailable, true);
    openPasteBox(true);
    return;
  }
  show(unavailable, false);
  show(byId('app-picker'), true);
  byId('paste-summary').textContent = 'Paste a link or id instead';
  renderApps(list.apps, list.query);
  if (list.more) setNote(list.more);
}

function tablesText(app: TableAppChoice): string {
  if (app.tableCount === null) return '';
  return ` · ${app.tableCount} ${app.tableCount === 1 ? 'table' : 'tables'}`;
}

function renderApps(apps: readonly TableAppChoice[], query: string): void {
  const box = byId('app-list');
  box.textContent = '';
  for (const app of apps) {
    const button = el('button', { type: 'button', 'data-app-id': app.id });
    button.append(
      el('span', { class: 'app-name' }, app.name),
      el('span', { class: 'hint' }, tablesText(app)),
    );
    if (found?.id === app.id) button.setAttribute('aria-current', 'true');
    button.addEventListener(
      'click',
      guarded(async () => {
        await showTables(app.id, 'picked');
      }),
    );
    const item = el('li');
    item.append(button);
    box.append(item);
  }
  if (apps.length > 0)
    setNote(`${apps.length} ${apps.length === 1 ? 'table app' : 'table apps'}: choose one.`);
  else if (query === '')
    setNote('You have no table apps yet: create one on the service, or paste a link below.');
  else setNote(`No table app’s name contains “${query}”.`);
}

/**
 * The search box: a complete list is filtered here as the person types; a list cut short asks the
 * service (q), once typing pauses.
 */
function onSearchInput(): void {
  const query = byId<HTMLInputElement>('app-search').value.trim();
  const list = listed?.list;
  if (searchTimer !== undefined) clearTimeout(searchTimer);
  searchTimer = undefined;
  if (list?.available && list.query === '' && list.more === null) {
    const needle = query.toLowerCase();
    renderApps(
      list.apps.filter((app) => app.name.toLowerCase().includes(needle)),
      query,
    );
    return;
  }
  searchTimer = setTimeout(() => {
    searchTimer = undefined;
    void searchApps(query);
  }, SEARCH_DEBOUNCE_MS);
}

export function wireLinkPanel(sidebar: Sidebar): void {
  page = sidebar;
  on('find-form', 'submit', findTables);
  byId('app-search').addEventListener('input', onSearchInput);
  // Enter in the search box must not submit anything: the list answers as the person types.
  byId('app-search').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') event.preventDefault();
  });
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

async function findTables(event: Event): Promise<void> {
  event.preventDefault();
  const tableAppId = byId<HTMLInputElement>('app-id').value.trim();
  if (!tableAppId) {
    clearTables();
    fail('No table app', new Error('Paste the table app’s link or id, then choose Show its tables.'));
    byId('app-id').focus();
    return;
  }
  await showTables(tableAppId, 'pasted');
}

/** Nothing of the previous app stays on screen once another lookup starts. */
function clearTables(): void {
  show(byId('replace-box'), false);
  found = null;
  byId('table-list').textContent = '';
  show(byId('link-form'), false);
  show(byId('understood'), false);
  for (const button of byId('app-list').querySelectorAll('button[aria-current]'))
    button.removeAttribute('aria-current');
}

/** Reads a table app's tables (picked from the list, or pasted) and offers them to choose from. */
async function showTables(tableAppId: string, how: 'picked' | 'pasted'): Promise<void> {
  clearTables();
  const info = await step('Reading the table app…', 'Could not read the table app', () =>
    run('listTables', { tableAppId }),
  );
  if (!info) return;
  found = info;
  byId('app-list')
    .querySelector(`button[data-app-id="${CSS.escape(info.id)}"]`)
    ?.setAttribute('aria-current', 'true');
  // A pasted link is said back; a link naming a table the app lacks says so (and preselects none).
  const understood = byId('understood');
  understood.textContent =
    how === 'pasted'
      ? `Understood: ${info.understood}.${info.tableProblem ? ` ${info.tableProblem}` : ''}`
      : '';
  understood.classList.toggle('warning', info.tableProblem !== null);
  show(understood, how === 'pasted');
  byId('tables-legend').textContent = `Tables of ${info.name || info.id}`;
  const list = byId('table-list');
  list.textContent = '';
  info.tables.forEach((table, index) => {
    const input = el('input', { type: 'radio', name: 'table', value: table.id });
    input.checked = info.tableIdHint
      ? table.id === info.tableIdHint
      : info.tableProblem === null && index === 0;
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
  const state = page?.state();
  if (state) renderOwnSheet(state);
  const tablesIn = `${info.tables.length} ${info.tables.length === 1 ? 'table' : 'tables'} in ${info.name || info.id}`;
  // The problem itself is said once, under the link (#understood): the status line only points there.
  say(
    info.tableProblem
      ? `The link's table is not among the ${tablesIn}: see below, and choose one.`
      : `${tablesIn}. Choose one.`,
  );
  (
    list.querySelector<HTMLInputElement>('input:checked') ?? list.querySelector<HTMLInputElement>('input')
  )?.focus();
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
  clearTables();
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say('The sheet is no longer linked; its data stays.');
  sidebar.focusFirst();
}
