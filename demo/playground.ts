// The playground's state on the main thread: the current simulator over dist/Code.js, the service
// emulator, the grid's Undo history, the rpcs seen, and the page's picture of it all (/grid). The
// routes (playground-routes.ts) act on it; the page server thread (front-server.ts) hands them over.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AlertAnswer,
  type AppsScriptSimulator,
  buttonsOf,
  ClientCallError,
  createSimulator,
  type ExecutionResult,
  type OpenAlert,
} from '../emulators/apps-script/index';
import type { RunningEmulator, StartOptions } from '../emulators/table-service/index';
import { followSimulatedClock } from '../emulators/table-service/simulated-clock';
import { type AdvanceReport, advanceReport, outcomesOf } from './advance-report';
import { CLIENT_SHIM } from './client-shim';
import { DialogBridge } from './dialog-bridge';
import type { Front } from './front-server';
import { GridActions } from './grid-actions';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
/** Script property read by getState().hints.baseUrl. */
export const DEMO_BASE_URL_PROPERTY = 'tas.demoBaseUrl';
/** A private helper appended to Code.js so the harness can set script properties (private: google.script.run cannot call it). */
const SET_PROPERTY_FN = 'tasHarnessSetScriptProperty_';

export interface HarnessOptions {
  /** Page server port; 0 (default) picks a free one. */
  port?: number;
  /** When `port` is taken (or not allowed), listen on a free one instead; `Harness.portRefused` says why. */
  portFallback?: boolean;
  host?: string;
  /** Pre-fill the sidebar's base URL with the emulator's (script property tas.demoBaseUrl). */
  prefillBaseUrl?: boolean;
  /** Options passed to startEmulator (default: the sample data). */
  emulator?: StartOptions;
  /** Log each rpc to stderr. */
  verbose?: boolean;
  /**
   * The simulated clock moves with this real clock between requests (true: Date.now), as in Sheets,
   * and due schedules fire as it passes; the time a run takes is the simulator's own. Default off:
   * tests move the clock only by /clock/advance.
   */
  realTime?: boolean | (() => number);
  /**
   * Real ms an add-on's dialog waits for the page's answer before its run ends as Apps Script ends a
   * run whose time runs out (and a rule break is recorded: nobody answered). Default: the run's time
   * left. Tests set a few seconds, so a dialog nobody answers fails the test instead of holding it.
   */
  dialogWaitLimitMs?: number;
}

/** One google.script.run call as the harness saw it. */
export interface RpcRecord {
  fn: string;
  args: unknown[];
  ok: boolean;
  value?: unknown;
  error?: string;
  ms: number;
}

/** A google.script.run answer as the page's stand-in receives it. */
export type RpcAnswer =
  | { ok: true; value?: unknown }
  | { ok: false; error: { name: string; message: string } };

/** The table a sheet is linked to, as the add-on stored it. */
export interface LinkedTable {
  tableAppId: string;
  tableId: string;
}

export class Playground {
  sim: AppsScriptSimulator;
  readonly rpcs: RpcRecord[] = [];
  readonly violations: string[] = [];
  readonly dialogs = new DialogBridge();
  readonly gridActions = new GridActions(() => this.sim);
  /** The line the sidebar selected last (selectSheetRow), shown highlighted. */
  selectedRow: number | null = null;
  /** The page server thread, once it listens. */
  front: Front | undefined;
  /**
   * How the schedules that fired as the clock followed real time ended, numbered so the page says
   * each once (null: none fired yet).
   */
  scheduledNews: (AdvanceReport & { id: number }) | null = null;
  readonly realNow: (() => number) | undefined;
  private realMark: number;
  private readonly code: string;

  constructor(
    readonly options: HarnessOptions,
    readonly emulator: RunningEmulator,
  ) {
    this.code = `${readFileSync(path.join(DIST, 'Code.js'), 'utf8')}\nfunction ${SET_PROPERTY_FN}(key, value) { PropertiesService.getScriptProperties().setProperty(key, value); }\n`;
    this.realNow = options.realTime === true ? Date.now : options.realTime || undefined;
    this.realMark = this.realNow?.() ?? 0;
    this.sim = this.newSimulator();
  }

  private newSimulator(): AppsScriptSimulator {
    const emulator = this.emulator;
    const created = createSimulator({
      code: this.code,
      // The service's clock is the sheet's (it runs ahead of real time by each run's simulated time,
      // and by Advance): its stamps read in step with "Last sync", and the minute the add-on waits
      // for under the service's limits is the service's minute too.
      onBeforeFetch: followSimulatedClock(
        () => emulator.url,
        () => this.sim.clock.now(),
      ),
      ...(this.realNow ? { startTime: this.realNow() } : {}),
      distDir: DIST,
      users: [{ email: 'alice@acme.test' }],
      spreadsheetName: 'Deals tracker',
    });
    if (this.options.prefillBaseUrl) {
      const set = created.run(SET_PROPERTY_FN, [DEMO_BASE_URL_PROPERTY, emulator.url]);
      if (!set.ok) throw new Error(`Could not set ${DEMO_BASE_URL_PROPERTY}: ${set.error?.message}`);
    }
    // Sheets runs onOpen when the spreadsheet opens: that builds the Extensions menu.
    const opened = created.run('onOpen');
    if (!opened.ok) throw new Error(`onOpen failed: ${opened.error?.message}`);
    // From now on an alert waits for the person on the page.
    created.ui.answerAlert = (alert) => this.askThePage(alert);
    return created;
  }

  /**
   * The person answers an alert on the page: the run waits (this thread blocks) until they do. The
   * time they read counts on a clock that follows real time; a run whose time runs out meanwhile ends.
   */
  private askThePage(alert: OpenAlert): AlertAnswer {
    const readFrom = this.realNow?.() ?? 0;
    const timeLeft = alert.endsAt - alert.at;
    const limit = Math.min(this.options.dialogWaitLimitMs ?? Number.POSITIVE_INFINITY, timeLeft);
    const question = { title: alert.title, prompt: alert.prompt, buttons: buttonsOf(alert.buttons) };
    const button = this.dialogs.ask(question, limit, (open) =>
      this.front?.dialog(open, open ? JSON.stringify(this.sim._asPerson(() => this.grid())) : undefined),
    );
    if (button === null) {
      if (limit < timeLeft)
        this.violations.push(
          `Nobody answered the dialog "${alert.title}" within ${limit} ms: answer it on the page.`,
        );
      return { button: 'CLOSE', afterMs: timeLeft + 1 };
    }
    return { button, afterMs: this.realNow ? Math.max(0, this.realNow() - readFrom) : 0 };
  }

  /** The sidebar's page, as showSidebar builds it, with the google.script stand-in. */
  sidebarHtml(): string {
    const shown = this.sim.run('showSidebar');
    const sidebar = this.sim.ui.sidebars[this.sim.ui.sidebars.length - 1];
    if (!shown.ok || !sidebar)
      throw new Error(`showSidebar failed: ${shown.error?.message ?? 'no sidebar shown'}`);
    // The stand-in must exist before the page's own script runs, as google.script does in Sheets.
    return sidebar.html.replace(/<head>/i, () => `<head>\n<script>${CLIENT_SHIM}</script>`);
  }

  /** One google.script.run call of the sidebar, recorded; a rule break fails it loudly. */
  rpc(fn: string, args: unknown[]): RpcAnswer {
    const started = Date.now();
    let answer: RpcAnswer;
    try {
      const result = this.sim.callFromClient(fn, args);
      answer = result.ok
        ? { ok: true, value: result.value }
        : {
            ok: false,
            error: { name: result.error?.name ?? 'Error', message: result.error?.message ?? 'failed' },
          };
    } catch (error) {
      if (!(error instanceof ClientCallError)) throw error;
      // Real google.script.run may drop such a call silently; the harness fails it loudly instead.
      this.violations.push(error.message);
      answer = { ok: false, error: { name: 'ClientCallError', message: error.message } };
    }
    if (fn === 'selectSheetRow' && answer.ok) this.selectedRow = (answer.value as { row: number }).row;
    const record: RpcRecord = { fn, args, ok: answer.ok, ms: Date.now() - started };
    if (answer.ok) record.value = answer.value;
    else record.error = answer.error.message;
    this.rpcs.push(record);
    if (this.options.verbose)
      console.error(`rpc ${fn} ${answer.ok ? 'ok' : `failed: ${record.error}`} (${record.ms} ms)`);
    return answer;
  }

  /** The table the active sheet is linked to, from the add-on's document properties. */
  activeLink(): LinkedTable | null {
    const sheetId = this.sim.spreadsheet.getActiveSheet().getSheetId();
    const text = this.sim.properties('document')[`tas.link.${sheetId}`];
    if (!text) return null;
    const link = JSON.parse(text) as LinkedTable;
    return { tableAppId: link.tableAppId, tableId: link.tableId };
  }

  /** The columns of the active sheet's table on the service (none when it is not linked). */
  async serviceColumns(): Promise<Array<{ id: string; name: string; type: string }>> {
    const link = this.activeLink();
    if (!link) return [];
    const state = await this.emulator.admin.state();
    const table = state.apps
      .find((app) => app.id === link.tableAppId)
      ?.tables.find((each) => each.id === link.tableId);
    return (table?.columns ?? [])
      .filter((column) => !column.deleted)
      .map((column) => ({ id: column.id, name: column.name, type: column.type }));
  }

  /** The page's picture: menu, toasts, clock, sheets, the active sheet's cells. */
  grid(): unknown {
    const sim = this.sim;
    const toast = sim.ui.toasts[sim.ui.toasts.length - 1];
    const menu = sim.ui.menus.find((each) => each.addon);
    return {
      menu: menu ? { name: menu.name, items: menu.items } : null,
      toasts: sim.ui.toasts.length,
      outbox: sim.mail.length,
      now: new Date(sim.clock.now()).toISOString(),
      clockFollowsRealTime: this.realNow !== undefined,
      timeZone: sim.spreadsheet.getSpreadsheetTimeZone(),
      linked: this.activeLink() !== null,
      users: this.emulator.users.map((user) => ({
        id: user.userId,
        name: `${user.firstName} ${user.lastName}`.trim(),
      })),
      spreadsheetName: sim.spreadsheet.getName(),
      sheets: sim.spreadsheet
        .getSheets()
        .filter((sheet) => !sheet.isSheetHidden())
        .map((sheet) => ({ id: sheet.getSheetId(), name: sheet.getName() })),
      active: sim.snapshotSheet(sim.spreadsheet.getActiveSheet().getSheetId()),
      selectedRow: this.selectedRow,
      scheduled: this.scheduledNews,
      // Title and message apart: a title may hold ": " itself ("Table App Sync: Pushed with 1 error").
      toast: toast ? { title: toast.title ?? '', message: toast.msg } : null,
    };
  }

  /** Runs `work` (which runs script code) with the page told a run is under way, so it stays usable. */
  whileBusy<T>(what: string, work: () => T): T {
    this.front?.busy(what);
    try {
      return work();
    } finally {
      this.front?.busy(null);
      // The run's time is counted by the simulator itself; real time resumes from here.
      if (this.realNow) this.realMark = this.realNow();
    }
  }

  /** Moves the simulated clock on by the real time since the last request, firing the schedules due. */
  followRealTime(): void {
    if (!this.realNow) return;
    const at = this.realNow();
    if (at <= this.realMark) return;
    this.sim.clock.advance(at - this.realMark);
    this.realMark = at;
    const report = this.fireScheduled('As the clock followed real time', () => this.sim.fireDueTriggers());
    if (report.fired > 0) this.scheduledNews = { id: (this.scheduledNews?.id ?? 0) + 1, ...report };
  }

  /** Runs `fire` (which fires due schedules) and says how the runs ended, led by `lead`. */
  fireScheduled(lead: string, fire: () => ExecutionResult[]): AdvanceReport & { fired: number } {
    const [pausedBefore, mailsBefore] = [this.pausedSchedules(), this.sim.mail.length];
    const results = this.whileBusy('Scheduled runs are running', fire);
    const paused = this.pausedSchedules().filter((sheet) => !pausedBefore.includes(sheet));
    const mails = this.sim.mail.length - mailsBefore;
    return { fired: results.length, ...advanceReport(lead, outcomesOf(results), paused, mails) };
  }

  /** Sets the service's clock to the sheet's: before the service acts without the add-on asking. */
  async serviceClockToSheets(): Promise<void> {
    await this.emulator.admin.setClock({ nowMs: this.sim.clock.now() });
  }

  /** The sheets whose schedule has paused itself, from the add-on's document properties. */
  pausedSchedules(): string[] {
    const paused: string[] = [];
    for (const [key, text] of Object.entries(this.sim.properties('document'))) {
      if (!key.startsWith('tas.link.')) continue;
      const link = JSON.parse(text) as { sheetName?: string; schedule?: { paused?: boolean } | null };
      if (link.schedule?.paused) paused.push(link.sheetName ?? key.slice('tas.link.'.length));
    }
    return paused;
  }

  /** The mails the add-on sent (MailApp), newest first, with the sheet's time of each. */
  outbox(): Array<{ to: string; subject: string; body: string; from: string; at: string }> {
    return [...this.sim.mail].reverse().map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      body: mail.body,
      from: mail.user,
      at: new Date(mail.at).toISOString(),
    }));
  }

  /** Fresh sample data on the emulator and a fresh simulator (empty spreadsheet, no properties). */
  async reset(): Promise<void> {
    await this.emulator.admin.reset('sample');
    // The new simulator's clock starts again: the windows start counting from zero with it.
    if (this.options.emulator?.platform)
      await this.emulator.admin.setPlatform(this.options.emulator.platform);
    this.sim = this.newSimulator();
    await this.serviceClockToSheets();
    this.gridActions.clear();
    if (this.realNow) this.realMark = this.realNow();
    this.selectedRow = null;
    this.scheduledNews = null;
    this.rpcs.length = 0;
    this.violations.length = 0;
  }
}
