// "Columns shown": which read-only fields a pull adds besides id and lMod, and whether createdBy
// and lModBy show as e-mails; saved for the next pull.
import type { LinkInfo, QuotaUse } from '../shared/types';
import type { Sidebar } from './context';
import { byId } from './dom';
import { on, say, step } from './feedback';
import { run } from './server';

function fixedChoices(): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>('#fixed-choices input')];
}

export function renderOptionsPanel(link: LinkInfo, livePlan: QuotaUse | null | undefined): void {
  for (const box of fixedChoices()) box.checked = link.fixedFields.includes(box.value);
  byId<HTMLInputElement>('show-emails').checked = link.showEmails;
  byId<HTMLInputElement>('live-switch').checked = link.live?.mine === true;
  // Whose key sends what the person types: theirs, another live sender's, or nobody's yet.
  byId('live-sender').textContent =
    link.live?.sentWith ?? 'Edits you type are sent when someone pushes or a schedule runs.';
  // What it uses a day of the person's quotas, before it is turned on (the refusal when it runs out).
  const plan = byId('live-plan');
  plan.textContent = livePlan ? (livePlan.refusal ?? livePlan.usage) : '';
  plan.classList.toggle('warning', !!livePlan?.refusal);
}

export function wireOptionsPanel(sidebar: Sidebar): void {
  on('options-form', 'submit', (event) => saveOptions(sidebar, event));
  on('live-switch', 'change', () => saveLive(sidebar));
}

async function saveLive(sidebar: Sidebar): Promise<void> {
  const box = byId<HTMLInputElement>('live-switch');
  const live = box.checked;
  const saved = await step('Saving…', 'Could not change "Send edits as I type"', () =>
    run('setLinkOptions', { live }),
  );
  if (!saved) {
    box.checked = !live;
    return;
  }
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say(live ? 'Edits you type now go to the table as you type.' : 'Edits go to the table when you push.');
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
