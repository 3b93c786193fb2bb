// UrlFetchApp (§4): real, synchronous HTTP with Apps Script's options, errors, quota and response object.
import { sendSync, type WireRequest, type WireResponse } from './http-worker';
import { GasError, GasObject, isPlainObject } from './realm';
import type { Runtime } from './runtime';
import { BlobImpl, toBuffer, toSignedBytes } from './utilities';

export const MAX_URL_LENGTH = 2082;
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
const METHODS = ['get', 'delete', 'patch', 'post', 'put'];
const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: ';
const EXTERNAL_REQUEST = 'https://www.googleapis.com/auth/script.external_request';

/** URL Fetch calls a day per user (apps-script-facts §3, §13), shared by all of that user's scripts. */
export const CONSUMER_URL_FETCH_DAILY = 20_000;
export const WORKSPACE_URL_FETCH_DAILY = 100_000;
/** Google's message once a user's URL Fetch calls of the day are used up (§4, §13). */
export const URL_FETCH_DAILY_MESSAGE = 'Service invoked too many times for one day: urlfetch.';

/** What `onBeforeFetch` sees (host values). */
export interface FetchRequestInfo {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload: string | null;
}

/** A per-user daily call counter (see DailyCounter). */
export interface DailyCounterLike {
  take(user: string, now: number, n: number): boolean;
  used(user: string, now: number): number;
}

export interface UrlFetchConfig {
  allowedHosts: string[];
  concurrency: number;
  timeoutMs: number;
  /** Simulated ms a timed-out request costs (the platform's deadline, however long the real wait was). */
  deadlineMs: number;
  quota: DailyCounterLike;
  /** Called before each fetch (`fetchAll` false) or fetchAll is sent: the execution waits here. */
  onBeforeFetch?: (requests: FetchRequestInfo[], fetchAll: boolean) => void;
  /**
   * When set, a fetchAll's requests are sent one at a time in the order this returns (a permutation
   * of 0..n-1): the server then sees a chosen arrival order instead of the network's, so a seeded
   * test replays exactly, and still meets every order the platform's parallel requests may arrive in.
   */
  dispatchOrder?: (count: number) => number[];
}

export class HTTPResponseImpl
  extends GasObject
  implements Pick<GoogleAppsScript.URL_Fetch.HTTPResponse, 'getResponseCode' | 'getContentText'>
{
  protected readonly _gasType = 'HTTPResponse';
  constructor(
    private readonly _status: number,
    private readonly _rawHeaders: string[],
    private readonly _body: Uint8Array,
  ) {
    super();
  }
  getResponseCode(): number {
    return this._status;
  }
  getContentText(charset?: string): string {
    return Buffer.from(this._body).toString(charset && /ascii|latin|8859/i.test(charset) ? 'latin1' : 'utf8');
  }
  getContent(): number[] {
    return toSignedBytes(this._body);
  }
  /** Header names keep the server's casing (§4); a repeated header gives its last value here. */
  getHeaders(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = 0; i < this._rawHeaders.length; i += 2)
      out[this._rawHeaders[i] as string] = this._rawHeaders[i + 1] as string;
    return out;
  }
  /** Like getHeaders, but repeated headers come back as arrays. */
  getAllHeaders(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < this._rawHeaders.length; i += 2) {
      const k = this._rawHeaders[i] as string;
      const v = this._rawHeaders[i + 1] as string;
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  }
  getBlob(): BlobImpl {
    const type =
      Object.entries(this.getHeaders()).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? null;
    return new BlobImpl(Buffer.from(this._body), type, null);
  }
  getAs(contentType: string): BlobImpl {
    return new BlobImpl(Buffer.from(this._body), String(contentType), null);
  }
}

interface Prepared {
  wire: WireRequest;
  info: FetchRequestInfo;
  mute: boolean;
  origin: string;
}

function escapeUrl(url: string): string {
  // With escaping (default) characters that are not legal in a URL are percent-encoded; reserved ones stay.
  return url.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
}

function formEncode(obj: Record<string, unknown>): string {
  return Object.keys(obj)
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(obj[k]))}`)
    .join('&');
}

export class UrlFetchAppService extends GasObject {
  protected readonly _gasType = 'UrlFetchApp';
  constructor(
    private readonly _rt: Runtime,
    private readonly _cfg: UrlFetchConfig,
  ) {
    super();
  }

  private _prepare(url: unknown, params: Record<string, unknown> | undefined): Prepared {
    const p = params ?? {};
    if (typeof url !== 'string')
      throw new GasError("The parameters (number) don't match the method signature for UrlFetchApp.fetch.");
    const raw = p.escaping === false ? url : escapeUrl(url);
    if (raw.length > MAX_URL_LENGTH) throw new GasError('Limit Exceeded: URLFetch URL Length.');
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new GasError(`Invalid argument: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new GasError(`Invalid argument: ${url}`);
    // Real Apps Script cannot reach loopback or private networks (§4); the simulator only lets through
    // the hosts its options allow (by default loopback, where the local service emulator lives).
    if (!this._cfg.allowedHosts.includes(parsed.hostname)) {
      throw new GasError(`Address unavailable: ${url} (host not in the simulator's allowedFetchHosts)`);
    }
    const method = String(p.method ?? 'get').toLowerCase();
    if (!METHODS.includes(method)) throw new GasError(`Invalid argument: method ${String(p.method)}`);
    const headers: Record<string, string> = {};
    if (p.headers && typeof p.headers === 'object') {
      for (const [k, v] of Object.entries(p.headers as Record<string, unknown>)) headers[k] = String(v);
    }
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent'))
      headers['User-Agent'] = `${USER_AGENT}${this._rt.scriptId})`;
    let body: Buffer | null = null;
    let payloadInfo: string | null = null;
    if (p.payload !== undefined && p.payload !== null && method !== 'get') {
      let contentType = p.contentType === undefined ? undefined : String(p.contentType);
      if (typeof p.payload === 'string') body = Buffer.from(p.payload, 'utf8');
      else if (Array.isArray(p.payload)) body = toBuffer(p.payload);
      else if (p.payload instanceof BlobImpl) {
        body = Buffer.from(p.payload._bytes);
        contentType ??= p.payload.getContentType() ?? undefined;
      } else if (isPlainObject(p.payload)) {
        body = Buffer.from(formEncode(p.payload), 'utf8');
        contentType = 'application/x-www-form-urlencoded';
      } else body = Buffer.from(String(p.payload), 'utf8');
      if (body.length > MAX_RESPONSE_BYTES) throw new GasError('Limit Exceeded: URLFetch POST Size.');
      const headerType = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
      if (contentType !== undefined) {
        if (headerType) delete headers[headerType];
        headers['Content-Type'] = contentType;
      } else if (!headerType) headers['Content-Type'] = 'application/x-www-form-urlencoded';
      payloadInfo = body.toString('utf8');
    }
    if (Object.keys(headers).length > 100) throw new GasError('Limit Exceeded: URLFetch headers.');
    const wire: WireRequest = {
      url: parsed.toString(),
      method: method.toUpperCase(),
      headers,
      body: body ? new Uint8Array(body) : null,
      followRedirects: p.followRedirects !== false,
      validateHttpsCertificates: p.validateHttpsCertificates !== false,
      timeoutMs: this._cfg.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
    };
    return {
      wire,
      info: { url: wire.url, method: wire.method, headers: { ...headers }, payload: payloadInfo },
      mute: p.muteHttpExceptions === true,
      origin: parsed.origin,
    };
  }

  private _send(prepared: Prepared[], fetchAll: boolean): HTTPResponseImpl[] {
    this._rt.requireAuth(fetchAll ? 'UrlFetchApp.fetchAll' : 'UrlFetchApp.fetch', EXTERNAL_REQUEST, 'FULL');
    // Each request of a fetchAll counts (§13, unconfirmed: the stricter reading); one that would pass
    // the quota is refused whole, before anything is sent.
    if (!this._cfg.quota.take(this._rt.activeUser(), this._rt.clock.now(), prepared.length)) {
      throw new GasError(URL_FETCH_DAILY_MESSAGE);
    }
    this._cfg.onBeforeFetch?.(
      prepared.map((p) => p.info),
      fetchAll,
    );
    const answers = this._dispatch(prepared.map((p) => p.wire));
    // Charged by the cost model: a fetchAll runs its requests in parallel rounds (§4; costs.ts).
    this._rt.chargeHttp(prepared.length, fetchAll);
    // A request that never answered held the execution until the platform gave up on it (§4).
    if (answers.some((a) => !a.ok && a.code === 'TIMEOUT')) this._rt.spend(this._cfg.deadlineMs);
    return answers.map((a, i) => this._toResponse(a, prepared[i] as Prepared));
  }

  private _dispatch(wires: WireRequest[]): WireResponse[] {
    const order = this._cfg.dispatchOrder?.(wires.length);
    if (!order) return sendSync(wires, this._cfg.concurrency, this._cfg.allowedHosts);
    if (order.length !== wires.length || [...order].sort((a, b) => a - b).some((v, i) => v !== i))
      throw new Error(`dispatchOrder must return a permutation of 0..${wires.length - 1}`);
    const answers: WireResponse[] = new Array(wires.length);
    for (const at of order) {
      answers[at] = sendSync([wires[at] as WireRequest], 1, this._cfg.allowedHosts)[0] as WireResponse;
    }
    return answers;
  }

  private _toResponse(a: WireResponse, p: Prepared): HTTPResponseImpl {
    if (!a.ok) {
      // Network failures throw even when muted (muting covers HTTP status codes only).
      const url = p.info.url;
      if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'HOST'].includes(a.code))
        throw new GasError(`Address unavailable: ${url}`);
      if (a.code === 'ENOTFOUND' || a.code === 'EAI_AGAIN') throw new GasError(`DNS error: ${url}`);
      if (a.code === 'TIMEOUT') throw new GasError(`Timeout: ${url}`);
      if (a.code === 'TOO_LARGE') throw new GasError(`Exceeded maximum response size: ${url}`);
      if (/CERT|SSL|TLS/.test(a.code)) throw new GasError(`SSL Error ${url}`);
      throw new GasError(`Unexpected error: ${url}`);
    }
    const res = new HTTPResponseImpl(a.status, a.rawHeaders, a.body);
    if (a.status >= 400 && !p.mute) {
      const text = res.getContentText();
      const cut = text.length > 100 ? `${text.slice(0, 100)}...` : text;
      throw new GasError(
        `Request failed for ${p.origin} returned code ${a.status}. Truncated server response: ${cut} (use muteHttpExceptions option to examine full response)`,
      );
    }
    return res;
  }

  fetch(url: string, params?: Record<string, unknown>): HTTPResponseImpl {
    return this._send([this._prepare(url, params)], false)[0] as HTTPResponseImpl;
  }

  /** Parallel requests, answers in input order; any unmuted failure throws for the whole call (§4). */
  fetchAll(requests: (string | Record<string, unknown>)[]): HTTPResponseImpl[] {
    if (!Array.isArray(requests))
      throw new GasError("The parameters don't match the method signature for UrlFetchApp.fetchAll.");
    const prepared = requests.map((r) =>
      typeof r === 'string' ? this._prepare(r, {}) : this._prepare((r as { url?: unknown })?.url, r),
    );
    return this._send(prepared, true);
  }

  getRequest(url: string, params?: Record<string, unknown>): Record<string, unknown> {
    const p = this._prepare(url, params);
    return {
      url: p.wire.url,
      method: p.wire.method.toLowerCase(),
      headers: p.wire.headers,
      payload: p.info.payload ?? '',
      contentType:
        Object.entries(p.wire.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? null,
      followRedirects: p.wire.followRedirects,
      validateHttpsCertificates: p.wire.validateHttpsCertificates,
      muteHttpExceptions: p.mute,
      useIntranet: false,
    };
  }
}
