// Small HTTP helpers of the emulator: bounded body reading, JSON answers, error bodies, loopback checks.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest accepted request body: 1 MiB. Larger bodies are answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this, the emulator stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** An answer to send: JSON body (or raw text), status, extra headers. */
export interface Answer {
  status: number;
  body?: unknown;
  /** Sent as-is instead of JSON when set. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The error body of every refusal: `{ error: { code, message } }`. */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Answer {
  return { status, body: { error: { code, message } }, ...(headers ? { headers } : {}) };
}

/** Reads the body; stops keeping bytes past MAX_BODY_BYTES (and reports `tooLarge`), but drains the rest. */
export function readBody(
  req: IncomingMessage,
): Promise<{ buffer: Buffer; bytes: number; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (bytes > DRAIN_LIMIT_BYTES) req.destroy();
    });
    req.on('end', () => {
      const tooLarge = bytes > MAX_BODY_BYTES;
      resolve({ buffer: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), bytes, tooLarge });
    });
    req.on('error', reject);
  });
}

/** Writes an answer (JSON unless rawBody); the Date header is always sent, the service's time `nowMs`. */
export function sendAnswer(res: ServerResponse, answer: Answer, nowMs: number = Date.now()): void {
  const text = answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  const headers: Record<string, string> = {};
  const given = answer.headers ?? {};
  if (!Object.keys(given).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  headers['cache-control'] = 'no-store';
  Object.assign(headers, given);
  headers['content-length'] = String(Buffer.byteLength(text));
  headers.date = new Date(nowMs).toUTCString();
  res.writeHead(answer.status, headers);
  res.end(text);
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Splits `req.url` into path and raw query without treating `//x` as a host. */
export function splitUrl(raw: string | undefined): { path: string; rawQuery: string } {
  const url = raw ?? '/';
  const at = url.indexOf('?');
  return at < 0 ? { path: url, rawQuery: '' } : { path: url.slice(0, at), rawQuery: url.slice(at + 1) };
}

/** Decodes UTF-8 strictly: undefined for invalid byte sequences. */
export function decodeUtf8(buffer: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return undefined;
  }
}

/** Waits `ms` milliseconds (a real timer). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
