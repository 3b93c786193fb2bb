// "Columns shown": which read-only fields a pull adds besides id and lMod, and whether createdBy
// and lModBy show as e-mails; saved for the next pull.
import type { LinkInfo } from '../shared/types';
import type { Sidebar } from './context';
import { byId } from './dom';
import { on, say, step } from './feedback';
import { run } from './server';

function fixedChoices(): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>('#fixed-choices input')];
}

export function renderOptionsPanel(link: LinkInfo): void {
  for (const box of fixedChoices()) box.checked = link.fixedFields.includes(box.value);
  byId<HTMLInputElement>('show-emails').checked = link.showEmails;
}

export function wireOptionsPanel(sidebar: Sidebar): void {
  on('options-form', 'submit', (event) => saveOptions(sidebar, event));
}

async function saveOptions(sidebar: Sidebar, event: Event): Promise<void> {
  event.preventDefault();
  const fixedFields = fixedChoices()
    .filter((box) => box.checked)
    .map((box) => box.value);
  const showEmails = byId<HTMLInputElement>('show-emails').checked;
  const saved = await step('Saving…', 'Could not save the columns shown', () =>
    run('setLinkOptions', { fixedFields, showEmails }),
  );
  if (!saved) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say('Saved. The next pull shows these columns.');
}
