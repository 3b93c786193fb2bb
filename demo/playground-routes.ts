// The playground's routes: what the page asks of the main thread (the page server thread answers the
// page, its icon and the dialogs' answers alone). Each route acts on the Playground.
import type { EditFiring } from '../emulators/apps-script/index';
import type { FrontReply, FrontRequest } from './front-server';
import { type GridAction, GridActionRefused } from './grid-actions';
import type { Playground } from './playground';
import { serviceValue } from './service-values';
import { FAVICON, SPREADSHEET_PAGE } from './spreadsheet-page';

type Body = Record<string, unknown>;
type Route = (playground: Playground, body: Body) => FrontReply | Promise<FrontReply>;

function reply(status: number, type: string, body: string): FrontReply {
  return { status, type, body };
}

function json(status: number, value: unknown): FrontReply {
  return reply(status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function failed(error: unknown): FrontReply {
  return json(200, { ok: false, error: error instanceof Error ? error.message : String(error) });
}

/** What the page server thread answers alone, even while a run holds this thread. */
export const STATICS = {
  '/': { type: 'text/html; charset=utf-8', body: SPREADSHEET_PAGE },
  '/favicon.ico': { type: 'image/svg+xml', body: FAVICON },
};

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

const GET_ROUTES: Record<string, (playground: Playground) => FrontReply | Promise<FrontReply>> = {
  '/': () => reply(200, 'text/html; charset=utf-8', SPREADSHEET_PAGE),
  '/favicon.ico': () => reply(200, 'image/svg+xml', FAVICON),
  '/service/columns': async (playground) => json(200, await playground.serviceColumns()),
  '/sidebar': (playground) =>
    reply(
      200,
      'text/html; charset=utf-8',
      playground.whileBusy('Opening the sidebar', () => playground.sidebarHtml()),
    ),
  '/grid': (playground) => json(200, playground.grid()),
  '/outbox': (playground) => json(200, playground.outbox()),
};

/** A person typing into a cell: parsed like typing in Sheets (numbers, dates, formulas…). */
function typed(playground: Playground, body: Body): FrontReply {
  const sim = playground.sim;
  const sheet = sim.spreadsheet.getSheetById(Number(body.sheetId));
  if (!sheet) return json(404, { ok: false, error: 'No such sheet' });
  try {
    const row = Number(body.row);
    const col = Number(body.col);
    const firingsBefore = sim.editRuns.length;
    playground.whileBusy('Saving the cell', () =>
      playground.gridActions.typed(sheet.getSheetId(), row, col, () => {
        sim.personEdit(sheet.getName(), row, col, String(body.text ?? ''));
      }),
    );
    // "Send edits as I type": what the edit triggers the person's typing fired did with it.
    const said = liveSaid(sim.editRuns.slice(firingsBefore));
    return json(200, { ok: true, ...(said ? { said } : {}) });
  } catch (error) {
    return failed(error);
  }
}

/** Paste, sort, insert, delete, undo: what a person does in Sheets' grid besides typing. */
function gridAction(playground: Playground, body: Body): FrontReply {
  try {
    const said = playground.whileBusy('Changing the grid', () =>
      playground.gridActions.run(body as unknown as GridAction),
    );
    return json(200, { ok: true, said });
  } catch (error) {
    // Refusals of the playground and of the sheet itself ("not possible to delete all rows").
    const refused =
      error instanceof GridActionRefused || (error instanceof Error && error.name === 'Exception');
    if (!refused) throw error;
    return json(200, { ok: false, error: error.message });
  }
}

/** A person choosing an item of Extensions › Table App Sync: an execution of that function. */
function menu(playground: Playground, body: Body): FrontReply {
  const sim = playground.sim;
  const fn = String(body.fn ?? '');
  const addonMenu = sim.ui.menus.find((each) => each.addon);
  if (!addonMenu?.items.some((item) => item.fn === fn))
    return json(404, { ok: false, error: `No menu item runs ${fn}` });
  const sidebarsBefore = sim.ui.sidebars.length;
  const result = playground.whileBusy(`The add-on is running ${fn}`, () => sim.run(fn));
  return json(200, {
    ok: result.ok,
    error: result.ok ? null : (result.error?.message ?? 'failed'),
    sidebarOpened: sim.ui.sidebars.length > sidebarsBefore,
  });
}

/** Says how far the clock jumped: "1 hour", "5 minutes". */
function howFar(minutes: number): string {
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The clock jumps, the service's with it; the schedules due on the way fire, and the page hears how they ended. */
async function advanceClock(playground: Playground, body: Body): Promise<FrontReply> {
  const minutes = Number(body.minutes);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 7 * 24 * 60)
    return json(400, { ok: false, error: 'minutes: a number from 1 to 10080' });
  const sim = playground.sim;
  const report = playground.fireScheduled(`Advanced ${howFar(minutes)}`, () =>
    sim.advanceAndFire(minutes * 60_000),
  );
  await playground.serviceClockToSheets();
  return json(200, { ok: true, now: new Date(sim.clock.now()).toISOString(), ...report });
}

/** Another person changing a row on the service (the emulator's admin route, as that user). */
async function serviceEdit(playground: Playground, body: Body): Promise<FrontReply> {
  const link = playground.activeLink();
  if (!link) return json(200, { ok: false, error: 'Link this sheet to a table first.' });
  await playground.serviceClockToSheets();
  const columnId = String(body.columnId ?? '');
  const column = (await playground.serviceColumns()).find((each) => each.id === columnId);
  if (!column) return json(200, { ok: false, error: `The table has no column ${columnId}.` });
  const typedValue = serviceValue(String(body.text ?? ''), column);
  if (!typedValue.ok) return json(200, { ok: false, error: typedValue.error });
  try {
    const row = await playground.emulator.admin.editRow(
      link.tableAppId,
      link.tableId,
      String(body.rowId ?? ''),
      { [columnId]: typedValue.value as never },
      String(body.asUserId ?? ''),
    );
    return json(200, { ok: true, lMod: row.lMod });
  } catch (error) {
    return failed(error);
  }
}

/**
 * Another person deleting a row in the service's own app (the admin route: a service without
 * deleting through its API still loses rows that way).
 */
async function serviceDelete(playground: Playground, body: Body): Promise<FrontReply> {
  const link = playground.activeLink();
  if (!link) return json(200, { ok: false, error: 'Link this sheet to a table first.' });
  await playground.serviceClockToSheets();
  try {
    await playground.emulator.admin.deleteRow(link.tableAppId, link.tableId, String(body.rowId ?? ''));
    return json(200, { ok: true });
  } catch (error) {
    return failed(error);
  }
}

const POST_ROUTES: Record<string, Route> = {
  '/rpc': (playground, body) => {
    const args = Array.isArray(body.args) ? body.args : [];
    const fn = String(body.fn);
    return json(
      200,
      playground.whileBusy(`The add-on is running ${fn}`, () => playground.rpc(fn, args)),
    );
  },
  '/edit': typed,
  '/grid/action': gridAction,
  '/activate': (playground, body) => {
    const spreadsheet = playground.sim.spreadsheet;
    const sheet = spreadsheet.getSheetById(Number(body.sheetId));
    if (sheet) spreadsheet.setActiveSheet(sheet);
    playground.selectedRow = null;
    return json(200, { ok: sheet !== null });
  },
  '/host/close': () => json(200, { ok: true }),
  '/menu': menu,
  '/clock/advance': advanceClock,
  '/service/edit': serviceEdit,
  '/service/delete': serviceDelete,
};

/** Answers one request the page server thread handed over. */
export async function handleRequest(playground: Playground, request: FrontRequest): Promise<FrontReply> {
  const url = new URL(request.url, 'http://harness');
  playground.followRealTime();
  if (request.method === 'GET') {
    const route = GET_ROUTES[url.pathname];
    return route ? route(playground) : reply(404, 'text/plain', 'not found');
  }
  const route = request.method === 'POST' ? POST_ROUTES[url.pathname] : undefined;
  if (!route) return reply(404, 'text/plain', 'not found');
  let body: Body;
  try {
    body = JSON.parse(request.body || '{}') as Body;
  } catch {
    return json(400, { ok: false, error: 'The request body is not JSON.' });
  }
  return route(playground, body);
}
