// The one place that turns an answer of the service into data or into a SyncError a person can act on.

import { SyncError, type SyncErrorCode } from '../core/errors';
import type { HttpMethod, HttpResponse } from './http-port';
import { parseRetryAfter } from './retry';

/** What a request was about: decides what a 403/404 message names. */
export type RequestTarget = 'profile' | 'people' | 'tableApps' | 'tableApp' | 'table' | 'row' | 'rows';

/** Everything a message may name. Nothing here may hold the API key except `secret`. */
export interface ErrorContext {
  method: HttpMethod;
  target: RequestTarget;
  /** The checked base URL, e.g. `https://example.com`. */
  baseUrl: string;
  /** Host name for "cannot reach" messages. */
  host: string;
  appId?: string;
  tableId?: string;
  rowId?: string;
  /** The API key: removed from every message, wherever it appears. */
  secret?: string;
  /** The clock (from the port) for an HTTP-date `Retry-After`. */
  now?: number;
}

/** Answers larger than this (in characters) are refused unread. */
export const MAX_ANSWER_CHARS = 50 * 1024 * 1024;

const DETAIL_CHARS = 200;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** True when `value` is a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Object.hasOwn is ES2022; Apps Script's V8 and the es2020 target get the classic form.
const ownProperty = Object.prototype.hasOwnProperty;

/** An own member of a parsed JSON object; inherited names (`constructor`, `toString`) never count. */
export function own(value: Record<string, unknown>, key: string): unknown {
  return ownProperty.call(value, key) ? value[key] : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The texts of an `errors` array: each entry's `msg` (the platform's shape) or `message`, or the entry itself. */
function errorsTexts(errors: unknown): string[] {
  if (!Array.isArray(errors)) return [];
  return errors
    .map((e) => (isRecord(e) ? (stringOf(own(e, 'msg')) ?? stringOf(own(e, 'message'))) : stringOf(e)))
    .filter((t): t is string => t !== undefined);
}

/**
 * True for a `message` that only names the status (`"Bad Request"`, `"NotFound"`, the body's `name`):
 * the platform puts those there and the detail in `errors[].msg`.
 */
function isGeneric(message: string, json: Record<string, unknown>): boolean {
  const flat = message.replace(/[\s_-]/g, '').toLowerCase();
  const name = stringOf(own(json, 'name'));
  if (name !== undefined && flat === name.replace(/[\s_-]/g, '').toLowerCase()) return true;
  return Object.values(REASONS).some((reason) => reason.replace(/\s/g, '').toLowerCase() === flat);
}

/**
 * The message of an error body in any of the shapes the contract lists, or undefined: `message`,
 * `error` (text or `{ message }`), `errors[]` (`msg` or `message`). A `message` that only names the
 * status gives way to the details in `errors[]`; one that says more comes first, the details after.
 */
export function messageInJson(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  const direct = stringOf(own(json, 'message'));
  const details = errorsTexts(own(json, 'errors'));
  if (direct !== undefined) {
    const extra = details.filter((d) => d !== direct && !direct.includes(d));
    if (extra.length === 0) return direct;
    return isGeneric(direct, json) ? extra.join('; ') : `${direct}: ${extra.join('; ')}`;
  }
  const error = own(json, 'error');
  const asText = stringOf(error);
  if (asText !== undefined) return asText;
  if (isRecord(error)) {
    const inner = stringOf(own(error, 'message'));
    if (inner !== undefined) return inner;
  }
  return details.length > 0 ? details.join('; ') : undefined;
}

function looksLikeHtml(text: string): boolean {
  const start = text.trimStart().slice(0, 200).toLowerCase();
  return start.startsWith('<') && /<(!doctype|html|head|body|title|div|p|h1|meta)\b/.test(start);
}

/** Visible text of an HTML page: scripts, styles and tags dropped, common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&amp;/gi, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * What the service said in a failed answer: its message in any listed JSON shape, else the first
 * 200 characters of the body (text of an HTML page), else undefined. `secret` is removed before
 * the text is cut, so no part of it survives.
 */
export function serviceMessage(body: string, secret?: string): string | undefined {
  const text = body.length > MAX_ANSWER_CHARS ? body.slice(0, 4096) : body;
  if (text.trim() === '') return undefined;
  try {
    const fromJson = messageInJson(JSON.parse(text));
    if (fromJson !== undefined) return detailOf(fromJson, secret);
  } catch {
    // not JSON: fall through to the raw text
  }
  const plain = looksLikeHtml(text) ? htmlToText(text) : text;
  return plain.trim() === '' ? undefined : detailOf(plain, secret);
}

function detailOf(text: string, secret: string | undefined): string {
  return clip(scrubSecret(text, secret), DETAIL_CHARS);
}

/** Removes the secret (and anything shaped like a JWT) from a text meant for a person. */
export function scrubSecret(text: string, secret: string | undefined): string {
  let out = text;
  if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('[API key]');
  return out.replace(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[token]');
}

function idText(id: string | undefined): string {
  return id === undefined ? '?' : clip(id, 60);
}

function subject(ctx: ErrorContext): string {
  switch (ctx.target) {
    case 'tableApp':
      return `table app ${idText(ctx.appId)}`;
    case 'table':
    case 'rows':
      return `table ${idText(ctx.tableId)} in table app ${idText(ctx.appId)}`;
    case 'row':
      return `row ${idText(ctx.rowId)} in table ${idText(ctx.tableId)}`;
    case 'people':
      return 'the people search';
    case 'tableApps':
      return 'the list of your table apps';
    case 'profile':
      return 'your profile';
  }
}

function notFoundMessage(ctx: ErrorContext): string {
  switch (ctx.target) {
    case 'tableApp':
      return `Table app ${idText(ctx.appId)} was not found: check the id, or whether it was deleted.`;
    case 'table':
    case 'rows':
      return `Table ${idText(ctx.tableId)} was not found in table app ${idText(ctx.appId)}: check the ids.`;
    case 'row':
      return `Row ${idText(ctx.rowId)} was not found in table ${idText(ctx.tableId)}: it may have been deleted on the service.`;
    case 'tableApps':
      return `The service does not list table apps at ${ctx.baseUrl}: paste the table app’s link or id instead.`;
    default:
      return `The service has no ${ctx.target === 'people' ? 'people search' : 'profile address'} at ${ctx.baseUrl}: check the service address (the address you open the service at).`;
  }
}

function codeForStatus(status: number): SyncErrorCode {
  if (status === 0) return 'NETWORK';
  if (status === 401) return 'AUTH';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'SERVER';
  return 'REJECTED';
}

function isPost(ctx: ErrorContext): boolean {
  return ctx.method === 'post';
}

function messageForStatus(status: number, ctx: ErrorContext, retryAfterMs: number | undefined): string {
  if (status === 401) {
    return 'Your API key is not valid (it may have expired or been revoked): create a new key in your profile on the service, then connect again with it.';
  }
  if (status === 403) {
    if (ctx.appId !== undefined) {
      return `You have no access to table app ${idText(ctx.appId)}: ask its owner to share it with you, or check the id.`;
    }
    return `The service refused access to ${subject(ctx)}: check that the API key belongs to the right account.`;
  }
  if (status === 404) return notFoundMessage(ctx);
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` (it asked to wait ${Math.ceil(retryAfterMs / 1000)} s)` : '';
    return `The service is limiting requests (429)${wait}: wait a minute and try again.`;
  }
  if (status >= 500) {
    if (isPost(ctx)) {
      return `The service had trouble while creating a row in ${subject(ctx)}: the row may have been created anyway; the next sync checks for it.`;
    }
    return 'The service is having trouble: try again in a few minutes.';
  }
  if (status === 413) return `The service refused the request for ${subject(ctx)} as too large.`;
  return `The service refused the request for ${subject(ctx)}.`;
}

/**
 * A message, then its details for whoever digs: the HTTP status and what the service said. The
 * first sentences are for a person; a status code or the service's own words never lead.
 */
function withDetail(message: string, detail: string | undefined, status?: number): string {
  const reason = status === undefined ? undefined : REASONS[status];
  const parts: string[] = [];
  if (status !== undefined) parts.push(`HTTP ${status}${reason === undefined ? '' : ` ${reason}`}`);
  if (detail !== undefined && detail !== reason) parts.push(`the service said "${detail}"`);
  return parts.length === 0 ? message : `${message} Details: ${parts.join('; ')}.`;
}

function finish(
  code: SyncErrorCode,
  message: string,
  ctx: ErrorContext,
  init: { status?: number; retryAfterMs?: number; outcomeUnknown?: boolean },
): SyncError {
  return new SyncError(code, scrubSecret(message, ctx.secret), init);
}

function networkError(response: HttpResponse, ctx: ErrorContext): SyncError {
  const transport =
    response.networkError === undefined ? undefined : clip(response.networkError, DETAIL_CHARS);
  let message = `Cannot reach ${ctx.host}: check the service address and your connection, then try again.`;
  if (isPost(ctx))
    message += ' No answer arrived, so the row may have been created anyway; the next sync checks for it.';
  if (transport !== undefined) message += ` Details: ${transport}.`;
  return finish('NETWORK', message, ctx, { status: 0, outcomeUnknown: isPost(ctx) });
}

function notJson(
  kind: 'html' | 'empty' | 'malformed' | 'too-large',
  ctx: ErrorContext,
  status: number,
): SyncError {
  const what = {
    html: 'a web page',
    empty: 'an empty answer',
    malformed: 'cut off or malformed',
    'too-large': 'over 50 MB, not read',
  }[kind];
  let message = `The add-on cannot read what ${ctx.baseUrl} answered (${what}): check the service address — it must be the address of the service itself, not of a sign-in page or proxy.`;
  if (kind === 'malformed') {
    message = `The add-on cannot read the service's answer (${what}): try again; if it keeps happening, check the service address ${ctx.baseUrl}.`;
  }
  if (isPost(ctx)) message += ' The row may have been created anyway; the next sync checks for it.';
  return finish('BAD_RESPONSE', message, ctx, { status, outcomeUnknown: isPost(ctx) });
}

type Parsed = { ok: true; json: unknown } | { ok: false; kind: 'html' | 'empty' | 'malformed' | 'too-large' };

function parseBody(body: string): Parsed {
  if (body.length > MAX_ANSWER_CHARS) return { ok: false, kind: 'too-large' };
  if (body.trim() === '') return { ok: false, kind: 'empty' };
  try {
    return { ok: true, json: JSON.parse(body) };
  } catch {
    return { ok: false, kind: looksLikeHtml(body) ? 'html' : 'malformed' };
  }
}

const DATA_KEYS = ['id', 'userId', 'rows', 'data', 'items', 'records', 'users', 'tables', 'columns'];

/** A 2xx JSON answer that carries an error member and no data. */
function errorInSuccess(json: unknown): boolean {
  if (!isRecord(json)) return false;
  const error = own(json, 'error');
  const errors = own(json, 'errors');
  const hasError =
    (error !== undefined && error !== null && error !== false && error !== '') ||
    (Array.isArray(errors) && errors.length > 0);
  return hasError && DATA_KEYS.every((k) => own(json, k) === undefined);
}

function statusInBody(json: Record<string, unknown>): number | undefined {
  const error = own(json, 'error');
  const candidates = [own(json, 'status'), own(json, 'statusCode')];
  if (isRecord(error)) candidates.push(own(error, 'status'), own(error, 'statusCode'));
  for (const c of candidates) {
    if (typeof c === 'number' && Number.isInteger(c) && c >= 400 && c <= 599) return c;
  }
  return undefined;
}

/**
 * Turns a failed answer into a SyncError whose message says what to do next. Handles every failure:
 * no answer (status 0), any non-2xx status (reading the service's message from `{message}`,
 * `{error: "…"}`, `{error: {message}}`, `{errors: [{message}]}`, else the first 200 characters of
 * the body, text of an HTML page, else the status text), and a 2xx that is not usable JSON (HTML,
 * empty, truncated, over 50 MB) or that carries an error member and no data. A POST without a
 * definite answer (status 0, any 5xx, a 2xx that is unreadable or reports an error) gets
 * `outcomeUnknown: true`.
 * The API key never appears in the message.
 */
export function errorFromResponse(response: HttpResponse, context: ErrorContext): SyncError {
  const status = response.status;
  if (status === 0) return networkError(response, context);
  const body = typeof response.body === 'string' ? response.body : '';
  if (status >= 200 && status < 300) {
    const parsed = parseBody(body);
    if (!parsed.ok) return notJson(parsed.kind, context, status);
    const said = messageInJson(parsed.json);
    const detail = said === undefined ? undefined : detailOf(said, context.secret);
    if (isPost(context)) {
      // A success status means the create may have been committed whatever the body says: adopt, never resend.
      const message = `The service reported an error for ${subject(context)} in an answer marked as a success: the row may have been created anyway; the next sync checks for it.`;
      return finish('BAD_RESPONSE', withDetail(message, detail ?? 'no message', status), context, {
        status,
        outcomeUnknown: true,
      });
    }
    const inner = isRecord(parsed.json) ? statusInBody(parsed.json) : undefined;
    if (inner !== undefined) {
      return finish(
        codeForStatus(inner),
        withDetail(messageForStatus(inner, context, undefined), detail, inner),
        context,
        {
          status: inner,
        },
      );
    }
    const message = `The service reported an error for ${subject(context)} in an answer marked as a success.`;
    return finish('REJECTED', withDetail(message, detail ?? 'no message', status), context, { status });
  }
  const retryAfterMs = parseRetryAfter(response.headers?.['retry-after'], context.now ?? 0);
  const detail = serviceMessage(body, context.secret) ?? REASONS[status];
  const code = codeForStatus(status);
  const message = withDetail(messageForStatus(status, context, retryAfterMs), detail, status);
  const init: { status: number; retryAfterMs?: number; outcomeUnknown?: boolean } = { status };
  if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  if (isPost(context) && status >= 500) init.outcomeUnknown = true;
  return finish(code, message, context, init);
}

/** Result of reading an answer: the parsed JSON of a good 2xx, or the error for anything else. */
export type AnswerReading = { ok: true; json: unknown } | { ok: false; error: SyncError };

/**
 * Reads an answer: a 2xx with JSON that is not an error report gives its parsed value (JSON.parse:
 * `__proto__` stays an own member); everything else gives {@link errorFromResponse}'s error.
 */
export function readAnswer(response: HttpResponse, context: ErrorContext): AnswerReading {
  if (response.status < 200 || response.status >= 300) {
    return { ok: false, error: errorFromResponse(response, context) };
  }
  const parsed = parseBody(typeof response.body === 'string' ? response.body : '');
  if (!parsed.ok || errorInSuccess(parsed.json)) {
    return { ok: false, error: errorFromResponse(response, context) };
  }
  return { ok: true, json: parsed.json };
}

/**
 * A 2xx JSON answer in a shape the client cannot use (rows not an array, a row without id…):
 * BAD_RESPONSE naming the problem. For a POST the row may exist: `outcomeUnknown: true`.
 */
export function badShape(context: ErrorContext, problem: string, status?: number): SyncError {
  let message = `The service answered in a form the add-on cannot read (${problem}): check the service address ${context.baseUrl}.`;
  if (isPost(context)) message += ' The row may have been created anyway; the next sync checks for it.';
  const init: { status?: number; outcomeUnknown: boolean } = { outcomeUnknown: isPost(context) };
  if (status !== undefined) init.status = status;
  return finish('BAD_RESPONSE', message, context, init);
}

/** A request the client refuses to send (bad id, read-only field, limit over 100…). */
export function refused(message: string): SyncError {
  return new SyncError('VALIDATION', message);
}
