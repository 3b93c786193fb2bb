// Test helpers for the table service emulator: a small fetch wrapper that sends the auth header and JSON bodies.

import type { JsonValue } from '../../../emulators/table-service/types.js';

/** An answer as the tests read it. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body, or undefined when not JSON. */
  json: unknown;
}

/** Options of one call. */
export interface CallOptions {
  key?: string | undefined;
  body?: unknown;
  /** Raw body text (sent as-is). */
  raw?: string | Buffer;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** Calls `base + path` with `auth: key` and (for bodies) Content-Type application/json;charset=UTF-8. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers.auth = options.key;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.raw !== undefined)
    body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && options.contentType !== null) {
    headers['content-type'] = options.contentType ?? 'application/json;charset=UTF-8';
  }
  const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The `{ error: { code, message } }` of an error answer. */
export function errorOf(reply: Reply): { code: string; message: string } {
  return (reply.json as { error: { code: string; message: string } }).error;
}

/** A row as the tests read it. */
export type RowJson = Record<string, JsonValue> & {
  id: string;
  lMod: string;
  cOn: string;
  indexId: number;
  position: string;
};

/** Matches ms-precision ISO UTC timestamps. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const DEALS = '/tableApps/ta_crm/tables/tbl_deals';
