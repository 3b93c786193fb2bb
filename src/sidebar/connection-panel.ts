// The connection: the form that saves a service address and API key, then the account line with
// "Check my key", Disconnect (after a confirmation) and the import of the account's members.
import type { SidebarState } from '../shared/types';
import type { Sidebar } from './context';
import { byId, show } from './dom';
import { fail, on, say, step } from './feedback';
import { run } from './server';

/**
 * In a bound script, the warning next to where a key (connect form) or a schedule (schedule form) is
 * saved: one element, moved to the form on show, folded to one line with the whole text in details.
 */
export function renderKeySafety(current: SidebarState): void {
  const warning = current.keySafety?.warning ?? null;
  const box = byId<HTMLDetailsElement>('key-safety');
  byId('key-safety-text').textContent = warning ?? '';
  const form = !current.connection ? byId('connect-form') : current.link ? byId('schedule-form') : null;
  if (form) form.insertBefore(box, form.querySelector(':scope > .buttons, :scope > button[type="submit"]'));
  show(box, warning !== null && form !== null);
}

/** Not connected: the address the demo suggests, once. Connected: who is. */
export function renderConnectionPanel(current: SidebarState): void {
  if (!current.connection) {
    const baseUrl = byId<HTMLInputElement>('base-url');
    if (!baseUrl.value && current.hints.baseUrl) baseUrl.value = current.hints.baseUrl;
  } else {
    const { firstName, lastName, email } = current.connection;
    byId('connected-as').textContent = `Connected as ${`${firstName} ${lastName}`.trim()} <${email}>`;
  }
}

export function wireConnectionPanel(sidebar: Sidebar): void {
  on('connect-form', 'submit', (event) => connect(sidebar, event));
  on('disconnect', 'click', askDisconnect);
  on('disconnect-confirm', 'click', () => disconnect(sidebar));
  on('disconnect-cancel', 'click', async () => {
    show(byId('disconnect-box'), false);
    byId('disconnect').focus();
  });
  on('refresh-profile', 'click', () => refreshProfile(sidebar));
  on('members-form', 'submit', importMembers);
}

async function connect(sidebar: Sidebar, event: Event): Promise<void> {
  event.preventDefault();
  const baseUrl = byId<HTMLInputElement>('base-url').value.trim();
  const keyInput = byId<HTMLInputElement>('api-key');
  if (!baseUrl || !keyInput.value.trim()) {
    fail('Not connected', new Error('Enter the service address and your API key, then choose Connect.'));
    (baseUrl ? keyInput : byId('base-url')).focus();
    return;
  }
  const answer = await step('Checking your key…', 'Could not connect', () =>
    run('connectFromSidebar', { baseUrl, apiKey: keyInput.value }),
  );
  if (!answer) {
    keyInput.focus();
    return;
  }
  if ('connected' in answer) {
    // The cursor goes to the field the refusal is about: a wrong address is fixed in the address.
    fail('Could not connect', new Error(answer.message));
    byId(answer.field === 'baseUrl' ? 'base-url' : 'api-key').focus();
    return;
  }
  keyInput.value = '';
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  // The account line says who is connected; the status line has nothing to add.
  say('');
  sidebar.focusFirst();
}

async function askDisconnect(): Promise<void> {
  show(byId('disconnect-box'), true);
  byId('disconnect-cancel').focus();
}

async function disconnect(sidebar: Sidebar): Promise<void> {
  show(byId('disconnect-box'), false);
  if ((await step('Disconnecting…', 'Could not disconnect', () => run('disconnect'))) === undefined) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say(
    'Disconnected. Your API key was deleted from this add-on for your Google account; it still works on the service until you revoke it there.',
  );
  sidebar.focusFirst();
}

async function refreshProfile(sidebar: Sidebar): Promise<void> {
  const info = await step('Checking your key…', 'Your key does not work', () =>
    run('getConnection', { refresh: true }),
  );
  if (!info) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
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
