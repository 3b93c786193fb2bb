// The playground server behind `npm run demo` (and the browser tests' harness): the table service
// emulator, the Apps Script simulator over dist/Code.js, and a page server that gives the built
// sidebar a google.script.run forwarding to the simulator.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AlertAnswer,
  type AppsScriptSimulator,
  buttonsOf,
  ClientCallError,
  createSimulator,
  type EditFiring,
  type OpenAlert,
} from '../emulators/apps-script/index';
import {
  type RunningEmulator,
  SAMPLE,
  type StartOptions,
  startEmulator,
} from '../emulators/table-service/index';
import { followSimulatedClock } from '../emulators/table-service/simulated-clock';
import { CLIENT_SHIM } from './client-shim';
import { DialogBridge } from './dialog-bridge';
import { type Front, type FrontReply, type FrontRequest, ListenError, startFront } from './front-server';
import { type GridAction, GridActionRefused, GridActions } from './grid-actions';
import { serviceValue } from './service-values';
import { FAVICON, SPREADSHEET_PAGE } from './spreadsheet-page';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
/** Script property read by getState().hints.baseUrl. */
export const DEMO_BASE_URL_PROPERTY = 'tas.demoBaseUrl';
/** A private helper appended to Code.js so the harness can set script properties (private: google.script.run cannot call it). */
const SET_PROPERTY_FN = 'tasHarnessSetScriptProperty_';

export { SAMPLE };

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

export interface Harness {
  /** Base URL of the page server: `/` the playground, `/sidebar` the sidebar alone. */
  readonly url: string;
  /** Set when the asked port could not be used and `portFallback` chose another: why (e.g. EADDRINUSE). */
  readonly portRefused?: { port: number; code: string };
  readonly emulator: RunningEmulator;
  /** The current simulator (replaced by reset()). */
  readonly sim: AppsScriptSimulator;
  /** Alice's API key and the other sample users' keys. */
  readonly keys: Record<string, string>;
  /** Every rpc since the last reset. */
  readonly rpcs: RpcRecord[];
  /** google.script.run rule breaks (bad arguments or return values); a passing journey has none. */
  readonly violations: string[];
  /** Fresh sample data on the emulator and a fresh simulator (empty spreadsheet, no properties). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What the edit triggers a typed cell fired did, as the playground says it (null: none sent anything,
 * e.g. a new line still being typed or a sheet not live).
 */
export function liveSaid(firings: readonly EditFiring[]): string | null {
  for (const firing of firings) {
    if (!firing.result.ok)
      return `Send edits as I type failed: ${firing.result.error?.message ?? 'no reason given'}`;
  }
  const summaries = firings
    .map((firing) => firing.result.value as { message?: string; skipped?: boolean } | null)
    .filter((summary) => summary?.message && !summary.skipped);
  const last = summaries.at(-1);
  return last?.message ? `Send edits as I type: ${last.message}` : null;
}

function reply(status: number, type: string, body: string): FrontReply {
  return { status, type, body };
}

function json(status: number, value: unknown): FrontReply {
  return reply(status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** What the page server thread answers alone, even while a run holds this thread. */
const STATICS = {
  '/': { type: 'text/html; charset=utf-8', body: SPREADSHEET_PAGE },
  '/favicon.ico': { type: 'image/svg+xml', body: FAVICON },
};

/** Starts the emulator, a simulator over the built dist/Code.js, and the page server. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const code = `${readFileSync(path.join(DIST, 'Code.js'), 'utf8')}\nfunction ${SET_PROPERTY_FN}(key, value) { PropertiesService.getScriptProperties().setProperty(key, value); }\n`;
  const emulator = await startEmulator({ data: 'sample', ...options.emulator });
  const rpcs: RpcRecord[] = [];
  const violations: string[] = [];
  const dialogs = new DialogBridge();
  const realNow = options.realTime === true ? Date.now : options.realTime || undefined;
  let realMark = realNow?.() ?? 0;
  // The service's limits count their windows on its clock: kept on the simulated one (which runs
  // ahead of real time by each run's simulated time, and by Advance), so the minute the add-on waits
  // for is the service's minute too and its continuations are not refused.
  const limitsFollowSimulatedClock = options.emulator?.platform
    ? {
        onBeforeFetch: followSimulatedClock(
          () => emulator.url,
          () => sim.clock.now(),
        ),
      }
    : {};
  let sim = newSimulator();
  const gridActions = new GridActions(() => sim);
  let selectedRow: number | null = null;

  function newSimulator(): AppsScriptSimulator {
    const created = createSimulator({
      code,
      ...limitsFollowSimulatedClock,
      ...(realNow ? { startTime: realNow() } : {}),
      distDir: DIST,
      users: [{ email: 'alice@acme.test' }],
      spreadsheetName: 'Deals tracker',
    });
    if (options.prefillBaseUrl) {
      const set = created.run(SET_PROPERTY_FN, [DEMO_BASE_URL_PROPERTY, emulator.url]);
      if (!set.ok) throw new Error(`Could not set ${DEMO_BASE_URL_PROPERTY}: ${set.error?.message}`);
    }
    // Sheets runs onOpen when the spreadsheet opens: that builds the Extensions menu.
    const opened = created.run('onOpen');
    if (!opened.ok) throw new Error(`onOpen failed: ${opened.error?.message}`);
    // From now on an alert waits for the person on the page.
    created.ui.answerAlert = askThePage;
    return created;
  }

  /**
   * The person answers an alert on the page: the run waits (this thread blocks) until they do. The
   * time they read counts on a clock that follows real time; a run whose time runs out meanwhile ends.
   */
  function askThePage(alert: OpenAlert): AlertAnswer {
    const readFrom = realNow?.() ?? 0;
    const timeLeft = alert.endsAt - alert.at;
    const limit = Math.min(options.dialogWaitLimitMs ?? Number.POSITIVE_INFINITY, timeLeft);
    const question = { title: alert.title, prompt: alert.prompt, buttons: buttonsOf(alert.buttons) };
    const button = dialogs.ask(question, limit, (open) =>
      front?.dialog(open, open ? JSON.stringify(sim._asPerson(grid)) : undefined),
    );
    if (button === null) {
      if (limit < timeLeft)
        violations.push(
          `Nobody answered the dialog "${alert.title}" within ${limit} ms: answer it on the page.`,
        );
      return { button: 'CLOSE', afterMs: timeLeft + 1 };
    }
    return { button, afterMs: realNow ? Math.max(0, realNow() - readFrom) : 0 };
  }

  function sidebarHtml(): string {
    const shown = sim.run('showSidebar');
    const sidebar = sim.ui.sidebars[sim.ui.sidebars.length - 1];
    if (!shown.ok || !sidebar)
      throw new Error(`showSidebar failed: ${shown.error?.message ?? 'no sidebar shown'}`);
    // The stand-in must exist before the page's own script runs, as google.script does in Sheets.
    return sidebar.html.replace(/<head>/i, () => `<head>\n<script>${CLIENT_SHIM}</script>`);
  }

  function rpc(
    fn: string,
    args: unknown[],
  ): { ok: true; value?: unknown } | { ok: false; error: { name: string; message: string } } {
    const started = Date.now();
    let answer: { ok: true; value?: unknown } | { ok: false; error: { name: string; message: string } };
    try {
      const result = sim.callFromClient(fn, args);
      answer = result.ok
        ? { ok: true, value: result.value }
        : {
            ok: false,
            error: { name: result.error?.name ?? 'Error', message: result.error?.message ?? 'failed' },
          };
    } catch (error) {
      if (!(error instanceof ClientCallError)) throw error;
      // Real google.script.run may drop such a call silently; the harness fails it loudly instead.
      violations.push(error.message);
      answer = { ok: false, error: { name: 'ClientCallError', message: error.message } };
    }
    if (fn === 'selectSheetRow' && answer.ok) selectedRow = (answer.value as { row: number }).row;
    const record: RpcRecord = { fn, args, ok: answer.ok, ms: Date.now() - started };
    if (answer.ok) record.value = answer.value;
    else record.error = answer.error.message;
    rpcs.push(record);
    if (options.verbose)
      console.error(`rpc ${fn} ${answer.ok ? 'ok' : `failed: ${record.error}`} (${record.ms} ms)`);
    return answer;
  }

  /** The table the active sheet is linked to, from the add-on's document properties. */
  function activeLink(): { tableAppId: string; tableId: string } | null {
    const sheetId = sim.spreadsheet.getActiveSheet().getSheetId();
    const text = sim.properties('document')[`tas.link.${sheetId}`];
    if (!text) return null;
    const link = JSON.parse(text) as { tableAppId: string; tableId: string };
    return { tableAppId: link.tableAppId, tableId: link.tableId };
  }

  async function serviceColumns(): Promise<Array<{ id: string; name: string; type: string }>> {
    const link = activeLink();
    if (!link) return [];
    const state = await emulator.admin.state();
    const table = state.apps
      .find((app) => app.id === link.tableAppId)
      ?.tables.find((each) => each.id === link.tableId);
    return (table?.columns ?? [])
      .filter((column) => !column.deleted)
      .map((column) => ({ id: column.id, name: column.name, type: column.type }));
  }

  function grid(): unknown {
    const active = sim.spreadsheet.getActiveSheet();
    const toast = sim.ui.toasts[sim.ui.toasts.length - 1];
    const menu = sim.ui.menus.find((each) => each.addon);
    return {
      menu: menu ? { name: menu.name, items: menu.items } : null,
      toasts: sim.ui.toasts.length,
      outbox: sim.mail.length,
      now: new Date(sim.clock.now()).toISOString(),
      clockFollowsRealTime: realNow !== undefined,
      timeZone: sim.spreadsheet.getSpreadsheetTimeZone(),
      linked: activeLink() !== null,
      users: emulator.users.map((user) => ({
        id: user.userId,
        name: `${user.firstName} ${user.lastName}`.trim(),
      })),
      spreadsheetName: sim.spreadsheet.getName(),
      sheets: sim.spreadsheet
        .getSheets()
        .filter((sheet) => !sheet.isSheetHidden())
        .map((sheet) => ({ id: sheet.getSheetId(), name: sheet.getName() })),
      active: sim.snapshotSheet(active.getSheetId()),
      selectedRow,
      // Title and message apart: a title may hold ": " itself ("Table App Sync: Pushed with 1 error").
      toast: toast ? { title: toast.title ?? '', message: toast.msg } : null,
    };
  }

  /** Runs `work` (which runs script code) with the page told a run is under way, so it stays usable. */
  function whileBusy<T>(what: string, work: () => T): T {
    front?.busy(what);
    try {
      return work();
    } finally {
      front?.busy(null);
      // The run's time is counted by the simulator itself; real time resumes from here.
      if (realNow) realMark = realNow();
    }
  }

  /** Moves the simulated clock on by the real time since the last request, firing the schedules due. */
  function followRealTime(): void {
    if (!realNow) return;
    const at = realNow();
    if (at <= realMark) return;
    sim.clock.advance(at - realMark);
    realMark = at;
    whileBusy('Scheduled runs are running', () => sim.fireDueTriggers());
  }

  async function handle(request: FrontRequest): Promise<FrontReply> {
    const url = new URL(request.url, 'http://harness');
    const route = `${request.method} ${url.pathname}`;
    followRealTime();
    if (route === 'GET /') return reply(200, 'text/html; charset=utf-8', SPREADSHEET_PAGE);
    if (route === 'GET /favicon.ico') return reply(200, 'image/svg+xml', FAVICON);
    if (route === 'GET /service/columns') return json(200, await serviceColumns());
    if (route === 'GET /sidebar')
      return reply(200, 'text/html; charset=utf-8', whileBusy('Opening the sidebar', sidebarHtml));
    if (route === 'GET /grid') return json(200, grid());
    if (request.method !== 'POST') return reply(404, 'text/plain', 'not found');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body || '{}') as Record<string, unknown>;
    } catch {
      return json(400, { ok: false, error: 'The request body is not JSON.' });
    }
    if (route === 'POST /rpc') {
      const args = Array.isArray(body.args) ? body.args : [];
      const fn = String(body.fn);
      return json(
        200,
        whileBusy(`The add-on is running ${fn}`, () => rpc(fn, args)),
      );
    }
    if (route === 'POST /edit') {
      // A person typing into a cell: parsed like typing in Sheets (numbers, dates, formulas…).
      const sheet = sim.spreadsheet.getSheetById(Number(body.sheetId));
      if (!sheet) return json(404, { ok: false, error: 'No such sheet' });
      try {
        const row = Number(body.row);
        const col = Number(body.col);
        const firingsBefore = sim.editRuns.length;
        whileBusy('Saving the cell', () =>
          gridActions.typed(sheet.getSheetId(), row, col, () => {
            sim.personEdit(sheet.getName(), row, col, String(body.text ?? ''));
          }),
        );
        // "Send edits as I type": what the edit triggers the person's typing fired did with it.
        const said = liveSaid(sim.editRuns.slice(firingsBefore));
        return json(200, { ok: true, ...(said ? { said } : {}) });
      } catch (error) {
        return json(200, {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (route === 'POST /grid/action') {
      // Paste, sort, insert, delete, undo: what a person does in Sheets' grid besides typing.
      try {
        const said = whileBusy('Changing the grid', () => gridActions.run(body as unknown as GridAction));
        return json(200, { ok: true, said });
      } catch (error) {
        // Refusals of the playground and of the sheet itself ("not possible to delete all rows").
        const refused =
          error instanceof GridActionRefused || (error instanceof Error && error.name === 'Exception');
        if (!refused) throw error;
        return json(200, { ok: false, error: error.message });
      }
    }
    if (route === 'POST /activate') {
      const sheet = sim.spreadsheet.getSheetById(Number(body.sheetId));
      if (sheet) sim.spreadsheet.setActiveSheet(sheet);
      selectedRow = null;
      return json(200, { ok: sheet !== null });
    }
    if (route === 'POST /host/close') return json(200, { ok: true });
    if (route === 'POST /menu') {
      // A person choosing an item of Extensions › Table App Sync: an execution of that function.
      const fn = String(body.fn ?? '');
      const menu = sim.ui.menus.find((each) => each.addon);
      if (!menu?.items.some((item) => item.fn === fn))
        return json(404, { ok: false, error: `No menu item runs ${fn}` });
      const sidebarsBefore = sim.ui.sidebars.length;
      const result = whileBusy(`The add-on is running ${fn}`, () => sim.run(fn));
      return json(200, {
        ok: result.ok,
        error: result.ok ? null : (result.error?.message ?? 'failed'),
        sidebarOpened: sim.ui.sidebars.length > sidebarsBefore,
      });
    }
    if (route === 'POST /clock/advance') {
      const minutes = Number(body.minutes);
      if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 7 * 24 * 60)
        return json(400, { ok: false, error: 'minutes: a number from 1 to 10080' });
      const results = whileBusy('Scheduled runs are running', () => sim.advanceAndFire(minutes * 60_000));
      return json(200, {
        ok: true,
        now: new Date(sim.clock.now()).toISOString(),
        fired: results.length,
        failed: results.filter((result) => !result.ok).length,
      });
    }
    if (route === 'POST /service/edit') {
      // Another person changing a row on the service (the emulator's admin route, as that user).
      const link = activeLink();
      if (!link) return json(200, { ok: false, error: 'Link this sheet to a table first.' });
      const columnId = String(body.columnId ?? '');
      const column = (await serviceColumns()).find((each) => each.id === columnId);
      if (!column) return json(200, { ok: false, error: `The table has no column ${columnId}.` });
      const typed = serviceValue(String(body.text ?? ''), column);
      if (!typed.ok) return json(200, { ok: false, error: typed.error });
      try {
        const row = await emulator.admin.editRow(
          link.tableAppId,
          link.tableId,
          String(body.rowId ?? ''),
          { [columnId]: typed.value as never },
          String(body.asUserId ?? ''),
        );
        return json(200, { ok: true, lMod: row.lMod });
      } catch (error) {
        return json(200, {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (route === 'POST /service/delete') {
      // Another person deleting a row in the service's own app (the admin route: a service without
      // deleting through its API still loses rows that way).
      const link = activeLink();
      if (!link) return json(200, { ok: false, error: 'Link this sheet to a table first.' });
      try {
        await emulator.admin.deleteRow(link.tableAppId, link.tableId, String(body.rowId ?? ''));
        return json(200, { ok: true });
      } catch (error) {
        return json(200, { ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return reply(404, 'text/plain', 'not found');
  }

  let front: Front | undefined;
  let portRefused: { port: number; code: string } | undefined;
  const host = options.host ?? '127.0.0.1';
  try {
    try {
      front = await startFront(options.port ?? 0, host, handle, STATICS, dialogs.memory);
    } catch (error) {
      const fallback = options.portFallback && error instanceof ListenError && options.port !== 0;
      if (!fallback || !['EADDRINUSE', 'EACCES'].includes(error.code)) throw error;
      portRefused = { port: options.port ?? 0, code: error.code };
      front = await startFront(0, host, handle, STATICS, dialogs.memory);
    }
  } catch (error) {
    await emulator.close();
    throw error;
  }
  const started = front;

  return {
    url: started.url,
    ...(portRefused ? { portRefused } : {}),
    emulator,
    get sim() {
      return sim;
    },
    keys: emulator.keys,
    rpcs,
    violations,
    async reset() {
      await emulator.admin.reset('sample');
      // The new simulator's clock starts again: the windows start counting from zero with it.
      if (options.emulator?.platform) await emulator.admin.setPlatform(options.emulator.platform);
      sim = newSimulator();
      gridActions.clear();
      if (realNow) realMark = realNow();
      selectedRow = null;
      rpcs.length = 0;
      violations.length = 0;
    },
    async close() {
      await started.close();
      await emulator.close();
    },
  };
}
