// The sync panel: what the sheet is linked to, Pull / Push / Sync with their progress while they
// run (and while a run waits for its next execution), then the result in "Last run", a held push,
// the conflicts and their settling, and selecting a line's row.
import { describeProgress } from '../core/progress';
import type { SidebarState, SyncSummary } from '../shared/types';
import { type ConflictActions, loadConflicts } from './conflicts-panel';
import type { Sidebar } from './context';
import { byId, show, when } from './dom';
import { isBusy, on, say, step } from './feedback';
import { type HeldActions, renderHeldPanel } from './held-panel';
import { showReviews } from './review-panel';
import { run } from './server';
import { renderSummary } from './summary-panel';

const POLL_MS = 1500;
/** While a run waits for its next execution, the sidebar looks again this often. */
const CONTINUING_POLL_MS = 10_000;

let continuingTimer: number | null = null;
/** A run started from this sidebar is under way: its own progress line is on show. */
let operating = false;

/** The progress of a run that goes on in its next execution, and, on a linked sheet, the link and last run. */
export function renderRunPanel(sidebar: Sidebar, current: SidebarState): void {
  renderContinuing(sidebar, current);
  if (current.link) {
    const { tableAppName, tableName, sheetName, lastSyncAt, lastSyncLocal } = current.link;
    byId('link-info').textContent =
      `Sheet “${sheetName}” ↔ ${tableAppName} › ${tableName}. Last sync: ${lastSyncLocal ?? when(lastSyncAt, current.scheduleOptions.timeZone)}.`;
    renderSummary(current.lastSummary, selectRow);
  }
  // A held push waits for a choice whenever the sidebar opens, until one is taken.
  renderHeldPanel(current.link ? current.held : null, heldActions(sidebar));
}

/** What the held panel's buttons do on this page. */
function heldActions(sidebar: Sidebar): HeldActions {
  return {
    // Sends exactly the held edits shown; changed since, they are held again with new examples.
    pushAnyway: (key) =>
      void operate(sidebar, 'Pushing…', () => run('pushActiveSheet', { confirmHeld: key })),
    putBack: () => void operate(sidebar, 'Putting the service’s values back…', () => run('putBackHeld')),
    keepEditing: () =>
      void step('Keeping your edits…', 'Could not end the hold', async () => {
        await run('keepEditingHeld');
        await sidebar.refresh();
        return true;
      }).then((done) => {
        if (done) say('The held edits stay in the sheet, not sent.');
      }),
  };
}

/** A run that continues in its next execution shows its numbers, and the sidebar looks again later. */
function renderContinuing(sidebar: Sidebar, current: SidebarState): void {
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
      if (!isBusy()) void sidebar.refresh().catch(() => undefined);
    }, CONTINUING_POLL_MS);
  }
}

export function wireRunPanel(sidebar: Sidebar): void {
  on('pull', 'click', () => operate(sidebar, 'Pulling…', () => run('pullActiveSheet')));
  on('pull-everything', 'click', () => operate(sidebar, 'Pulling everything…', () => run('pullEverything')));
  on('push', 'click', () => operate(sidebar, 'Pushing…', () => run('pushActiveSheet')));
  on('sync-both', 'click', () => operate(sidebar, 'Syncing…', () => run('syncActiveSheet')));
  on('keep-mine', 'click', () => resolve(sidebar, 'mine'));
  on('take-theirs', 'click', () => resolve(sidebar, 'theirs'));
}

/** What the conflict cards' buttons do on this page. */
function conflictActions(sidebar: Sidebar): ConflictActions {
  return { resolve: (keep, rowIds) => resolve(sidebar, keep, rowIds), selectRow };
}

/** Reads and shows the conflicts of `summary`, if it has any. */
export function showConflicts(sidebar: Sidebar, summary: SyncSummary | null): Promise<void> {
  return loadConflicts(summary, conflictActions(sidebar));
}

/**
 * Runs a sync operation, polling getState for its progress (numbers) while it runs. The last run's
 * result and any old error go away when it starts; its own result shows in one place, "Last run".
 */
async function operate(sidebar: Sidebar, label: string, call: () => Promise<SyncSummary>): Promise<void> {
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
  await step('Loading…', 'Could not load the sidebar', sidebar.refresh);
  renderSummary(summary, selectRow);
  say('');
  await step('Reading the conflicts…', 'Could not read the conflicts', () => showConflicts(sidebar, summary));
  await step('Reading what waits for review…', 'Could not read what waits for review', () =>
    showReviews(sidebar, summary),
  );
  say('');
}

/** Settles conflicts: the lines given, or every line in conflict. */
async function resolve(sidebar: Sidebar, keep: 'mine' | 'theirs', only?: string[]): Promise<void> {
  // "For all" names the lines the person was shown; when the list was cut short, every line in conflict.
  const summary = sidebar.state()?.lastSummary;
  const shown = (summary?.issues ?? [])
    .filter((issue) => issue.kind === 'conflict')
    .map((issue) => issue.rowId);
  const rowIds = only ?? (summary && summary.conflicts > shown.length ? [] : shown);
  const label = keep === 'mine' ? 'Keeping your values…' : 'Taking the service’s values…';
  await operate(sidebar, label, () => run('resolveConflicts', rowIds.length ? { keep, rowIds } : { keep }));
}

async function selectRow(row: number): Promise<void> {
  const done = await step(`Selecting row ${row}…`, 'Could not select the line', () =>
    run('selectSheetRow', { row }),
  );
  if (done) say(`Row ${done.row} is selected in the sheet.`);
}
