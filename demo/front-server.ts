// The playground's page server runs on a thread of its own: the simulator blocks the main thread while
// a script waits for an HTTP answer (UrlFetchApp is synchronous), so a page server there went dead for
// as long as the script waited, and could not even answer the script itself when it was given the
// page's own address (issue 26, point 1). This thread never runs script code: it answers what it can
// alone (addresses that are not the playground's, the grid as last seen while a run is under way) and
// hands every other request to the main thread.
import { Worker } from 'node:worker_threads';
import { ANSWER_DIALOG_SOURCE, type PageDialog } from './dialog-bridge';

/** A request as the front hands it to the main thread. */
export interface FrontRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  body: string;
}

/** The main thread's answer. */
export interface FrontReply {
  status: number;
  type: string;
  body: string;
}

/** The page server's paths; anything else is answered by the front alone, with a 404 that says where it is. */
export const PLAYGROUND_PATHS: readonly string[] = [
  '/',
  '/favicon.ico',
  '/sidebar',
  '/grid',
  '/rpc',
  '/edit',
  '/grid/action',
  '/activate',
  '/host/close',
  '/menu',
  '/dialog/answer',
  '/outbox',
  '/clock/advance',
  '/service/columns',
  '/service/edit',
  '/service/delete',
];

/** The 404 of any other address: someone (or the add-on) took the playground page for the service. */
export const NOT_THE_SERVICE =
  'This is the Table App Sync playground page, not the table service: the service emulator has its own address, printed by npm run demo (and pre-filled in the sidebar).';

const FRONT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const paths = new Set(workerData.paths);
const pending = new Map();
let nextId = 1;
let busy = null;
let lastGrid = null;
// The add-on's question the run waits on (the page shows it and answers here, while the run holds
// the main thread).
let dialog = null;
const JSON_TYPE = 'application/json; charset=utf-8';
${ANSWER_DIALOG_SOURCE}

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function busyGrid() {
  return '{"busy":' + JSON.stringify(busy) + ',"dialog":' + JSON.stringify(dialog) + ',' + lastGrid.slice(1);
}

// Asks for the grid that reached the main thread as a run began are answered once the run waits for
// the person: its dialog must show.
function answerWaitingGrids() {
  if (busy === null || lastGrid === null) return;
  for (const [id, waiting] of pending) {
    if (!waiting.grid) continue;
    pending.delete(id);
    send(waiting.response, 200, JSON_TYPE, busyGrid());
  }
}

function answerTheDialog(body, response) {
  let answer = null;
  try { answer = JSON.parse(body || '{}'); } catch (e) { answer = null; }
  const refused = answerDialog(workerData.dialogMemory, dialog, answer);
  if (!refused) dialog = null;
  send(response, 200, JSON_TYPE, JSON.stringify(refused ? { ok: false, error: refused } : { ok: true }));
}

const server = http.createServer((request, response) => {
  const path = (request.url || '/').split('?')[0];
  if (!paths.has(path)) { send(response, 404, 'text/plain; charset=utf-8', workerData.notTheService); return; }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    body += chunk;
    if (body.length > 5000000) request.destroy();
  });
  request.on('end', () => {
    const fixed = request.method === 'GET' ? workerData.statics[path] : undefined;
    if (fixed) { send(response, 200, fixed.type, fixed.body); return; }
    if (request.method === 'POST' && path === '/dialog/answer') { answerTheDialog(body, response); return; }
    // While a run is under way the main thread cannot answer: the grid as last seen, marked busy.
    if (request.method === 'GET' && path === '/grid' && busy !== null && lastGrid !== null) {
      send(response, 200, JSON_TYPE, busyGrid());
      return;
    }
    const id = nextId++;
    pending.set(id, { response, grid: request.method === 'GET' && path === '/grid' });
    parentPort.postMessage({ type: 'request', id, request: { method: request.method, url: request.url || '/', body } });
  });
});

parentPort.on('message', (message) => {
  if (message.type === 'reply') {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (waiting.grid && message.reply.status === 200) lastGrid = message.reply.body;
    send(waiting.response, message.reply.status, message.reply.type, message.reply.body);
  } else if (message.type === 'busy') {
    busy = message.what;
  } else if (message.type === 'dialog') {
    dialog = message.dialog;
    if (message.grid) lastGrid = message.grid;
    answerWaitingGrids();
  } else if (message.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed' }));
  }
});

server.on('error', (error) => parentPort.postMessage({ type: 'error', code: error.code || 'ERR', message: String(error.message) }));
server.listen(workerData.port, workerData.host, () => {
  const address = server.address();
  parentPort.postMessage({ type: 'listening', address: address.address, port: address.port });
});
`;

/** The page server thread, listening. */
export interface Front {
  /** `http://host:port` of the page server. */
  readonly url: string;
  /** Says a run is under way (`what` names it) or over (null): the grid is then served as last seen. */
  busy(what: string | null): void;
  /**
   * Shows the add-on's question on the page (null: none open), with the grid as the run has left it
   * so far; the page's answer goes to the shared memory of {@link startFront}.
   */
  dialog(open: PageDialog | null, grid?: string): void;
  close(): Promise<void>;
}

/** Thrown when the port cannot be listened on; `code` is the system's (EADDRINUSE, EACCES…). */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

/**
 * Starts the page server thread on `port` (0: a free one); it answers GET of `statics` (the page, its
 * icon) itself, even during a run, and the answers to the add-on's dialogs (written into
 * `dialogMemory`, see dialog-bridge.ts), and hands each other playground request to `handle` on this
 * thread. Rejects with a {@link ListenError} when the port cannot be used.
 */
export function startFront(
  port: number,
  host: string,
  handle: (request: FrontRequest) => Promise<FrontReply>,
  statics: Record<string, { type: string; body: string }> = {},
  dialogMemory: SharedArrayBuffer = new SharedArrayBuffer(8),
): Promise<Front> {
  const worker = new Worker(FRONT_SOURCE, {
    eval: true,
    workerData: {
      port,
      host,
      paths: PLAYGROUND_PATHS,
      notTheService: NOT_THE_SERVICE,
      statics,
      dialogMemory,
    },
  });
  return new Promise<Front>((resolve, reject) => {
    const failed = (error: Error): void => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', failed);
    worker.on('message', (message: { type: string } & Record<string, unknown>) => {
      if (message.type === 'request') {
        answerOnThisThread(worker, handle, message.id as number, message.request as FrontRequest);
      } else if (message.type === 'error') {
        failed(new ListenError(String(message.code), String(message.message)));
      } else if (message.type === 'listening') {
        worker.off('error', failed);
        const address = String(message.address);
        const shown = address.includes(':') ? `[${address}]` : address;
        resolve(frontOf(worker, `http://${shown}:${String(message.port)}`));
      }
    });
  });
}

/** Hands a request to `handle` and its answer (or a 500 with the failure) back to the thread. */
function answerOnThisThread(
  worker: Worker,
  handle: (request: FrontRequest) => Promise<FrontReply>,
  id: number,
  request: FrontRequest,
): void {
  handle(request).then(
    (reply) => worker.postMessage({ type: 'reply', id, reply }),
    (error: unknown) => {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`playground: ${request.url}: ${text}`);
      worker.postMessage({ type: 'reply', id, reply: { status: 500, type: 'text/plain', body: text } });
    },
  );
}

function frontOf(worker: Worker, url: string): Front {
  return {
    url,
    busy(what) {
      worker.postMessage({ type: 'busy', what });
    },
    dialog(open, grid) {
      worker.postMessage({ type: 'dialog', dialog: open, grid });
    },
    close() {
      return new Promise<void>((done) => {
        worker.on('message', (answer: { type: string }) => {
          if (answer.type === 'closed') void worker.terminate().then(() => done());
        });
        worker.postMessage({ type: 'close' });
      });
    },
  };
}
