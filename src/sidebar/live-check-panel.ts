// The live check line (issue 25): while the sidebar is visible on a linked sheet it asks the server
// every 30 s whether the table changed (checkForChanges applies what did, as a pull) and says so in
// one line, "Up to date · 14:05" or "3 rows updated · 14:05". It never takes focus, never marks the
// page busy and never shows the error box: what the person is doing in the sidebar goes on.
import type { LiveCheckResult } from '../shared/types';
import type { Sidebar } from './context';
import { byId, show } from './dom';
import { isBusy } from './feedback';
import { showConflicts } from './run-panel';
import { run } from './server';

/** How often the sidebar looks for changes while it is visible. */
export const CHECK_EVERY_MS = 30_000;

let timer: number | null = null;
let checking = false;
/** When the last check started (the page's clock, ms); 0 before any. */
let lastCheckAt = 0;
/** The service cannot say what changed: the sidebar stops looking until it is opened again. */
let stopped = false;

/** Starts the checks: every CHECK_EVERY_MS while visible, at once on showing again when one is due. */
export function wireLiveCheck(sidebar: Sidebar): void {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') {
      cancel();
      return;
    }
    const since = Date.now() - lastCheckAt;
    schedule(sidebar, since >= CHECK_EVERY_MS ? 0 : CHECK_EVERY_MS - since);
  });
  schedule(sidebar, CHECK_EVERY_MS);
}

function cancel(): void {
  if (timer !== null) window.clearTimeout(timer);
  timer = null;
}

function schedule(sidebar: Sidebar, delayMs: number): void {
  cancel();
  if (stopped || document.visibilityState !== 'visible') return;
  timer = window.setTimeout(() => void check(sidebar), delayMs);
}

async function check(sidebar: Sidebar): Promise<void> {
  timer = null;
  const state = sidebar.state();
  // Never beside its own call, nor beside a run the person started here (that run says what it did).
  if (checking || isBusy() || !state?.link) {
    if (!checking) schedule(sidebar, CHECK_EVERY_MS);
    return;
  }
  checking = true;
  // Says a check is on its way (tests wait for it to end; nothing is shown).
  byId('live-check').dataset.checking = 'true';
  lastCheckAt = Date.now();
  const zone = state.scheduleOptions.timeZone;
  try {
    const result = await run('checkForChanges');
    render(result, zone);
    if (result.state === 'unavailable') stopped = true;
    if (result.summary && result.summary.conflicts > 0 && !isBusy())
      await showConflicts(sidebar, result.summary).catch(() => undefined);
  } catch (error) {
    // One line, replaced by the next check: a failing network never piles up messages.
    say(`Could not check for changes: ${(error as Error).message}`, new Date().toISOString(), zone, true);
  } finally {
    checking = false;
    byId('live-check').dataset.checking = 'false';
    schedule(sidebar, CHECK_EVERY_MS);
  }
}

function render(result: LiveCheckResult, zone: string | undefined): void {
  switch (result.state) {
    case 'not-linked':
      show(byId('live-check'), false);
      return;
    case 'failed':
      say(`Could not check for changes: ${result.message}`, result.checkedAt, zone, true);
      return;
    case 'unavailable':
      say(result.message, null, zone, false);
      return;
    default:
      say(result.message, result.checkedAt, zone, false);
  }
}

function say(message: string, at: string | null, zone: string | undefined, problem: boolean): void {
  const line = byId('live-check');
  const text = at === null ? message : `${message.replace(/\.$/, '')} · ${clockTime(at, zone)}`;
  if (line.textContent !== text) line.textContent = text;
  line.classList.toggle('warning', problem);
  show(line, true);
}

/** "14:05" in the spreadsheet's zone (the browser's own when it does not know that zone). */
export function clockTime(iso: string, zone: string | undefined): string {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone }).formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((each) => each.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')}`;
}
