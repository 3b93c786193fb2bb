// The sidebar: connect, link, pull/push/sync with progress and conflicts, schedule, unlink.
// Plain DOM; every text from the service or the sheet is set with textContent.
import { describeProgress } from '../core/progress';
import type { ConflictLine, LineIssue, SidebarState, SyncSummary, TableAppInfo } from '../shared/types';
import { byId, el, show, when } from './dom';
import { renderHeldPanel } from './held-panel';
import { run } from './server';

const POLL_MS = 1500;
/** While a run waits for its next execution, the sidebar looks again this often. */
const CONTINUING_POLL_MS = 10_000;
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

/** In a bound script, the plain warning next to where a key or a schedule is saved. */
function renderKeySafety(current: SidebarState): void {
  const warning = current.keySafety?.warning ?? null;
  for (const id of ['connect-warning', 'schedule-warning']) {
    byId(id).textContent = warning ?? '';
    show(byId(id), warning !== null);
  }
}

function render(current: SidebarState): void {
  renderKeySafety(current);
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
  renderOwnSheet(current);
  renderContinuing(current);
  if (current.link) {
    const { tableAppName, tableName, sheetName, lastSyncAt, lastSyncLocal } = current.link;
    byId('link-info').textContent =
      `Sheet “${sheetName}” ↔ ${tableAppName} › ${tableName}. Last sync: ${lastSyncLocal ?? when(lastSyncAt)}.`;
    renderSummary(current.lastSummary);
    renderSchedule(current);
    for (const box of document.querySelectorAll<HTMLInputElement>('#fixed-choices input')) {
      box.checked = current.link.fixedFields.includes(box.value);
    }
    byId<HTMLInputElement>('show-emails').checked = current.link.showEmails;
  }
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

let continuingTimer: number | null = null;
/** A run started from this sidebar is under way: its own progress line is on show. */
let operating = false;

/** A run that continues in its next execution shows its numbers, and the sidebar looks again later. */
function renderContinuing(current: SidebarState): void {
  const progress = byId('progress');
  const waiting = current.progress?.continuing === true ? current.progress : null;
  if (!operating) {
    progress.textContent = waiting ? describeProgress(waiting) : '';
    show(progress, waiting !== null);
  }
  if (continuingTimer !== null) window.clearTimeout(continuingTimer);
  continuingTimer = null;
  if (waiting) {
    continuingTimer = window.setTimeout(() => {
      if (!busy) void refresh().catch(() => undefined);
    }, CONTINUING_POLL_MS);
  }
}

function issueLabel(issue: LineIssue): string {
  return `Row ${issue.row}: ${issue.message}`;
}

/** The last run's result: the one place it shows (no banner, no toast from the sidebar). */
function renderSummary(summary: SyncSummary | null): void {
  show(byId('summary'), summary !== null);
  if (!summary) return;
  const text = byId('summary-text');
  text.textContent = summary.message;
  text.className = summary.ok ? '' : 'error';
  const list = byId('issues');
  list.textContent = '';
  const others = summary.issues.filter((issue) => issue.kind !== 'conflict');
  for (const issue of others) {
    const button = el('button', { type: 'button', 'data-row': String(issue.row) }, issueLabel(issue));
    button.title = 'Select this line in the sheet';
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

/** One card per line in conflict: both values, who changed it on the service and when, and its choices. */
function renderConflicts(lines: ConflictLine[]): void {
  const list = byId('conflicts');
  list.textContent = '';
  for (const line of lines) {
    const item = el('li', { class: 'conflict-line', 'data-row': String(line.row) });
    const heading = el('h4', {}, `Row ${line.row}`);
    const who = line.changedBy ? `Changed on the service by ${line.changedBy}` : 'Changed on the service';
    const select = el(
      'button',
      { type: 'button', class: 'link', 'aria-label': `Select row ${line.row}` },
      'Select',
    );
    select.addEventListener(
      'click',
      guarded(() => selectRow(line.row)),
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
      guarded(() => resolve('mine', [line.rowId])),
    );
    theirs.addEventListener(
      'click',
      guarded(() => resolve('theirs', [line.rowId])),
    );
    buttons.append(mine, theirs, select);
    item.append(heading, el('p', { class: 'hint' }, `${who} on ${when(line.changedAt)}.`), table, buttons);
    list.append(item);
  }
}

async function loadConflicts(summary: SyncSummary | null): Promise<void> {
  if (!summary || !summary.issues.some((issue) => issue.kind === 'conflict')) return;
  const lines = await run('getConflicts');
  renderConflicts(lines);
  if (summary.conflicts > lines.length && lines.length > 0) {
    byId('conflicts').append(
      el(
        'li',
        { class: 'hint' },
        `…and ${summary.conflicts - lines.length} more lines in conflict: settle these, or all of them below.`,
      ),
    );
    show(byId('resolve'), true);
  }
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
  const zone = schedule?.timeZone ? ` (${schedule.timeZone})` : '';
  const last = schedule?.lastRunAt
    ? ` Last run ${schedule.lastRunLocal ?? when(schedule.lastRunAt)}${zone}: ${(schedule.lastOutcome ?? 'no outcome').replace(/\.$/, '')}.`
    : '';
  const next = schedule?.nextRunLocal ? ` Next run around ${schedule.nextRunLocal}${zone}.` : '';
  byId('schedule-info').textContent = schedule
    ? `${what} ${schedule.label.toLowerCase()}.${next}${last}`
    : 'No schedule: choose what to run and how often, then save.';
  show(byId('schedule-paused'), schedule?.paused === true);
  if (schedule?.paused) {
    byId('schedule-paused-text').textContent =
      `Paused after ${schedule.failures} failed runs in a row. Fix the cause shown above, then resume.`;
  }
  show(byId('schedule-remove'), schedule !== null);
  const owner = byId('schedule-owner');
  owner.textContent = schedule ? ownerLine(schedule) : '';
  show(owner, schedule !== null);
  renderEstimate();
}

/** Whose key runs the schedule, and what that means for everyone who edits the sheet. */
function ownerLine(schedule: NonNullable<SidebarState['schedule']>): string {
  if (schedule.ownedByYou)
    return 'Runs with your API key under your Google account: edits anyone makes in this sheet are sent to the service in your name.';
  const who = schedule.ownerName ?? 'another person';
  return `Runs with the API key of ${who}: edits anyone makes in this sheet are sent to the service in that person’s name. Changing the schedule needs your own connection; resuming it makes it yours.`;
}

/** The schedule picker's estimate of daily trigger runtime for the chosen interval, with a warning. */
function renderEstimate(): void {
  const target = byId('schedule-estimate');
  const options = state?.scheduleOptions;
  const chosen = options?.intervals.find(
    (option) => option.every === byId<HTMLSelectElement>('schedule-every').value,
  );
  target.classList.remove('warning');
  if (!options || !chosen || chosen.minutesPerDay === null || chosen.minutesPerDay === undefined) {
    target.textContent = options?.timeZone
      ? `Times are in the spreadsheet’s time zone, ${options.timeZone}.`
      : '';
    return;
  }
  if (chosen.quotaWarning) {
    target.textContent = chosen.quotaWarning;
    target.classList.add('warning');
    return;
  }
  target.textContent = `Recent runs take about ${options.runSeconds} s: about ${chosen.minutesPerDay} of the ${options.quotaMinutesPerDay ?? 90} minutes of trigger time Apps Script allows a day.`;
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
  // The account line says who is connected; the status line has nothing to add.
  say('');
  focusFirst();
}

async function askDisconnect(): Promise<void> {
  show(byId('disconnect-box'), true);
  byId('disconnect-cancel').focus();
}

async function disconnect(): Promise<void> {
  show(byId('disconnect-box'), false);
  if ((await step('Disconnecting…', 'Could not disconnect', () => run('disconnect'))) === undefined) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(
    'Disconnected. Your API key was deleted from this add-on for your Google account; it still works on the service until you revoke it there.',
  );
  focusFirst();
}

async function findTables(event: Event): Promise<void> {
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
  if (state) renderOwnSheet(state);
  byId('table-list').querySelector<HTMLInputElement>('input:checked')?.focus();
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
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(`Linked “${info.sheetName}” to ${info.tableName}. Choose Pull to bring its rows in.`);
  byId('pull').focus();
}

type SyncName = 'pullActiveSheet' | 'pushActiveSheet' | 'syncActiveSheet';

/**
 * Runs a sync operation, polling getState for its progress (numbers) while it runs. The last run's
 * result and any old error go away when it starts; its own result shows in one place, "Last run".
 */
async function operate(label: string, call: () => Promise<SyncSummary>): Promise<void> {
  const progress = byId('progress');
  operating = true;
  show(byId('summary'), false);
  progress.textContent = label;
  show(progress, true);
  let running = true;
  const poll = async (): Promise<void> => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (!running) break;
      try {
        const now = await run('getState');
        if (running && now.progress) progress.textContent = describeProgress(now.progress);
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
      operating = false;
      show(progress, false);
    }
  });
  if (!summary) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  renderSummary(summary);
  renderHeldPanel(summary.held, () => {
    // Sends exactly the held edits shown; changed since, they are held again with new examples.
    void operate('Pushing…', () => run('pushActiveSheet', { confirmHeld: summary.held?.key ?? false }));
  });
  say('');
  await step('Reading the conflicts…', 'Could not read the conflicts', () => loadConflicts(summary));
  say('');
}

function syncAction(name: SyncName, label: string): () => Promise<void> {
  return () => operate(label, () => run(name));
}

/** Settles conflicts: the lines given, or every line in conflict. */
async function resolve(keep: 'mine' | 'theirs', only?: string[]): Promise<void> {
  // "For all" names the lines the person was shown; when the list was cut short, every line in conflict.
  const summary = state?.lastSummary;
  const shown = (summary?.issues ?? [])
    .filter((issue) => issue.kind === 'conflict')
    .map((issue) => issue.rowId);
  const rowIds = only ?? (summary && summary.conflicts > shown.length ? [] : shown);
  const label = keep === 'mine' ? 'Keeping your values…' : 'Taking the service’s values…';
  await operate(label, () => run('resolveConflicts', rowIds.length ? { keep, rowIds } : { keep }));
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
  say(`Scheduled: ${info.label.toLowerCase()}.${info.quotaWarning ? ` ${info.quotaWarning}` : ''}`);
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
  const resumed = await step('Resuming…', 'Could not resume the schedule', () => run('resumeSchedule'));
  if (resumed === undefined) return;
  await step('Loading…', 'Could not load the sidebar', refresh);
  say(resumed?.notice ? `The schedule runs again. ${resumed.notice}` : 'The schedule runs again.');
}

async function askUnlink(): Promise<void> {
  show(byId('unlink-confirm-box'), true);
  byId('unlink-cancel').focus();
}

async function unlink(): Promise<void> {
  show(byId('unlink-confirm-box'), false);
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
on('disconnect', 'click', askDisconnect);
on('disconnect-confirm', 'click', disconnect);
on('disconnect-cancel', 'click', async () => {
  show(byId('disconnect-box'), false);
  byId('disconnect').focus();
});
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
on('unlink', 'click', askUnlink);
on('unlink-confirm', 'click', unlink);
on('unlink-cancel', 'click', async () => {
  show(byId('unlink-confirm-box'), false);
  byId('unlink').focus();
});
byId('schedule-every').addEventListener('change', renderEstimate);

guarded(async () => {
  await step('Loading…', 'Could not load the sidebar', refresh);
  const loaded = state as SidebarState | null;
  if (loaded) say(loaded.connection ? '' : 'Connect with your service address and API key.');
  if (loaded?.link) await step('', 'Could not read the conflicts', () => loadConflicts(loaded.lastSummary));
})(new Event('load'));
