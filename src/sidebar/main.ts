// The sidebar: connect, link, pull/push/sync with progress and conflicts, schedule, unlink. This file
// wires the panels (one module each) to the page: which sections show, the state they render, the load.
// Plain DOM; every text from the service or the sheet is set with textContent.
import type { SidebarState } from '../shared/types';
import { renderConnectionPanel, renderKeySafety, wireConnectionPanel } from './connection-panel';
import type { Sidebar } from './context';
import { byId, show } from './dom';
import { guarded, say, step } from './feedback';
import { focusLinkStep, loadTableApps, renderLinkPanel, wireLinkPanel } from './link-panel';
import { wireLiveCheck } from './live-check-panel';
import { renderOptionsPanel, wireOptionsPanel } from './options-panel';
import { showReviews } from './review-panel';
import { renderRunPanel, showConflicts, wireRunPanel } from './run-panel';
import { renderSchedulePanel, wireSchedulePanel } from './schedule-panel';
import { run } from './server';

let state: SidebarState | null = null;

const sidebar: Sidebar = {
  state: () => state,
  refresh: async () => {
    state = await run('getState');
    render(state);
    // The link step lists the person's table apps when it shows (never failing the refresh).
    await loadTableApps(state);
  },
  focusFirst,
};

/** Shows the sections of the step the person is at, each rendered from `current`. */
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
  renderConnectionPanel(current);
  renderLinkPanel(current);
  renderRunPanel(sidebar, current);
  if (current.link) {
    renderSchedulePanel(sidebar, current);
    renderOptionsPanel(current.link, current.livePlan);
  }
}

/** Moves focus to the first control of the step the person is at. */
function focusFirst(): void {
  if (!state?.connection) byId(byId<HTMLInputElement>('base-url').value ? 'api-key' : 'base-url').focus();
  else if (!state.link) focusLinkStep();
  else byId('pull').focus();
}

wireConnectionPanel(sidebar);
wireOptionsPanel(sidebar);
wireLinkPanel(sidebar);
wireRunPanel(sidebar);
wireSchedulePanel(sidebar);
wireLiveCheck(sidebar);

guarded(async () => {
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  const loaded = state as SidebarState | null;
  if (loaded) say(loaded.connection ? '' : 'Connect with your service address and API key.');
  if (loaded?.link) {
    await step('', 'Could not read the conflicts', () => showConflicts(sidebar, loaded.lastSummary));
    await step('', 'Could not read what waits for review', () => showReviews(sidebar, loaded.lastSummary));
  }
})(new Event('load'));
