// The sidebar: connect, link, pull/push/sync with progress and conflicts, schedule, unlink.
// Plain DOM; every text from the service or the sheet is set with textContent.
import type { LineIssue, ProgressInfo, SidebarState, SyncSummary, TableAppInfo } from '../shared/types';
import { byId, el, show, when } from './dom';
import { renderHeldPanel } from './held-panel';
import { run } from './server';

const POLL_MS = 1500;
const app = byId('app');
const status = byId('status');
const errorBox = byId('error');

let state: SidebarState | null = null;
let busy = false;
let found: TableAppInfo | null = null;

// ---------- feedback ----------

function say(text: string): void {
  status.textContent = text;
}

function fail(what: string, error: unknown): void {
  // Apps Script may prefix a thrown error's class name ("Error: …", "Exception: …"); the rest is for the person.
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /^(?:Exception|[A-Z]\w*Error):\s+/,
    '',
  );
  errorBox.textContent = '';
  errorBox.append(el('strong', {}, `${what}. `), document.createTextNode(message));
  show(errorBox, true);
  say('');
}

function clearError(): void {
  errorBox.textContent = '';
  show(errorBox, false);
}

/** Runs one step of an action: a status line while it runs, its failure shown to the person. */
async function step<T>(label: string, what: string, action: () => Promise<T>): Promise<T | undefined> {
  clearError();
  say(label);
  try {
    return await action();
  } catch (error) {
    fail(what, error);
    return undefined;
  }
}

function setBusy(value: boolean): void {
  busy = value;
  app.setAttribute('aria-busy', String(value));
  app.querySelectorAll('button').forEach((button) => {
    button.disabled = value;
  });
}

/** Wraps a handler so one action runs at a time, with every button disabled until it is done. */
function guarded<E extends Event>(handler: (event: E) => Promise<void>): (event: E) => void {
  return (event) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    setBusy(true);
    handler(event)
      .catch((error: unknown) => fail('Something went wrong', error))
      .finally(() => setBusy(false));
  };
}

async function refresh(): Promise<void> {
  state = await run('getState');
  render(state);
}

// ---------- rendering ----------

function render(current: SidebarState): void {
  const connected = current.connection !== null;
  const linked = connected && current.link !== null;
  show(byId('connect'), !connected);
  show(byId('account'), connected);
  show(byId('link'), connected && !linked);
  show(byId('sync'), linked);
  show(byId('schedule'), linked);
  show(byId('unlink-box'), linked);
  show(byId('options'), linked);
  if (!connected) {
    const baseUrl = byId<HTMLInputElement>('base-url');
    if (!baseUrl.value && current.hints.baseUrl) baseUrl.value = current.hints.baseUrl;
  } else if (current.connection) {
    const { firstName, lastName, email } = current.connection;
    byId('connected-as').textContent = `Connected as ${`${firstName} ${lastName}`.trim()} <${email}>`;
  }
  byId('this-sheet-label').textContent = `This sheet (“${current.sheet.name}”)`;
  if (current.link) {
    const { tableAppName, tableName, sheetName, lastSyncAt } = current.link;
    byId('link-info').textContent =
      `Sheet “${sheetName}” ↔ ${tableAppName} › ${tableName}. Last sync: ${when(lastSyncAt)}.`;
    renderSummary(current.lastSummary);
    renderSchedule(current);
    for (const box of document.querySelectorAll<HTMLInputElement>('#fixed-choices input')) {
      box.checked = current.link.fixedFields.includes(box.value);
    }
    byId<HTMLInputElement>('show-emails').checked = current.link.showEmails;
  }
}

function describeProgress(progress: ProgressInfo): string {
  const parts = [`${progress.pagesFetched} pages fetched`, `${progress.linesWritten} lines written`];
  if (progress.requestsLeft !== null) parts.push(`${progress.requestsLeft} requests left`);
  const percent = progress.percent === null ? '' : ` (${Math.round(progress.percent)} %)`;
  return `${progress.phase}${percent}: ${parts.join(', ')}…`;
}

function issueLabel(issue: LineIssue): string {
  const kind = { conflict: 'conflict', error: 'error', removed: 'removed on the service' }[issue.kind];
  // Status texts usually start with their kind already ("conflict: amount changed here and …").
  const message = issue.message.toLowerCase().startsWith(kind) ? issue.message : `${kind}: ${issue.message}`;
  return `Row ${issue.row}: ${message}`;
}

function renderSummary(summary: SyncSummary | null): void {
  show(byId('summary'), summary !== null);
  if (!summary) return;
  const text = byId('summary-text');
  text.textContent = summary.message;
  text.className = summary.ok ? '' : 'error';
  const list = byId('issues');
  list.textContent = '';
  for (const issue of summary.issues) {
    const button = el('button', { type: 'button', 'data-row': String(issue.row) }, issueLabel(issue));
    button.title = 'Select this line in the sheet';
    button.addEventListener(
      'click',
      guarded(() => selectRow(issue.row)),
    );
    const item = el('li', { class: `issue ${issue.kind}` });
    item.append(button);
    list.append(item);
  }
  show(byId('issues-box'), summary.issues.length > 0);
  show(
    byId('resolve'),
    summary.issues.some((issue) => issue.kind === 'conflict'),
  );
}

function renderSchedule(current: SidebarState): void {
  const every = byId<HTMLSelectElement>('schedule-every');
  const wanted = current.schedule?.every ?? every.value;
  every.textContent = '';
  for (const option of current.scheduleOptions.intervals)
    every.append(el('option', { value: option.every }, option.label));
  if (wanted && current.scheduleOptions.intervals.some((option) => option.every === wanted))
    every.value = wanted;
  const schedule = current.schedule;
  if (schedule) byId<HTMLSelectElement>('schedule-mode').value = schedule.mode;
  const what = schedule ? { pull: 'Pulls', push: 'Pushes', sync: 'Syncs' }[schedule.mode] : '';
  const last = schedule?.lastRunAt
    ? ` Last run ${when(schedule.lastRunAt)}: ${schedule.lastOutcome ?? 'no outcome'}.`
    : '';
  byId('schedule-info').textContent = schedule
    ? `${what} ${schedule.label.toLowerCase()}.${last}`
    : 'No schedule: choose what to run and how often, then save.';
  show(byId('schedule-paused'), schedule?.paused === true);
  if (schedule?.paused) {
    byId('schedule-paused-text').textContent =
      `Paused after ${schedule.failures} failed runs in a row. Fix the cause shown above, then resume.`;
  }
  show(byId('schedule-remove'), schedule !== null);
}

// ---------- actions ----------

async function connect(event: Event): Promise<void> {
  event.preventDefault();
  const baseUrl = byId<HTMLInputElement>('base-url').value.trim();
  const keyInput = byId<HTMLInputElement>('api-key');
  if (!baseUrl || !keyInput.value.trim()) {
    fail('Not connected', new Error('Enter the service address and your API key, then choose Connect.'));
    (baseUrl ? keyInput : byId('base-url')).focus();
    return;
  }
  const info = await step('Checking your key…', 'Could not connect', () =>
    run('saveConnection', { baseUrl, apiKey: keyInput.value }),
  );
  if (!info) {
    keyInput.focus();
    return;
  }
  keyInput.value = '';
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(`Connected as ${info.firstName} ${info.lastName}.`);
  focusFirst();
}

async function disconnect(): Promise<void> {
  if ((await step('Disconnecting…', 'Could not disconnect', () => run('disconnect'))) === undefined) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say('Disconnected. Your key was removed from this account.');
  focusFirst();
}

async function findTables(event: Event): Promise<void> {
  event.preventDefault();
  const tableAppId = byId<HTMLInputElement>('app-id').value.trim();
  show(byId('replace-box'), false);
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
  byId('tables-legend').textContent = `Tables of ${info.name || info.id}`;
  const list = byId('table-list');
  list.textContent = '';
  info.tables.forEach((table, index) => {
    const input = el('input', { type: 'radio', name: 'table', value: table.id });
    input.checked = index === 0;
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
  byId<HTMLInputElement>('table-list').querySelector<HTMLInputElement>('input')?.focus();
}

function chosenTable(): string | null {
  return byId('table-list').querySelector<HTMLInputElement>('input[name="table"]:checked')?.value ?? null;
}

async function link(options: { replace?: boolean; newSheet?: boolean }): Promise<void> {
  const tableId = chosenTable();
  if (!found || !tableId) {
    fail('No table chosen', new Error('Choose one of the tables, then choose Link.'));
    return;
  }
  const tableAppId = found.id;
  const target = byId('link-form').querySelector<HTMLInputElement>('input[name="target"]:checked')?.value;
  const newSheet = options.newSheet ?? target === 'new';
  let needsConfirm = '';
  const info = await step('Linking…', 'Could not link the sheet', async () => {
    try {
      return await run('linkActiveSheet', {
        tableAppId,
        tableId,
        newSheet,
        replace: options.replace === true,
      });
    } catch (error) {
      // The server refuses to overwrite a sheet that holds data until the person confirms.
      if (error instanceof Error && /already holds data/i.test(error.message)) {
        needsConfirm = error.message;
        return undefined;
      }
      throw error;
    }
  });
  if (needsConfirm) {
    byId('replace-message').textContent = needsConfirm;
    show(byId('replace-box'), true);
    say('This sheet already holds data: confirm below.');
    byId('replace-confirm').focus();
    return;
  }
  if (!info) return;
  show(byId('replace-box'), false);
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(`Linked “${info.sheetName}” to ${info.tableName}. Choose Pull to bring its rows in.`);
  byId('pull').focus();
}

type SyncName = 'pullActiveSheet' | 'pushActiveSheet' | 'syncActiveSheet';

/** Runs a sync operation, polling getState for progress while it runs. */
async function operate(label: string, call: () => Promise<SyncSummary>): Promise<void> {
  const progress = byId('progress');
  let running = true;
  const poll = async (): Promise<void> => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (!running) break;
      try {
        const now = await run('getState');
        if (running && now.progress) {
          progress.textContent = describeProgress(now.progress);
          show(progress, true);
        }
      } catch {
        // Progress is a courtesy: the operation's own result or failure is what counts.
      }
    }
  };
  const summary = await step(label, `${label.replace(/…$/, '')} did not finish`, async () => {
    void poll();
    try {
      return await call();
    } finally {
      running = false;
      show(progress, false);
    }
  });
  if (!summary) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  renderSummary(summary);
  renderHeldPanel(summary.held, () => {
    void operate('Pushing…', () => run('pushActiveSheet', { confirmHeld: true }));
  });
  if (summary.ok) say(summary.message);
  else fail('Not done', new Error(summary.message));
}

function syncAction(name: SyncName, label: string): () => Promise<void> {
  return () => operate(label, () => run(name));
}

async function resolve(keep: 'mine' | 'theirs'): Promise<void> {
  const rows = (state?.lastSummary?.issues ?? [])
    .filter((issue) => issue.kind === 'conflict')
    .map((issue) => issue.row);
  const label = keep === 'mine' ? 'Keeping your values…' : 'Taking the service’s values…';
  await operate(label, () => run('resolveConflicts', rows.length ? { keep, sheetRows: rows } : { keep }));
}

async function selectRow(row: number): Promise<void> {
  const done = await step(`Selecting row ${row}…`, 'Could not select the line', () =>
    run('selectSheetRow', { row }),
  );
  if (done) say(`Row ${done.row} is selected in the sheet.`);
}

async function saveSchedule(event: Event): Promise<void> {
  event.preventDefault();
  const mode = byId<HTMLSelectElement>('schedule-mode').value as 'pull' | 'push' | 'sync';
  const every = byId<HTMLSelectElement>('schedule-every').value;
  const info = await step('Saving the schedule…', 'Could not save the schedule', () =>
    run('setSchedule', { mode, every }),
  );
  if (!info) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(`Scheduled: ${info.label.toLowerCase()}.`);
}

async function removeSchedule(): Promise<void> {
  if (
    (await step('Removing the schedule…', 'Could not remove the schedule', () => run('clearSchedule'))) ===
    undefined
  )
    return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say('The schedule was removed.');
}

async function resumeSchedule(): Promise<void> {
  if ((await step('Resuming…', 'Could not resume the schedule', () => run('resumeSchedule'))) === undefined)
    return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say('The schedule runs again.');
}

async function unlink(): Promise<void> {
  if ((await step('Unlinking…', 'Could not unlink the sheet', () => run('unlinkActiveSheet'))) === undefined)
    return;
  found = null;
  show(byId('link-form'), false);
  await step('Loading…', 'Could not load the sidebar', refresh);
  say('The sheet is no longer linked; its data stays.');
  focusFirst();
}

/** Moves focus to the first control of the step the person is at. */
async function refreshProfile(): Promise<void> {
  const info = await step('Checking your key…', 'Your key does not work', () =>
    run('getConnection', { refresh: true }),
  );
  if (!info) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(`Your key works: connected as ${info.firstName} ${info.lastName} <${info.email}>.`);
}

async function importMembers(event: Event): Promise<void> {
  event.preventDefault();
  const emailId = byId<HTMLInputElement>('members-email').value.trim();
  const summary = await step('Importing members…', 'Could not import members', () =>
    run('importAccountMembers', emailId ? { emailId } : {}),
  );
  if (summary) say(summary.message);
}

async function saveOptions(event: Event): Promise<void> {
  event.preventDefault();
  const fixedFields = [...document.querySelectorAll<HTMLInputElement>('#fixed-choices input')]
    .filter((box) => box.checked)
    .map((box) => box.value);
  const showEmails = byId<HTMLInputElement>('show-emails').checked;
  const saved = await step('Saving…', 'Could not save the columns shown', () =>
    run('setLinkOptions', { fixedFields, showEmails }),
  );
  if (!saved) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say('Saved. The next pull shows these columns.');
}

function focusFirst(): void {
  if (!state?.connection) byId(byId<HTMLInputElement>('base-url').value ? 'api-key' : 'base-url').focus();
  else if (!state.link) byId('app-id').focus();
  else byId('pull').focus();
}

// ---------- wiring ----------

function on(id: string, type: string, handler: (event: Event) => Promise<void>): void {
  byId(id).addEventListener(type, guarded(handler));
}

on('connect-form', 'submit', connect);
on('disconnect', 'click', disconnect);
on('refresh-profile', 'click', refreshProfile);
on('members-form', 'submit', importMembers);
on('options-form', 'submit', saveOptions);
on('find-form', 'submit', findTables);
on('link-form', 'submit', async (event) => {
  event.preventDefault();
  await link({});
});
on('replace-confirm', 'click', () => link({ replace: true, newSheet: false }));
on('replace-new', 'click', () => link({ newSheet: true }));
on('pull', 'click', syncAction('pullActiveSheet', 'Pulling…'));
on('push', 'click', syncAction('pushActiveSheet', 'Pushing…'));
on('sync-both', 'click', syncAction('syncActiveSheet', 'Syncing…'));
on('keep-mine', 'click', () => resolve('mine'));
on('take-theirs', 'click', () => resolve('theirs'));
on('schedule-form', 'submit', saveSchedule);
on('schedule-remove', 'click', removeSchedule);
on('schedule-resume', 'click', resumeSchedule);
on('unlink', 'click', unlink);

guarded(async () => {
  await step('Loading…', 'Could not load the sidebar', refresh);
  const loaded = state as SidebarState | null;
  if (loaded) say(loaded.connection ? '' : 'Connect with your service address and API key.');
})(new Event('load'));
