// A plain fake HttpPort for the client's tests: scripted answers by method and path, recorded
// requests and fetchAll waves, and a virtual clock that sleep() advances.

import type { HttpMethod, HttpPort, HttpRequest, HttpResponse } from '../../src/api/http-port';

export type Answer = HttpResponse | ((request: HttpRequest) => HttpResponse);

interface Route {
  method: HttpMethod;
  path: string | RegExp;
  answers: Answer[];
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A raw text answer. */
export function text(status: number, body: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, body };
}

/** No answer at all (connection refused / dropped). */
export function network(message = 'Connection reset by peer'): HttpResponse {
  return { status: 0, headers: {}, body: '', networkError: message };
}

/** Path of a URL without origin and query: `https://x/api/public/user/me?a=1` → `/api/public/user/me`. */
export function pathOfUrl(url: string): string {
  const rest = url.slice(url.indexOf('://') + 3);
  const slash = rest.indexOf('/');
  const path = slash < 0 ? '/' : rest.slice(slash);
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

/** Query parameters of a URL, decoded. */
export function queryOfUrl(url: string): Record<string, string> {
  const q = url.indexOf('?');
  const out: Record<string, string> = {};
  if (q < 0) return out;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    out[decodeURIComponent(part.slice(0, eq))] = decodeURIComponent(part.slice(eq + 1));
  }
  return out;
}

export class FakePort implements HttpPort {
  readonly requests: HttpRequest[] = [];
  /** Size of every fetchAll call, in order. */
  readonly waves: number[] = [];
  readonly sleeps: number[] = [];
  clock = Date.UTC(2025, 0, 1, 12, 0, 0);
  private readonly routes: Route[] = [];

  /**
   * Scripts answers for method + path (exact path after the origin, or a RegExp). Answers are used in
   * order; the last one repeats. A function answer is called with the request.
   */
  on(method: HttpMethod, path: string | RegExp, ...answers: Answer[]): this {
    this.routes.push({ method, path, answers });
    return this;
  }

  fetchAll(requests: HttpRequest[]): HttpResponse[] {
    this.waves.push(requests.length);
    return requests.map((request) => {
      this.requests.push(request);
      const path = pathOfUrl(request.url);
      const route = this.routes.find(
        (r) =>
          r.method === request.method && (typeof r.path === 'string' ? r.path === path : r.path.test(path)),
      );
      if (route === undefined)
        return json(404, { error: { code: 'not_found', message: `no route ${path}` } });
      const answer = route.answers.length > 1 ? route.answers.shift()! : route.answers[0]!;
      return typeof answer === 'function' ? answer(request) : answer;
    });
  }

  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.clock += ms;
  }

  now(): number {
    return this.clock;
  }

  /** Paths of the recorded requests (with query), e.g. `GET /api/public/user/me`. */
  calls(): string[] {
    return this.requests.map((r) => `${r.method.toUpperCase()} ${r.url.slice(r.url.indexOf('/', 8))}`);
  }
}

/** A row with the fixed fields and a title. */
export function makeRow(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `r${n}`,
    lMod: '2025-01-01T00:00:00.000Z',
    cOn: '2025-01-01T00:00:00.000Z',
    indexId: n,
    position: String(n).padStart(6, '0'),
    wsId: 'ws1',
    appId: 'A1',
    tableId: 'T1',
    createdBy: 'u1',
    lModBy: 'u1',
    state: 0,
    title: `Row ${n}`,
    ...extra,
  };
}

export type ListShape = 'rows+hasMore' | 'bare' | 'data' | 'items+total' | 'records+count' | 'rows';

/**
 * A listing handler over `count` rows answering in `shape`; `cap` limits rows per page below the
 * requested limit (a service with a smaller maximum).
 */
export function listing(count: number, shape: ListShape, cap = 100): (request: HttpRequest) => HttpResponse {
  const rows = Array.from({ length: count }, (_, i) => makeRow(i));
  return (request) => {
    const q = queryOfUrl(request.url);
    const offset = Number(q.offset);
    const limit = Number(q.limit);
    if (!(limit >= 1 && limit <= 100) || !(offset >= 0))
      return json(400, { error: { message: 'bad paging' } });
    const page = rows.slice(offset, offset + Math.min(limit, cap));
    const hasMore = offset + page.length < count;
    switch (shape) {
      case 'rows+hasMore':
        return json(200, { rows: page, hasMore });
      case 'bare':
        return json(200, page);
      case 'data':
        return json(200, { data: page });
      case 'items+total':
        return json(200, { items: page, total: count });
      case 'records+count':
        return json(200, { records: page, count });
      case 'rows':
        return json(200, { rows: page });
    }
  };
}

export const PROFILE = {
  userId: 'u1',
  accountId: 'acc1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  orgId: 'o1',
  emailId: 'ada@example.com',
};
