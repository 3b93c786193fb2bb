// The loopback-only admin route (/__admin/...): faults, queued answers, state read/reset, seeding, direct row and
// column edits, tokens, the request log and the list shape. Never faulted, never logged.

import type { TableEmulator } from './emulator.js';
import { type Answer, decodeUtf8, errorAnswer } from './http-util.js';
import { POLL_MODES, type PollMode } from './poll.js';
import { QUERY_MODES, type QueryMode } from './query.js';
import { StoreError } from './store.js';
import type {
  ColumnType,
  DataSetName,
  EmulatorState,
  FaultConfig,
  ListShape,
  NewColumn,
  PlatformMode,
  QueuedAnswer,
  RowsChangedBetweenPages,
  SeedTableOptions,
} from './types.js';

/** The admin route's path prefix. */
export const ADMIN_PREFIX = '/__admin';

const COLUMN_TYPES: readonly ColumnType[] = [
  'text',
  'number',
  'checkbox',
  'date',
  'multiSelect',
  'json',
  'select',
];

type Body = Record<string, unknown>;

function str(body: Body, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || v === '')
    throw new StoreError(400, 'invalid_request', `"${key}" must be a non-empty string.`);
  return v;
}

function optStr(body: Body, key: string): string | undefined {
  return body[key] === undefined ? undefined : str(body, key);
}

const GET_ROUTES: Record<string, (emu: TableEmulator) => Promise<unknown> | unknown> = {
  '/state': (emu) => emu.state,
  '/log': (emu) => emu.log,
  '/faults': (emu) => ({ faults: emu.faults.config, queue: emu.faults.queue }),
  '/keys': async (emu) => ({ keys: await emu.keys(), users: emu.users() }),
  '/list-shape': (emu) => ({ shape: emu.listShape }),
  '/serves-delete': (emu) => ({ serves: emu.servesDelete }),
  '/platform': (emu) => platformView(emu),
  '/clock': (emu) => ({ nowMs: emu.clock.now(), manual: emu.clock.manual }),
  '/poll': (emu) => {
    const betweenPages = emu.pendingBetweenPages;
    return { mode: emu.pollMode, ...(betweenPages ? { betweenPages } : {}) };
  },
  '/query': (emu) => ({ mode: emu.queryMode }),
};

function platformView(emu: TableEmulator): unknown {
  const limiter = emu.platform;
  return { platform: limiter ? limiter.mode : null, refused: limiter ? limiter.refused : 0 };
}

const POST_ROUTES: Record<string, (emu: TableEmulator, body: Body) => Promise<unknown> | unknown> = {
  '/state': (emu, body) => {
    emu.reset(body as unknown as EmulatorState);
    return { ok: true };
  },
  '/reset': (emu, body) => {
    const to = (body.data ?? body.state ?? 'sample') as DataSetName | EmulatorState;
    if (typeof to === 'string' && to !== 'sample' && to !== 'empty' && to !== 'playground') {
      throw new StoreError(
        400,
        'invalid_request',
        '"data" must be "sample", "playground" or "empty" (or pass "state").',
      );
    }
    emu.reset(to);
    return { ok: true };
  },
  '/faults': (emu, body) => {
    try {
      return { faults: emu.faults.set(body as FaultConfig) };
    } catch (error) {
      throw new StoreError(400, 'invalid_request', (error as Error).message);
    }
  },
  '/faults/clear': (emu) => {
    emu.faults.clear();
    return { ok: true };
  },
  '/answers': (emu, body) => {
    if (!Array.isArray(body.answers))
      throw new StoreError(400, 'invalid_request', '"answers" must be an array.');
    try {
      return { queued: emu.faults.enqueue(body.answers as QueuedAnswer[]) };
    } catch (error) {
      throw new StoreError(400, 'invalid_request', (error as Error).message);
    }
  },
  '/log/clear': (emu) => {
    emu.clearLog();
    return { ok: true };
  },
  '/seed-table': (emu, body) => {
    const table = emu.seedTable(body as unknown as SeedTableOptions);
    return { appId: table.appId, tableId: table.id, columns: table.columns, rowCount: table.rows.length };
  },
  '/rows/create': (emu, body) =>
    emu.createRow(str(body, 'appId'), str(body, 'tableId'), body.values, optStr(body, 'asUserId')),
  '/rows/edit': (emu, body) =>
    emu.editRow(
      str(body, 'appId'),
      str(body, 'tableId'),
      str(body, 'rowId'),
      body.values,
      optStr(body, 'asUserId'),
    ),
  '/rows/delete': (emu, body) => {
    emu.deleteRow(str(body, 'appId'), str(body, 'tableId'), str(body, 'rowId'));
    return { ok: true };
  },
  '/rows/move': (emu, body) =>
    emu.moveRow(
      str(body, 'appId'),
      str(body, 'tableId'),
      str(body, 'rowId'),
      optStr(body, 'beforeRowId') ?? null,
    ),
  '/columns/add': (emu, body) => {
    const column = (body.column ?? {}) as NewColumn;
    if (typeof column.name !== 'string' || !COLUMN_TYPES.includes(column.type)) {
      throw new StoreError(
        400,
        'invalid_request',
        `"column" needs a name and a type of ${COLUMN_TYPES.join(', ')}.`,
      );
    }
    return emu.addColumn(str(body, 'appId'), str(body, 'tableId'), column);
  },
  '/columns/rename': (emu, body) =>
    emu.renameColumn(str(body, 'appId'), str(body, 'tableId'), str(body, 'columnId'), str(body, 'name')),
  '/columns/choices': (emu, body) => {
    if (!Array.isArray(body.options))
      throw new StoreError(400, 'invalid_request', '"options" must be the list of choices (strings).');
    return emu.setColumnChoices(
      str(body, 'appId'),
      str(body, 'tableId'),
      str(body, 'columnId'),
      body.options,
    );
  },
  '/columns/delete': (emu, body) =>
    emu.deleteColumn(str(body, 'appId'), str(body, 'tableId'), str(body, 'columnId')),
  '/apps/add': (emu, body) =>
    emu.addApp(str(body, 'accountId'), {
      ...(optStr(body, 'id') ? { id: str(body, 'id') } : {}),
      name: str(body, 'name'),
    }),
  '/tokens': async (emu, body) => {
    const ttl = body.ttlSeconds;
    const token = await emu.issueToken(str(body, 'userId'), {
      expired: body.expired === true,
      ...(typeof ttl === 'number' ? { ttlSeconds: ttl } : {}),
    });
    return { token };
  },
  '/tokens/expire': async (emu, body) => {
    await emu.expireToken(str(body, 'token'));
    return { ok: true };
  },
  '/list-shape': (emu, body) => {
    if (body.shape !== 'object' && body.shape !== 'array') {
      throw new StoreError(400, 'invalid_request', '"shape" must be "object" or "array".');
    }
    emu.listShape = body.shape as ListShape;
    return { shape: emu.listShape };
  },
  '/serves-delete': (emu, body) => {
    if (typeof body.serves !== 'boolean') {
      throw new StoreError(400, 'invalid_request', '"serves" must be true or false.');
    }
    emu.servesDelete = body.serves;
    return { serves: emu.servesDelete };
  },
  '/poll': (emu, body) => {
    if (!POLL_MODES.includes(body.mode as PollMode)) {
      throw new StoreError(400, 'invalid_request', `"mode" must be one of ${POLL_MODES.join(', ')}.`);
    }
    emu.pollMode = body.mode as PollMode;
    return { mode: emu.pollMode };
  },
  '/query': (emu, body) => {
    if (!QUERY_MODES.includes(body.mode as QueryMode)) {
      throw new StoreError(400, 'invalid_request', `"mode" must be one of ${QUERY_MODES.join(', ')}.`);
    }
    emu.queryMode = body.mode as QueryMode;
    return { mode: emu.queryMode };
  },
  '/poll/between-pages': (emu, body) => {
    emu.changeBetweenPollPages(body.off === true ? null : (body as unknown as RowsChangedBetweenPages));
    return { betweenPages: emu.pendingBetweenPages };
  },
  '/members': (emu, body) => {
    const users = emu.addMembers(str(body, 'accountId'), Number(body.count));
    return { added: users.length, users };
  },
  '/platform': (emu, body) => {
    // { off: true } switches it off; anything else is a PlatformMode (an empty object: the defaults).
    emu.setPlatform(body.off === true ? null : (body as PlatformMode));
    return platformView(emu);
  },
  '/clock': (emu, body) => {
    if (body.real === true) emu.clock.release();
    else if (body.nowMs !== undefined) emu.clock.set(Number(body.nowMs));
    else if (body.advanceMs !== undefined) emu.clock.advance(Number(body.advanceMs));
    else throw new StoreError(400, 'invalid_request', 'Send {"nowMs"}, {"advanceMs"} or {"real": true}.');
    return { nowMs: emu.clock.now(), manual: emu.clock.manual };
  },
  '/save': (emu) => {
    emu.persist();
    return { ok: true };
  },
};

/** Answers one admin request (the caller has checked the peer is loopback). */
export async function handleAdmin(
  emu: TableEmulator,
  method: string,
  path: string,
  body: Buffer,
): Promise<Answer> {
  const sub = path.slice(ADMIN_PREFIX.length) || '/';
  const get = GET_ROUTES[sub];
  const post = POST_ROUTES[sub];
  if (!get && !post) return errorAnswer(404, 'not_found', `No admin route ${path}.`);
  try {
    if (method === 'GET' && get) return { status: 200, body: await get(emu) };
    if (method === 'POST' && post) {
      const text = body.length === 0 ? '{}' : decodeUtf8(body);
      let parsed: unknown;
      try {
        parsed = text === undefined ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return errorAnswer(400, 'invalid_json', 'Admin bodies are JSON objects.');
      }
      return { status: 200, body: (await post(emu, parsed as Body)) ?? { ok: true } };
    }
    const allow = [get ? 'GET' : '', post ? 'POST' : ''].filter(Boolean).join(', ');
    return errorAnswer(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, { allow });
  } catch (error) {
    if (error instanceof StoreError) return errorAnswer(error.status, error.code, error.message);
    throw error;
  }
}
