// The schedule: what runs how often and whose key runs it, its last and next run, a pause after
// failures (with Resume), what the choice uses of the day's quotas (per account kind), Save and Remove.
import type { AccountKind, ScheduleMode, SidebarState } from '../shared/types';
import type { Sidebar } from './context';
import { byId, el, show, when } from './dom';
import { on, say, step } from './feedback';
import { run } from './server';

const DEFAULT_EVERY = 'h1';

export function renderSchedulePanel(sidebar: Sidebar, current: SidebarState): void {
  const every = byId<HTMLSelectElement>('schedule-every');
  // Hourly until the person picks: a minute schedule spends the daily trigger time fast.
  const wanted = current.schedule?.every ?? (every.value || DEFAULT_EVERY);
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
    ? ` Last run ${schedule.lastRunLocal ?? when(schedule.lastRunAt, schedule.timeZone)}${zone}: ${(schedule.lastOutcome ?? 'no outcome').replace(/\.$/, '')}.`
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
  renderEstimate(sidebar);
}

/** Whose key runs the schedule, and what that means for everyone who edits the sheet. */
function ownerLine(schedule: NonNullable<SidebarState['schedule']>): string {
  if (schedule.ownedByYou)
    return 'Runs with your API key under your Google account: edits anyone makes in this sheet are sent to the service in your name.';
  const who = schedule.ownerName ?? 'another person';
  return `Runs with the API key of ${who}: edits anyone makes in this sheet are sent to the service in that person’s name. Changing the schedule needs your own connection; resuming it makes it yours.`;
}

/**
 * What the chosen mode and interval would use a day of the person's URL fetch calls and trigger time
 * (planned on the server from the link's runs); a setting that runs out shows its refusal instead.
 */
function renderEstimate(sidebar: Sidebar): void {
  const target = byId('schedule-estimate');
  const options = sidebar.state()?.scheduleOptions;
  const account = byId<HTMLSelectElement>('schedule-account');
  if (options?.accountKind) account.value = options.accountKind;
  const chosen = options?.intervals.find(
    (option) => option.every === byId<HTMLSelectElement>('schedule-every').value,
  );
  const mode = byId<HTMLSelectElement>('schedule-mode').value as ScheduleMode;
  const use = chosen?.use?.[mode];
  target.classList.remove('warning');
  // No estimate before runs tell one: "0 of 90 minutes" would be a guess from nothing.
  if (!use || (use.urlFetches === null && !use.triggerMinutes)) {
    target.textContent = options?.timeZone
      ? `Times are in the spreadsheet’s time zone, ${options.timeZone}.`
      : '';
    return;
  }
  target.textContent = use.refusal ?? use.usage;
  if (use.refusal) target.classList.add('warning');
}

async function chooseAccount(sidebar: Sidebar): Promise<void> {
  const kind = byId<HTMLSelectElement>('schedule-account').value as AccountKind;
  const saved = await step('Saving…', 'Could not save the account kind', () => run('setAccountKind', kind));
  if (!saved) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
}

export function wireSchedulePanel(sidebar: Sidebar): void {
  on('schedule-form', 'submit', (event) => saveSchedule(sidebar, event));
  on('schedule-remove', 'click', () => removeSchedule(sidebar));
  on('schedule-resume', 'click', () => resumeSchedule(sidebar));
  byId('schedule-every').addEventListener('change', () => renderEstimate(sidebar));
  byId('schedule-mode').addEventListener('change', () => renderEstimate(sidebar));
  byId('schedule-account').addEventListener('change', () => chooseAccount(sidebar));
}

async function saveSchedule(sidebar: Sidebar, event: Event): Promise<void> {
  event.preventDefault();
  const mode = byId<HTMLSelectElement>('schedule-mode').value as 'pull' | 'push' | 'sync';
  const every = byId<HTMLSelectElement>('schedule-every').value;
  const info = await step('Saving the schedule…', 'Could not save the schedule', () =>
    run('setSchedule', { mode, every }),
  );
  if (!info) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say(`Scheduled: ${info.label.toLowerCase()}.${info.quotaWarning ? ` ${info.quotaWarning}` : ''}`);
}

async function removeSchedule(sidebar: Sidebar): Promise<void> {
  if (
    (await step('Removing the schedule…', 'Could not remove the schedule', () => run('clearSchedule'))) ===
    undefined
  )
    return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say('The schedule was removed.');
}

async function resumeSchedule(sidebar: Sidebar): Promise<void> {
  const resumed = await step('Resuming…', 'Could not resume the schedule', () => run('resumeSchedule'));
  if (resumed === undefined) return;
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  say(resumed?.notice ? `The schedule runs again. ${resumed.notice}` : 'The schedule runs again.');
}
