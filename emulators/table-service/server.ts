// createTableService: the emulator as a node:http server in this process (used by the child process, the CLI and
// in-process tests). Faults and the request log wrap the public API; the admin route answers loopback peers only.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_PREFIX, handleAdmin } from './admin-api.js';
import { AdminClient } from './admin-client.js';
import { TableEmulator } from './emulator.js';
import {
  type Answer,
  errorAnswer,
  isLoopbackAddress,
  readBody,
  sendAnswer as sendAnswerAt,
  sleep,
  splitUrl,
} from './http-util.js';
import { PLATFORM_RATE_LIMIT_TEXT, platformErrorBody, platformShaped } from './platform.js';
import { handlePublic } from './public-api.js';
import type { EmulatorOptions, RequestLogEntry, UserProfile } from './types.js';

/** A running in-process emulator. */
export interface TableService {
  server: Server;
  /** Base URL without prefix, e.g. http://127.0.0.1:8787. */
  url: string;
  /** A ready token per (non-generated) user id. */
  keys: Record<string, string>;
  users: UserProfile[];
  /** The admin route over HTTP (same client as startEmulator's). */
  admin: AdminClient;
  /** The core, for in-process callers that want direct access. */
  emulator: TableEmulator;
  /** Closes the server (dropping open connections) and saves the data file. */
  close(): Promise<void>;
}

function redactedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] =
      name === 'auth' || name === 'authorization'
        ? '[redacted]'
        : Array.isArray(value)
          ? value.join(', ')
          : value;
  }
  return out;
}

function dropConnection(req: IncomingMessage, res: ServerResponse, entry: RequestLogEntry): void {
  entry.status = 0;
  entry.dropped = true;
  res.socket?.destroy();
  req.socket.destroy();
}

async function handle(emu: TableEmulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = Date.now();
  // The Date header tells the service's time, the same clock its stamps come from.
  const sendAnswer = (to: ServerResponse, answer: Answer): void => sendAnswerAt(to, answer, emu.serviceNow());
  const method = req.method ?? 'GET';
  const { path, rawQuery } = splitUrl(req.url);
  const { buffer, bytes, tooLarge } = await readBody(req);

  if (path === ADMIN_PREFIX || path.startsWith(ADMIN_PREFIX + '/')) {
    if (!isLoopbackAddress(req.socket.remoteAddress)) {
      sendAnswer(res, errorAnswer(403, 'forbidden', 'The admin route answers loopback peers only.'));
      return;
    }
    sendAnswer(
      res,
      tooLarge
        ? errorAnswer(413, 'payload_too_large', 'Admin body too large.')
        : await handleAdmin(emu, method, path, buffer),
    );
    return;
  }

  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(rawQuery)) query[k] = v;
  const entry = emu.logRequest({
    at: new Date(started).toISOString(),
    method,
    path,
    query,
    rawQuery,
    headers: redactedHeaders(req),
    body: tooLarge ? '' : buffer.toString('utf8'),
    bodyBytes: bytes,
    status: 0,
    dropped: false,
    durationMs: 0,
  });
  const finish = (status: number): void => {
    entry.status = status;
    entry.durationMs = Date.now() - started;
  };

  // In platform mode the emulator's own error bodies take the platform's shape (queued answers stay as given).
  const answerWith = (answer: Answer): void =>
    sendAnswer(res, emu.platform?.mode.errorBodies ? platformShaped(answer) : answer);

  const delay = emu.faults.delayMs();
  if (delay > 0) {
    entry.fault = 'latency';
    await sleep(delay);
  }
  const publicRequest = { method, path, rawQuery, headers: req.headers, body: buffer, tooLarge };
  const decision = emu.faults.decide(method, path);
  if (decision.kind === 'queued') {
    entry.fault = 'queued';
    const { answer } = decision;
    if (answer.commitFirst) await handlePublic(emu, publicRequest);
    if (answer.dropConnection) {
      finish(0);
      dropConnection(req, res, entry);
      return;
    }
    sendAnswer(res, {
      status: answer.status,
      rawBody: answer.body ?? '',
      ...(answer.headers ? { headers: answer.headers } : {}),
    });
    finish(answer.status);
    return;
  }
  const auth = req.headers.auth;
  if (emu.platform && !emu.platform.admit(typeof auth === 'string' ? auth : '')) {
    entry.fault = 'platform-limit';
    // The platform's 429: its own text and no Retry-After, whatever the error-body setting.
    sendAnswer(res, { status: 429, body: platformErrorBody(429, PLATFORM_RATE_LIMIT_TEXT) });
    finish(429);
    return;
  }
  if (decision.kind === 'rate-limit') {
    entry.fault = 'rate-limit';
    const seconds = String(decision.retryAfterSeconds);
    answerWith(
      errorAnswer(429, 'rate_limited', `Too many requests; retry after ${seconds} s.`, {
        'retry-after': seconds,
      }),
    );
    finish(429);
    return;
  }
  if (decision.kind === 'error') {
    entry.fault = 'error';
    const code = decision.status === 503 ? 'service_unavailable' : 'internal_error';
    answerWith(errorAnswer(decision.status, code, 'Injected server error; nothing was done.'));
    finish(decision.status);
    return;
  }

  const answer = await handlePublic(emu, publicRequest);
  if (answer.isWrite && answer.committed && emu.faults.dropAfterCommit()) {
    entry.fault = 'drop-after-commit';
    finish(0);
    dropConnection(req, res, entry);
    return;
  }
  answerWith(answer);
  finish(answer.status);
}

/** Starts the emulator in this process on `options.port` (default 0: a free port) and `options.host` (127.0.0.1). */
export async function createTableService(options: EmulatorOptions = {}): Promise<TableService> {
  const emu = new TableEmulator(options);
  const server = createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    handle(emu, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendAnswerAt(
          res,
          errorAnswer(500, 'internal_error', `Emulator bug: ${(error as Error).message}`),
          emu.serviceNow(),
        );
      } else {
        res.destroy();
      }
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${address.port}`;
  return {
    server,
    url,
    keys: await emu.keys(),
    users: emu.users(),
    admin: new AdminClient(url),
    emulator: emu,
    close: () =>
      new Promise<void>((resolve, reject) => {
        emu.persist();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
