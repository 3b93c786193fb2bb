// Synchronous HTTP for UrlFetchApp: a persistent worker thread does the I/O while the caller blocks on Atomics.wait.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** One request as sent to the worker. */
export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  followRedirects: boolean;
  validateHttpsCertificates: boolean;
  timeoutMs: number;
  maxBytes: number;
}

export type WireResponse =
  | { ok: true; status: number; rawHeaders: string[]; body: Uint8Array; url: string }
  | { ok: false; code: string; message: string; url: string };

/**
 * Worker source (CommonJS, run with `eval: true` so no loader or build step is needed). Requests of one
 * batch run in parallel, at most `concurrency` at a time; the answer is posted on the batch's own port
 * before the shared flag is raised (the synckit pattern).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');

function header(raw, name) {
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
  return undefined;
}

function once(req) {
  return new Promise((resolve) => {
    let url;
    try { url = new URL(req.url); } catch (e) { resolve({ ok: false, code: 'BAD_URL', message: String(e.message), url: req.url }); return; }
    const mod = url.protocol === 'https:' ? https : http;
    const fail = (e) => resolve({ ok: false, code: (e && e.code) || 'ERR', message: String(e && e.message), url: req.url });
    let r;
    try {
      r = mod.request(url, { method: req.method, headers: req.headers, rejectUnauthorized: req.validateHttpsCertificates, timeout: req.timeoutMs }, (res) => {
        const chunks = [];
        let size = 0;
        res.on('data', (c) => {
          size += c.length;
          if (size > req.maxBytes) { res.destroy(); resolve({ ok: false, code: 'TOO_LARGE', message: 'response too large', url: req.url }); return; }
          chunks.push(c);
        });
        res.on('end', () => resolve({ ok: true, status: res.statusCode, rawHeaders: res.rawHeaders, body: new Uint8Array(Buffer.concat(chunks)), url: req.url }));
        res.on('aborted', () => fail({ code: 'ECONNRESET', message: 'aborted' }));
        res.on('error', fail);
      });
    } catch (e) { fail(e); return; }
    r.on('timeout', () => r.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    r.on('error', fail);
    r.end(req.body ? Buffer.from(req.body) : undefined);
  });
}

async function perform(req, allowedHosts) {
  let cur = req;
  for (let hop = 0; hop <= 10; hop++) {
    const res = await once(cur);
    if (!res.ok || !cur.followRedirects || ![301, 302, 303, 307, 308].includes(res.status)) return res;
    const loc = header(res.rawHeaders, 'location');
    if (!loc) return res;
    const next = new URL(loc, cur.url);
    if (!allowedHosts.includes(next.hostname)) return { ok: false, code: 'HOST', message: next.hostname, url: next.toString() };
    const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && cur.method !== 'GET');
    cur = Object.assign({}, cur, { url: next.toString() }, toGet ? { method: 'GET', body: null } : {});
  }
  return { ok: false, code: 'TOO_MANY_REDIRECTS', message: 'too many redirects', url: req.url };
}

parentPort.on('message', async (msg) => {
  const { signal, port, requests, concurrency, allowedHosts } = msg;
  const results = new Array(requests.length);
  let next = 0;
  async function lane() {
    while (next < requests.length) {
      const i = next++;
      try { results[i] = await perform(requests[i], allowedHosts); }
      catch (e) { results[i] = { ok: false, code: 'ERR', message: String(e && e.message), url: requests[i].url }; }
    }
  }
  const lanes = [];
  for (let i = 0; i < Math.min(concurrency, requests.length); i++) lanes.push(lane());
  await Promise.all(lanes);
  port.postMessage(results);
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

let worker: Worker | undefined;

function getWorker(): Worker {
  if (!worker) {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.unref();
    w.on('error', () => {
      if (worker === w) worker = undefined;
    });
    w.on('exit', () => {
      if (worker === w) worker = undefined;
    });
    worker = w;
  }
  return worker;
}

/** Performs a batch of requests in parallel and blocks the calling thread until all have answered. */
export function sendSync(
  requests: WireRequest[],
  concurrency: number,
  allowedHosts: string[],
): WireResponse[] {
  if (requests.length === 0) return [];
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const w = getWorker();
  w.postMessage({ signal, port: port2, requests, concurrency, allowedHosts }, [port2]);
  const maxTimeout = Math.max(...requests.map((r) => r.timeoutMs));
  const deadline =
    Date.now() + (maxTimeout + 5_000) * Math.ceil(requests.length / Math.max(1, concurrency)) * 11;
  while (Atomics.load(signal, 0) === 0) {
    Atomics.wait(signal, 0, 0, 1_000);
    if (Date.now() > deadline) {
      port1.close();
      throw new Error('UrlFetch worker did not answer');
    }
  }
  const reply = receiveMessageOnPort(port1);
  port1.close();
  if (!reply) throw new Error('UrlFetch worker answer missing');
  return reply.message as WireResponse[];
}
