// What the client connects with (base URL, API key, prefix) and the hand-written base URL check.

import { SyncError } from '../core/errors';

/** The two path prefixes the seed shows; `/api/public` is tried first. */
export type ApiPrefix = '/api/public' | '/public';

/** The prefixes in the order prefix detection tries them. */
export const API_PREFIXES: readonly ApiPrefix[] = ['/api/public', '/public'];

/** A connection to the service. `prefix` pins the path prefix; without it the client detects it. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
  prefix?: ApiPrefix;
}

/** A checked base URL: `scheme://host[:port][/path]`, no trailing slash, no prefix. */
export interface NormalizedBaseUrl {
  baseUrl: string;
  /** `scheme://host[:port]`: what messages name. */
  origin: string;
  host: string;
  /** Set when the input ended with (or contained) a prefix that was cut off. */
  prefix?: ApiPrefix;
}

const EXAMPLE = 'https://example.com';
const PATH_CHARS = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/;
const HOST_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function configError(message: string): SyncError {
  return new SyncError('CONFIG', message);
}

function malformed(detail: string): SyncError {
  return configError(
    `The service address ${detail}: enter the address you open the service at, e.g. ${EXAMPLE}.`,
  );
}

/** True for hosts where plain http is allowed: `localhost`, `127.0.0.0/8`, `[::1]`. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '[::1]') return true;
  const parts = host.split('.');
  if (parts.length !== 4 || parts[0] !== '127') return false;
  return parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function checkHost(host: string): void {
  if (host === '') throw malformed('has no host name');
  if (host.charAt(0) === '[') {
    if (!/^\[[0-9a-f:.]+\]$/.test(host)) throw malformed('has a malformed IPv6 address');
    return;
  }
  const labels = host.split('.');
  for (const label of labels) {
    if (!HOST_LABEL.test(label)) throw malformed('has a malformed host name');
  }
}

function cutPrefix(path: string): { path: string; prefix?: ApiPrefix } {
  const api = path.indexOf('/api/public');
  if (api >= 0) {
    const after = path.charAt(api + '/api/public'.length);
    if (after === '' || after === '/') return { path: path.slice(0, api), prefix: '/api/public' };
  }
  if (path.endsWith('/public')) return { path: path.slice(0, -'/public'.length), prefix: '/public' };
  for (const marker of ['/public/user/', '/public/tableApps']) {
    const at = path.indexOf(marker);
    if (at >= 0) return { path: path.slice(0, at), prefix: '/public' };
  }
  return { path };
}

/**
 * Checks and normalises a base URL typed or pasted by a person: trims it, drops trailing slashes,
 * cuts a pasted prefix (`https://x.com/api/public` → `https://x.com` with prefix `/api/public`).
 * Accepts only `https://host[:port][/path]`, and `http://` for loopback hosts. Throws
 * `SyncError('CONFIG')` saying what to enter otherwise. Never echoes credentials found in the input.
 */
export function normalizeBaseUrl(input: string): NormalizedBaseUrl {
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') throw configError(`Enter the service address, e.g. ${EXAMPLE}.`);
  if (/[\s\u0000-\u001f\u007f]/.test(text)) throw malformed('contains spaces or control characters');
  const sep = text.indexOf('://');
  if (sep <= 0) throw malformed('must start with https://');
  const scheme = text.slice(0, sep).toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') throw malformed('must start with https://');
  const rest = text.slice(sep + 3);
  let end = rest.length;
  for (const ch of ['/', '?', '#']) {
    const at = rest.indexOf(ch);
    if (at >= 0 && at < end) end = at;
  }
  const authority = rest.slice(0, end);
  let path = rest.slice(end);
  if (authority.indexOf('@') >= 0) {
    throw configError(
      `Remove the user name and password from the service address (enter it as e.g. ${EXAMPLE}): the API key is the only credential, and it is entered separately.`,
    );
  }
  if (path.indexOf('?') >= 0 || path.indexOf('#') >= 0) {
    throw malformed('must not contain ? or #');
  }
  if (!PATH_CHARS.test(path)) throw malformed('contains characters that are not allowed in an address');

  let host = authority.toLowerCase();
  let port = '';
  const close = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  if (colon > close) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      throw malformed('has a malformed port number');
    }
  }
  checkHost(host);
  if (scheme === 'http' && !isLoopbackHost(host)) {
    throw configError(
      `Use the https:// address of the service, e.g. https://${host} — the API key is a secret and is never sent over plain http.`,
    );
  }
  while (path.endsWith('/')) path = path.slice(0, -1);
  const cut = cutPrefix(path);
  path = cut.path;
  while (path.endsWith('/')) path = path.slice(0, -1);
  if (path.indexOf('//') >= 0) throw malformed('contains an empty path segment');
  const origin = `${scheme}://${host}${port === '' ? '' : `:${port}`}`;
  const out: NormalizedBaseUrl = { baseUrl: origin + path, origin, host };
  if (cut.prefix !== undefined) out.prefix = cut.prefix;
  return out;
}

/** True when `value` is one of the two prefixes. */
export function isApiPrefix(value: unknown): value is ApiPrefix {
  return value === '/api/public' || value === '/public';
}

/**
 * Checks a whole connection: base URL as in {@link normalizeBaseUrl}, a non-empty API key without
 * whitespace (it goes into a header), and a known prefix. A prefix given explicitly wins over one
 * pasted into the base URL. Throws `SyncError('CONFIG')`; the message never contains the key.
 */
export function normalizeConnection(connection: Connection): Connection & { origin: string; host: string } {
  const base = normalizeBaseUrl(connection.baseUrl);
  const key = typeof connection.apiKey === 'string' ? connection.apiKey.trim() : '';
  if (key === '') throw configError('Enter the API key: create one in your profile on the service.');
  if (/[\s\u0000-\u001f\u007f]/.test(key)) {
    throw configError(
      'The API key contains spaces or line breaks: copy it again from your profile on the service.',
    );
  }
  if (connection.prefix !== undefined && !isApiPrefix(connection.prefix)) {
    throw configError('The path prefix must be /api/public or /public (or left empty to detect it).');
  }
  const prefix = connection.prefix ?? base.prefix;
  const out: Connection & { origin: string; host: string } = {
    baseUrl: base.baseUrl,
    apiKey: key,
    origin: base.origin,
    host: base.host,
  };
  if (prefix !== undefined) out.prefix = prefix;
  return out;
}

/** Builds `?a=1&b=2` from defined values, each encoded with encodeURIComponent; '' when empty. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  for (const name of Object.keys(params)) {
    const value = params[name];
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Joins path segments, each encoded with encodeURIComponent: `['tableApps', 'a/b']` → `/tableApps/a%2Fb`. */
/** `.` and `..` (also percent-encoded) are dot segments: they would change which resource a URL names. */
export function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

/**
 * The path of these segments, each encoded. Throws for an empty or dot segment, which would change
 * the URL's meaning (callers check ids first with a message for a person; this is the last guard).
 */
export function pathOf(segments: readonly string[]): string {
  return segments
    .map((s) => {
      if (s === '' || isDotSegment(s))
        throw new Error(`Refusing the path segment "${s}": it would change the URL.`);
      return `/${encodeURIComponent(s)}`;
    })
    .join('');
}

/**
 * How long connecting may take, retries included. One request can wait for UrlFetchApp's own
 * deadline (about 60 s, apps-script-facts §4); past this no try starts again, so an address that
 * never answers fails in about a minute instead of running into the 6-minute execution limit.
 */
export const CONNECT_TIME_LIMIT_MS = 60_000;

/**
 * What a failed connect says when no answer came from the address (status 0: refused, dropped or
 * timed out): that the address did not answer as the service, and what to check. Other errors
 * (a refused key, a page that is not the service) already say so and pass through unchanged.
 */
export function connectFailure(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof SyncError) || error.code !== 'NETWORK') return error;
  const timedOut = /timeout|timed out/i.test(error.message);
  const what = timedOut
    ? `gave no answer within ${Math.round(CONNECT_TIME_LIMIT_MS / 1000)} s`
    : 'could not be reached';
  return configError(
    `${baseUrl} ${what}, so it did not answer as the service: check the address — it is the address you open the service at, e.g. ${EXAMPLE} — then connect again.`,
  );
}
