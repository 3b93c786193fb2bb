// The schedule: what runs how often and whose key runs it, its last and next run, a pause after
// failures (with Resume), the picker's estimate of daily trigger time, Save and Remove.
import type { SidebarState } from '../shared/types';
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

/** The schedule picker's estimate of daily trigger runtime for the chosen interval, with a warning. */
function renderEstimate(sidebar: Sidebar): void {
  const target = byId('schedule-estimate');
  const options = sidebar.state()?.scheduleOptions;
  const chosen = options?.intervals.find(
    (option) => option.every === byId<HTMLSelectElement>('schedule-every').value,
  );
  target.classList.remove('warning');
  // No estimate without runs that took measurable time: "0 of 90 minutes" would be a guess from nothing.
  if (!options?.runSeconds || !chosen?.minutesPerDay) {
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

export function wireSchedulePanel(sidebar: Sidebar): void {
  on('schedule-form', 'submit', (event) => saveSchedule(sidebar, event));
  on('schedule-remove', 'click', () => removeSchedule(sidebar));
  on('schedule-resume', 'click', () => resumeSchedule(sidebar));
  byId('schedule-every').addEventListener('change', () => renderEstimate(sidebar));
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
