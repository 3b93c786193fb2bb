// TableClient against the fake port: headers, prefix detection, list shapes and paging waves,
// retries, batch writes with per-item results, and answers that try to pollute prototypes.

import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  LACKING_OPERATION_RETRY_MS,
  type OperationMemory,
  type RowResult,
  TableClient,
} from '../../src/api/client';
import type { ApiPrefix } from '../../src/api/connection';
import type { HttpRequest } from '../../src/api/http-port';
import type { Row } from '../../src/api/types';
import { SyncError } from '../../src/core/errors';
import {
  FakePort,
  json,
  type ListShape,
  listing,
  makeRow,
  network,
  PROFILE,
  pathOfUrl,
  queryOfUrl,
  text,
} from './fake-port';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNlY3JldA';
const BASE = 'https://svc.example.com';
const ROWS = '/api/public/tableApps/A1/tables/T1/rows';
const ROW = (id: string) => `${ROWS}/${id}`;

/** A client pinned to `prefix`, or detecting it when `prefix` is 'detect'. */
function clientOf(port: FakePort, prefix: ApiPrefix | 'detect' = '/api/public', options: ClientOptions = {}) {
  return new TableClient(
    port,
    { baseUrl: BASE, apiKey: KEY, ...(prefix === 'detect' ? {} : { prefix }) },
    options,
  );
}

function thrown(fn: () => unknown): SyncError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).message).not.toContain(KEY);
    return error as SyncError;
  }
  throw new Error('did not throw');
}

function collect(client: TableClient, options: Parameters<TableClient['listAllRows']>[2] = {}) {
  const rows: Row[] = [];
  const offsets: number[] = [];
  const result = client.listAllRows('A1', 'T1', {
    ...options,
    onPage: (page, offset) => {
      offsets.push(offset);
      for (const r of page) rows.push(r);
      return options.onPage?.(page, offset);
    },
  });
  return { rows, offsets, result };
}

function errorOf(result: RowResult | undefined): SyncError {
  if (result === undefined || result.ok) throw new Error('expected a failed item');
  return result.error;
}

describe('TableClient', () => {
  describe('when any request is sent', () => {
    it('carries the auth header (never Authorization) and accepts JSON', () => {
      const port = new FakePort().on(
        'get',
        '/api/public/tableApps/A1',
        json(200, { id: 'A1', name: 'App', tables: [] }),
      );
      clientOf(port).tableApp('A1');
      const [request] = port.requests;
      expect(request?.headers).toEqual({ auth: KEY, accept: 'application/json' });
      expect(request?.payload).toBeUndefined();
      expect(request?.contentType).toBeUndefined();
      expect(request?.url).toBe(`${BASE}/api/public/tableApps/A1`);
    });

    it('sends bodies as JSON with the UTF-8 content type', () => {
      const port = new FakePort()
        .on('patch', ROW('r1'), json(200, makeRow(1, { status: 'done' })))
        .on('post', ROWS, json(201, makeRow(2)));
      const client = clientOf(port);
      client.updateRow('A1', 'T1', 'r1', { status: 'done' });
      client.createRow('A1', 'T1', { title: 'Näme ✓' });
      for (const r of port.requests) {
        expect(r.contentType).toBe('application/json;charset=UTF-8');
        expect(r.headers.auth).toBe(KEY);
        expect(Object.keys(r.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
      }
      expect(port.requests.map((r) => [r.method, r.payload])).toEqual([
        ['patch', '{"status":"done"}'],
        ['post', '{"title":"Näme ✓"}'],
      ]);
    });

    it('encodes ids into the path and never puts the key in a URL', () => {
      const port = new FakePort().on('get', /./, json(200, makeRow(1)));
      clientOf(port).row('a/b c', 'T?1', 'r#1');
      expect(port.requests[0]?.url).toBe(`${BASE}/api/public/tableApps/a%2Fb%20c/tables/T%3F1/rows/r%231`);
      expect(port.requests[0]?.url).not.toContain(KEY);
    });

    it('refuses an empty id before sending', () => {
      const port = new FakePort();
      expect(thrown(() => clientOf(port).table('A1', '')).code).toBe('VALIDATION');
      expect(port.requests).toHaveLength(0);
    });

    it('refuses the dot segments . and .. as ids (they would change the URL), before sending', () => {
      const port = new FakePort().on('get', /./, json(200, makeRow(1)));
      for (const id of ['.', '..', '%2e', '%2E%2e']) {
        expect(thrown(() => clientOf(port).row('A1', 'T1', id)).code, id).toBe('VALIDATION');
        expect(thrown(() => clientOf(port).table(id, 'T1')).message, id).toMatch(/is not an id/);
        expect(thrown(() => clientOf(port).listAllRows('A1', id)).code, id).toBe('VALIDATION');
        expect(thrown(() => clientOf(port).updateRow('A1', 'T1', id, { status: 'x' })).code, id).toBe(
          'VALIDATION',
        );
      }
      expect(port.requests).toHaveLength(0);
      // Ids that merely contain dots are ordinary ids.
      clientOf(port).row('a.b', 'T.1', '...');
      expect(port.requests[0]?.url).toBe(`${BASE}/api/public/tableApps/a.b/tables/T.1/rows/...`);
    });

    it('refuses a base URL that would send the key over plain http', () => {
      expect(
        () => new TableClient(new FakePort(), { baseUrl: 'http://svc.example.com', apiKey: KEY }),
      ).toThrow(/Use the https:\/\/ address/);
    });
  });

  describe('prefix detection', () => {
    describe('when /api/public answers the profile', () => {
      it('uses it, remembers it, and me() costs one request', () => {
        const port = new FakePort()
          .on('get', '/api/public/user/me', json(200, PROFILE))
          .on('get', '/api/public/tableApps/A1', json(200, { id: 'A1', name: 'App', tables: [] }));
        const client = clientOf(port, 'detect');
        expect(client.prefix).toBeUndefined();
        expect(client.me()).toEqual(PROFILE);
        expect(client.prefix).toBe('/api/public');
        client.tableApp('A1');
        expect(port.calls()).toEqual(['GET /api/public/user/me', 'GET /api/public/tableApps/A1']);
      });
    });

    describe('when /api/public answers 404', () => {
      it('falls back to /public and uses it from then on', () => {
        const port = new FakePort()
          .on('get', '/public/user/me', json(200, PROFILE))
          .on('get', '/public/tableApps/A1/tables/T1', json(200, { id: 'T1', name: 'T', columns: [] }));
        const client = clientOf(port, 'detect');
        client.table('A1', 'T1');
        expect(client.prefix).toBe('/public');
        expect(port.calls()).toEqual([
          'GET /api/public/user/me',
          'GET /public/user/me',
          'GET /public/tableApps/A1/tables/T1',
        ]);
      });
    });

    describe('when /api/public answers an HTML page with 200', () => {
      it('falls back to /public', () => {
        const port = new FakePort()
          .on('get', '/api/public/user/me', text(200, '<!doctype html><html><body>App</body></html>'))
          .on('get', '/public/user/me', json(200, PROFILE));
        const client = clientOf(port, 'detect');
        expect(client.detectPrefix()).toBe('/public');
        expect(client.me()).toEqual(PROFILE);
        expect(port.requests).toHaveLength(3);
      });
    });

    describe('when neither prefix answers', () => {
      it('says to check the service address', () => {
        const port = new FakePort().on(
          'get',
          '/public/user/me',
          text(200, '<html><body>login</body></html>'),
        );
        const error = thrown(() => clientOf(port, 'detect').me());
        expect(error.code).toBe('CONFIG');
        expect(error.message).toMatch(
          /^No table service answered at https:\/\/svc\.example\.com: check the service address .* Details: tried \/api\/public: HTTP 404, \/public: not JSON\.$/,
        );
      });
    });

    describe('when the probe is answered 401', () => {
      it('reports the refused key and does not guess a prefix', () => {
        const port = new FakePort().on(
          'get',
          '/api/public/user/me',
          json(401, { error: { message: 'bad token' } }),
        );
        const client = clientOf(port, 'detect');
        expect(thrown(() => client.me()).code).toBe('AUTH');
        expect(client.prefix).toBeUndefined();
        expect(port.requests).toHaveLength(1);
      });
    });

    describe('when the prefix is pinned', () => {
      it.each(['/api/public', '/public'] as const)('%s is used as is, without a probe', (prefix) => {
        const port = new FakePort().on('get', `${prefix}/user/me`, json(200, PROFILE));
        const client = clientOf(port, prefix);
        expect(client.prefix).toBe(prefix);
        client.me();
        expect(port.calls()).toEqual([`GET ${prefix}/user/me`]);
      });

      it('a prefix pasted into the base URL pins it', () => {
        const port = new FakePort().on('get', '/public/user/me', json(200, PROFILE));
        const client = new TableClient(port, { baseUrl: `${BASE}/public/`, apiKey: KEY });
        expect(client.prefix).toBe('/public');
        client.me();
        expect(port.requests[0]?.url).toBe(`${BASE}/public/user/me`);
      });
    });
  });

  describe('people', () => {
    it('always sends an explicit limit and encodes the e-mail', () => {
      const port = new FakePort().on(
        'get',
        '/api/public/user/people',
        json(200, { users: [{ id: 'u1' }], hasMore: false }),
      );
      const page = clientOf(port).people({ emailId: 'a+b@x.com' });
      expect(page).toEqual({ users: [{ id: 'u1' }], hasMore: false });
      expect(port.requests[0]?.url).toBe(
        `${BASE}/api/public/user/people?emailId=a%2Bb%40x.com&offset=0&limit=100`,
      );
    });

    it.each([0, 101, 1.5, -1])('refuses limit %d before sending', (limit) => {
      const port = new FakePort();
      expect(thrown(() => clientOf(port).people({ limit })).code).toBe('VALIDATION');
      expect(port.requests).toHaveLength(0);
    });

    it('allPeople pages until hasMore is false', () => {
      const users = Array.from({ length: 230 }, (_, i) => ({ id: `u${i}` }));
      const port = new FakePort().on('get', '/api/public/user/people', (r: HttpRequest) => {
        const q = queryOfUrl(r.url);
        const offset = Number(q.offset);
        const page = users.slice(offset, offset + Number(q.limit));
        return json(200, { users: page, hasMore: offset + page.length < users.length });
      });
      expect(
        clientOf(port)
          .allPeople()
          .map((u) => u.id),
      ).toEqual(users.map((u) => u.id));
      expect(port.requests.every((r) => queryOfUrl(r.url).limit === '100')).toBe(true);
    });
  });

  describe('reading a table app and a table', () => {
    it('returns the tables with their columns', () => {
      const columns = [
        { id: 'title', name: 'Name', type: 'text', config: { max: 256 }, cSchema: { type: 'string' } },
      ];
      const port = new FakePort().on(
        'get',
        '/api/public/tableApps/A1',
        json(200, { id: 'A1', name: 'App', tables: [{ id: 'T1', name: 'T', columns }] }),
      );
      expect(clientOf(port).tableApp('A1').tables[0]?.columns).toEqual(columns);
    });

    it.each([
      [{ id: 'A1', tables: {} }, /tables of the table app are not a list/],
      [{ id: 'A1', tables: [{ id: 'T1', columns: [{ name: 'no id' }] }] }, /a column has no id/],
      [[1, 2], /the table app has no id/],
    ])('refuses an unusable shape %j', (body, pattern) => {
      const port = new FakePort().on('get', '/api/public/tableApps/A1', json(200, body));
      const error = thrown(() => clientOf(port).tableApp('A1'));
      expect(error.code).toBe('BAD_RESPONSE');
      expect(error.message).toMatch(pattern);
    });
  });

  describe('listRows (one page)', () => {
    it.each([
      ['a bare array', [makeRow(1)], { hasMore: undefined, total: undefined }],
      ['rows + hasMore', { rows: [makeRow(1)], hasMore: true }, { hasMore: true, total: undefined }],
      ['data', { data: [makeRow(1)] }, { hasMore: undefined, total: undefined }],
      ['items + total', { items: [makeRow(1)], total: 40 }, { hasMore: undefined, total: 40 }],
      ['records + count', { records: [makeRow(1)], count: 40 }, { hasMore: undefined, total: 40 }],
      [
        'rows + hasMore + total',
        { rows: [makeRow(1)], hasMore: false, total: 1 },
        { hasMore: false, total: 1 },
      ],
    ])('accepts %s', (_, body, expected) => {
      const port = new FakePort().on('get', ROWS, json(200, body));
      const page = clientOf(port).listRows('A1', 'T1', { offset: 200 });
      expect(page.rows.map((r) => r.id)).toEqual(['r1']);
      expect(page.hasMore).toBe(expected.hasMore);
      expect(page.total).toBe(expected.total);
      expect(queryOfUrl(port.requests[0]!.url)).toEqual({ offset: '200', limit: '100' });
    });

    it.each([
      [{ rows: { a: 1 } }, /"rows" is not a list/],
      [{ rows: null }, /"rows" is not a list/],
      [{ hasMore: false }, /no list under rows, data, items, records/],
      ['just text', /expected a list/],
      [[{ title: 'no id' }], /a row has no id/],
      [[null], /a row is not an object/],
    ])('refuses %j as BAD_RESPONSE', (body, pattern) => {
      const port = new FakePort().on('get', ROWS, json(200, body));
      const error = thrown(() => clientOf(port).listRows('A1', 'T1'));
      expect(error.code).toBe('BAD_RESPONSE');
      expect(error.message).toMatch(pattern);
    });
  });

  describe('listAllRows', () => {
    const shapes: ListShape[] = ['rows+hasMore', 'bare', 'data', 'items+total', 'records+count', 'rows'];
    const counts = [0, 1, 99, 100, 101, 250, 1000, 2500];

    describe.each(shapes)('when the service answers in the %s shape', (shape) => {
      it.each(counts)('delivers all %i rows exactly once, in order, asking limit=100 every time', (count) => {
        const port = new FakePort().on('get', ROWS, listing(count, shape));
        const { rows, offsets, result } = collect(clientOf(port));
        expect(rows.map((r) => r.id)).toEqual(Array.from({ length: count }, (_, i) => `r${i}`));
        expect(result).toMatchObject({ rowCount: count, nextOffset: count, done: true });
        expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
        expect(port.requests.every((r) => queryOfUrl(r.url).limit === '100')).toBe(true);
        const needed = Math.max(1, Math.ceil(count / 100));
        expect(result.pageRequests).toBe(port.requests.length);
        // at most one wave of overshoot past the end
        expect(port.requests.length - needed).toBeLessThan(Math.max(...port.waves) + 1);
      });
    });

    it('ends at hasMore false without asking for an empty page (a first wave of one page)', () => {
      const port = new FakePort().on('get', ROWS, listing(100, 'rows+hasMore'));
      collect(clientOf(port), { firstWave: 1 });
      expect(port.requests).toHaveLength(1);
    });

    it('without hasMore, a full last page costs the empty page after it', () => {
      const port = new FakePort().on('get', ROWS, listing(100, 'bare'));
      const { result } = collect(clientOf(port, '/api/public'), { firstWave: 1 });
      expect(result.done).toBe(true);
      // The first page alone, then a wave of two: the empty page at 100 ends it.
      expect(port.calls()).toEqual([
        `GET ${ROWS}?offset=0&limit=100`,
        `GET ${ROWS}?offset=100&limit=100`,
        `GET ${ROWS}?offset=200&limit=100`,
      ]);
    });

    it('with the size unknown speculates 8 pages at once, then waves of 10: 28 pages for 2,500 rows', () => {
      const port = new FakePort().on('get', ROWS, listing(2500, 'rows+hasMore'));
      const { result } = collect(clientOf(port));
      // 8: with the schema read and the size probe riding along, the first wave is a full 10.
      expect(port.waves).toEqual([8, 10, 10]);
      expect(result.pageRequests).toBe(28);
    });

    it('with a known total asks exactly for the pages needed', () => {
      const port = new FakePort().on('get', ROWS, listing(2450, 'items+total'));
      const { result } = collect(clientOf(port));
      // The total arrives with the first wave; from then on exactly the pages needed.
      expect(port.waves).toEqual([8, 10, 7]);
      expect(result.pageRequests).toBe(25);
      expect(queryOfUrl(port.requests.at(-1)!.url).offset).toBe('2400');
    });

    it('with the expected total from the last pull plans without overshoot', () => {
      const port = new FakePort().on('get', ROWS, listing(2500, 'rows+hasMore'));
      const { result, rows } = collect(clientOf(port), { expectedTotal: 2500 });
      expect(result.pageRequests).toBe(25);
      expect(rows).toHaveLength(2500);
      // No lone first page: every wave is full but the last (25 pages in waves of 10).
      expect(port.waves).toEqual([10, 10, 5]);
    });

    it('reads the schema in the first page wave and hands it over before any page', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, listing(2500, 'rows+hasMore'));
      const seen: string[] = [];
      const result = clientOf(port).listTableAndRows(
        'A1',
        'T1',
        (table) => seen.push(`table ${table.columns.length}`),
        { expectedTotal: 2500, onPage: (page, offset) => seen.push(`page ${offset} ${page.length}`) },
      );
      expect(result).toMatchObject({ done: true, rowCount: 2500, pageRequests: 25 });
      // One wave less than reading the schema first: the schema takes a place of the first wave of 10.
      expect(port.waves).toEqual([10, 10, 6]);
      expect(port.calls()[0]).toBe(`GET ${TABLE}`);
      expect(seen.slice(0, 2)).toEqual(['table 1', 'page 0 100']);
    });

    it('tableAndFirstRows sends the schema with the first wave only, and the listing resumes after it', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, listing(2500, 'rows+hasMore'));
      const client = clientOf(port);
      const ids: string[] = [];
      const { table, firstWave } = client.tableAndFirstRows('A1', 'T1', {
        expectedTotal: 2500,
        onPage: (page) => void ids.push(...page.map((row) => String(row.id))),
      });
      expect(table.columns.map((column) => column.id)).toEqual(['title']);
      expect(port.waves).toEqual([10]);
      expect(firstWave).toMatchObject({ done: false, nextOffset: 900, rowCount: 900 });
      const rest = client.listAllRows('A1', 'T1', {
        startOffset: firstWave?.nextOffset ?? 0,
        expectedTotal: 2500,
        onPage: (page) => void ids.push(...page.map((row) => String(row.id))),
      });
      expect(rest.done).toBe(true);
      expect(ids).toEqual(Array.from({ length: 2500 }, (_, i) => `r${i}`));
      expect(port.waves).toEqual([10, 10, 6]);
    });

    it('tableAndRowsByIds reads the schema and the rows in one round, a missing row said per row', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', /\/rows\/r\d$/, (r: HttpRequest) =>
          r.url.endsWith('/r2')
            ? json(404, { message: 'no such row' })
            : json(200, makeRow(Number(r.url.slice(-1)))),
        );
      const { table, rows } = clientOf(port).tableAndRowsByIds('A1', 'T1', ['r1', 'r2']);
      expect(table.columns.map((column) => column.id)).toEqual(['title']);
      expect(rows.map((r) => (r.ok ? r.row.id : errorOf(r).code))).toEqual(['r1', 'NOT_FOUND']);
      expect(port.waves).toEqual([3]);
    });

    it('tableAndRowsByIds throws a failed schema read, and refuses more rows than fit its round', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const missing = new FakePort()
        .on('get', TABLE, json(404, { error: { code: 'not_found' } }))
        .on('get', /\/rows\/r\d$/, json(200, makeRow(1)));
      expect(thrown(() => clientOf(missing).tableAndRowsByIds('A1', 'T1', ['r1'])).code).toBe('NOT_FOUND');
      const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
      expect(thrown(() => clientOf(missing).tableAndRowsByIds('A1', 'T1', ids)).code).toBe('INTERNAL');
      expect(missing.waves).toEqual([2]);
    });

    it('tableAndFirstRows on a table read whole in its first wave says done', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, listing(250, 'rows+hasMore'));
      const { firstWave } = clientOf(port).tableAndFirstRows('A1', 'T1', { expectedTotal: 250 });
      expect(firstWave).toMatchObject({ done: true, rowCount: 250 });
      expect(port.waves).toEqual([4]);
    });

    it('tableAndFirstRows keeps the schema and the pages before a page that failed: the wave is a bonus', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const rows = listing(2500, 'rows+hasMore');
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, (request) =>
          /offset=300\b/.test(request.url) ? text(200, '<html>maintenance</html>') : rows(request),
        );
      const offsets: number[] = [];
      const { table, firstWave } = clientOf(port).tableAndFirstRows('A1', 'T1', {
        expectedTotal: 2500,
        onPage: (_page, offset) => void offsets.push(offset),
      });
      expect(table.columns.map((column) => column.id)).toEqual(['title']);
      expect(firstWave).toBeNull();
      expect(offsets).toEqual([0, 100, 200]);
    });

    it('tableAndFirstRows still throws a failed schema read, and a refused key', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const missing = new FakePort()
        .on('get', TABLE, json(404, { error: { code: 'not_found' } }))
        .on('get', ROWS, listing(300, 'rows+hasMore'));
      expect(thrown(() => clientOf(missing).tableAndFirstRows('A1', 'T1', { expectedTotal: 300 })).code).toBe(
        'NOT_FOUND',
      );
      const refusedKey = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, json(401, { error: { code: 'unauthorized' } }));
      expect(
        thrown(() => clientOf(refusedKey).tableAndFirstRows('A1', 'T1', { expectedTotal: 300 })).code,
      ).toBe('AUTH');
    });

    it('counts the riding schema read and probe as places of the wave: no wave passes maxParallel', () => {
      const TABLE = '/api/public/tableApps/A1/tables/T1';
      const port = new FakePort()
        .on('get', TABLE, json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', type: 'text' }] }))
        .on('get', ROWS, listing(2500, 'rows+hasMore'));
      const probed: number[] = [];
      const result = clientOf(port).listTableAndRows('A1', 'T1', () => undefined, {
        expectedTotal: 2500,
        probe: { at: () => 90_000, found: (offset) => void probed.push(offset) },
      });
      expect(result).toMatchObject({ done: true, rowCount: 2500 });
      // Schema + 8 pages + probe, then 10 and 7 pages: three rounds, none above 10 requests.
      expect(port.waves).toEqual([10, 10, 7]);
      expect(probed).toEqual([90_000]);
    });

    it('a failed schema read in the first wave throws its own error before any page is delivered', () => {
      const port = new FakePort()
        .on('get', '/api/public/tableApps/A1/tables/T1', json(404, { error: { code: 'not_found' } }))
        .on('get', ROWS, listing(300, 'rows+hasMore'));
      const pages: number[] = [];
      const error = thrown(() =>
        clientOf(port).listTableAndRows('A1', 'T1', () => pages.push(-1), {
          onPage: (_page, offset) => pages.push(offset),
        }),
      );
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toMatch(/table/i);
      expect(pages).toEqual([]);
    });

    it('with an expected total larger than the table stops at the first short page', () => {
      const port = new FakePort().on('get', ROWS, listing(250, 'rows+hasMore'));
      const { rows } = collect(clientOf(port), { expectedTotal: 800 });
      expect(rows).toHaveLength(250);
      expect(port.requests.length).toBeLessThanOrEqual(8);
    });

    it('sends a probe once per new offset, in a page wave, and hears it before the wave is delivered', () => {
      const port = new FakePort().on('get', ROWS, listing(1000, 'rows+hasMore'));
      const heard: string[] = [];
      let probeAt: number | undefined = 50_000;
      const { rows } = collect(clientOf(port), {
        probe: {
          at: () => probeAt,
          found: (offset, count) => {
            heard.push(`probe ${offset} ${count}`);
            probeAt = 900;
          },
        },
        onPage: (page, offset) => void heard.push(`page ${offset} ${page.length}`),
      });
      expect(rows).toHaveLength(1000);
      // Sent with the first wave (8 pages + probe); 900 lies inside the second wave's pages: not sent,
      // and it takes no place of that wave (a full 10).
      expect(port.waves).toEqual([9, 10]);
      expect(heard.slice(0, 2)).toEqual(['probe 50000 0', 'page 0 100']);
      expect(heard.filter((entry) => entry.startsWith('probe'))).toHaveLength(1);
    });

    it('a probe that throws ends the listing before its wave is delivered', () => {
      const port = new FakePort().on('get', ROWS, listing(3000, 'rows+hasMore'));
      const pages: number[] = [];
      const error = thrown(() =>
        clientOf(port).listAllRows('A1', 'T1', {
          probe: {
            at: () => (pages.length > 0 ? 2000 : undefined),
            found: (_offset, count) => {
              if (count > 0) throw new SyncError('SHEET', 'too large');
            },
          },
          onPage: (_page, offset) => void pages.push(offset),
        }),
      );
      expect(error.message).toBe('too large');
      expect(pages).toEqual([0, 100, 200, 300, 400, 500, 600, 700]);
    });

    it('never sends a wave larger than maxParallel', () => {
      const port = new FakePort().on('get', ROWS, listing(3000, 'bare'));
      collect(clientOf(port), { maxParallel: 4 });
      expect(Math.max(...port.waves)).toBe(4);
    });

    describe('when the service caps pages below the limit but says hasMore', () => {
      it('steps by the page size it answers and loses no row', () => {
        const port = new FakePort().on('get', ROWS, listing(730, 'rows+hasMore', 50));
        const { rows } = collect(clientOf(port));
        expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 730 }, (_, i) => `r${i}`));
        expect(port.requests.every((r) => queryOfUrl(r.url).limit === '100')).toBe(true);
        // 15 pages of 50, the 3 pages of the first wave planned at 100-row steps, at most one wave of overshoot
        expect(port.requests.length).toBeLessThanOrEqual(15 + 3 + 8);
      });
    });

    describe('when a page in the middle of a wave is short but says hasMore', () => {
      it('re-plans from the end of that page', () => {
        const base = listing(500, 'rows+hasMore');
        const port = new FakePort().on('get', ROWS, (r: HttpRequest) => {
          const offset = Number(queryOfUrl(r.url).offset);
          if (offset === 200)
            return json(200, { rows: Array.from({ length: 60 }, (_, i) => makeRow(200 + i)), hasMore: true });
          return base(r);
        });
        const { rows } = collect(clientOf(port));
        expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 500 }, (_, i) => `r${i}`));
      });
    });

    describe('when shouldStop says time is up', () => {
      it('stops between waves and resumes exactly from nextOffset', () => {
        const port = new FakePort().on('get', ROWS, listing(2345, 'bare'));
        const client = clientOf(port);
        let waves = 0;
        const first = collect(client, { shouldStop: () => ++waves > 1 });
        expect(first.result.done).toBe(false);
        expect(first.result.nextOffset).toBe(first.rows.length);
        expect(first.rows.length).toBe(1800);
        const second = collect(client, { startOffset: first.result.nextOffset });
        expect(second.result.done).toBe(true);
        expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(
          Array.from({ length: 2345 }, (_, i) => `r${i}`),
        );
      });

      it('stops when the deadline has run out', () => {
        const port = new FakePort().on('get', ROWS, listing(1000, 'bare'));
        const { result } = collect(clientOf(port), { deadline: () => 0 });
        // The first wave always goes out (8 pages with the size unknown).
        expect(result).toMatchObject({ done: false, nextOffset: 800, pageRequests: 8 });
      });
    });

    describe("when onPage answers 'stop'", () => {
      it('delivers nothing after that page', () => {
        const port = new FakePort().on('get', ROWS, listing(1000, 'bare'));
        const { rows, result } = collect(clientOf(port), {
          onPage: (_, offset) => (offset === 300 ? 'stop' : undefined),
        });
        expect(rows).toHaveLength(400);
        expect(result).toMatchObject({ done: false, nextOffset: 400 });
      });
    });

    describe('when a page fails for good', () => {
      it('delivers the pages before it, then throws', () => {
        const base = listing(1000, 'bare');
        const port = new FakePort().on('get', ROWS, (r: HttpRequest) =>
          queryOfUrl(r.url).offset === '200' ? json(403, { error: { message: 'revoked' } }) : base(r),
        );
        const offsets: number[] = [];
        const error = thrown(() =>
          client().listAllRows('A1', 'T1', { onPage: (_, o) => void offsets.push(o) }),
        );
        expect(error.code).toBe('FORBIDDEN');
        expect(offsets).toEqual([0, 100]);
        function client() {
          return clientOf(port);
        }
      });
    });

    describe('when a page answers 503 once', () => {
      it('re-sends only that page after a backoff and keeps the order', () => {
        const base = listing(800, 'rows+hasMore');
        let failed = false;
        const port = new FakePort().on('get', ROWS, (r: HttpRequest) => {
          if (queryOfUrl(r.url).offset === '300' && !failed) {
            failed = true;
            return text(503, 'busy');
          }
          return base(r);
        });
        const { rows } = collect(clientOf(port));
        expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 800 }, (_, i) => `r${i}`));
        expect(port.waves).toEqual([8, 1]);
        expect(port.sleeps).toHaveLength(1);
      });
    });
  });

  describe('retries', () => {
    const APP = '/api/public/tableApps/A1';
    const app = json(200, { id: 'A1', name: 'App', tables: [] });

    describe('when the service answers 429 with Retry-After in seconds', () => {
      it('waits exactly that long, then succeeds', () => {
        const port = new FakePort().on('get', APP, json(429, {}, { 'retry-after': '2' }), app);
        expect(clientOf(port).tableApp('A1').id).toBe('A1');
        expect(port.sleeps).toEqual([2000]);
      });
    });

    describe('when the service answers 503 with Retry-After as an HTTP date', () => {
      it('waits until that date by the port clock', () => {
        const port = new FakePort();
        const at = new Date(port.clock + 7000).toUTCString();
        port.on('get', APP, text(503, '', { 'retry-after': at }), app);
        clientOf(port).tableApp('A1');
        expect(port.sleeps).toEqual([7000]);
      });
    });

    describe('when the service keeps answering 502', () => {
      it('backs off exponentially, bounded, and gives up after 8 tries', () => {
        const port = new FakePort().on('get', APP, text(502, '<html><body>Bad gateway</body></html>'));
        const error = thrown(() => clientOf(port).tableApp('A1'));
        expect(error.code).toBe('SERVER');
        expect(error.message).toMatch(
          /having trouble: .* Details: HTTP 502 Bad Gateway; the service said "Bad gateway"\./,
        );
        expect(port.requests).toHaveLength(8);
        expect(port.sleeps).toHaveLength(7);
        port.sleeps.forEach((ms, i) => {
          expect(ms).toBeGreaterThanOrEqual(Math.min(250 * 2 ** i, 15_000));
          expect(ms).toBeLessThanOrEqual(Math.min(500 * 2 ** i, 30_000));
        });
      });

      it('never waits longer than maxDelayMs', () => {
        const port = new FakePort().on('get', APP, text(500, ''));
        thrown(() =>
          clientOf(port, '/api/public', { retry: { maxAttempts: 12, maxDelayMs: 3000 } }).tableApp('A1'),
        );
        expect(Math.max(...port.sleeps)).toBeLessThanOrEqual(3000);
      });
    });

    describe('when the deadline is near', () => {
      it('does not sleep past it and reports the wait', () => {
        const port = new FakePort().on('get', APP, json(429, {}, { 'retry-after': '30' }), app);
        const error = thrown(() => clientOf(port, '/api/public', { deadline: () => 10_000 }).tableApp('A1'));
        expect(error.code).toBe('RATE_LIMITED');
        expect(error.retryAfterMs).toBe(30_000);
        expect(port.sleeps).toEqual([]);
      });

      it('stops backing off when the next wait would pass it', () => {
        const port = new FakePort().on('get', APP, network());
        const end = port.clock + 2000;
        thrown(() => clientOf(port, '/api/public', { deadline: () => end - port.clock }).tableApp('A1'));
        expect(port.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
        expect(port.requests.length).toBeLessThan(5);
      });
    });

    describe('when Retry-After is longer than the client waits', () => {
      it('fails at once with the wait', () => {
        const port = new FakePort().on('get', APP, json(429, {}, { 'retry-after': '3600' }), app);
        const error = thrown(() => clientOf(port).tableApp('A1'));
        expect(error.retryAfterMs).toBe(3_600_000);
        expect(port.requests).toHaveLength(1);
      });
    });

    describe('when a request is refused (400, 401, 403, 404)', () => {
      it.each([400, 401, 403, 404])('%i is not retried', (status) => {
        const port = new FakePort().on('get', APP, json(status, {}));
        thrown(() => clientOf(port).tableApp('A1'));
        expect(port.requests).toHaveLength(1);
      });
    });

    describe('when a POST gets no definite answer', () => {
      it.each([
        ['a dropped connection', network('Unexpected EOF')],
        ['500', text(500, '')],
        ['502', text(502, '')],
        ['504', text(504, '')],
        ['503', json(503, { error: { message: 'upstream reset' } }, { 'retry-after': '1' })],
      ])('%s is not retried and the outcome is unknown', (_, answer) => {
        const port = new FakePort().on('post', ROWS, answer, json(201, makeRow(9)));
        const error = thrown(() => clientOf(port).createRow('A1', 'T1', { title: 'x' }));
        expect(error.outcomeUnknown).toBe(true);
        expect(error.message).toMatch(/may have been created anyway/);
        expect(port.requests).toHaveLength(1);
      });
    });

    describe('when a POST is answered 429', () => {
      it('was not processed: retried', () => {
        const port = new FakePort().on(
          'post',
          ROWS,
          json(429, {}, { 'retry-after': '1' }),
          json(201, makeRow(9)),
        );
        expect(clientOf(port).createRow('A1', 'T1', { title: 'x' }).id).toBe('r9');
        expect(port.requests).toHaveLength(2);
        expect(port.sleeps).toEqual([1000]);
      });
    });

    describe('when a POST answers 2xx with something that is not a row', () => {
      it.each([
        ['a row without id', json(201, { title: 'no id' })],
        ['an error body', json(200, { error: { message: 'write timed out' } })],
        ['an error body with a status', json(201, { status: 400, error: 'bad request' })],
      ])('%s: the row may exist, outcome unknown, not retried', (_, answer) => {
        const port = new FakePort().on('post', ROWS, answer, json(201, makeRow(9)));
        const error = thrown(() => clientOf(port).createRow('A1', 'T1', { title: 'x' }));
        expect(error).toMatchObject({ code: 'BAD_RESPONSE', outcomeUnknown: true });
        expect(port.requests).toHaveLength(1);
      });
    });

    describe('when a PATCH loses its connection', () => {
      it('is retried (idempotent) and succeeds', () => {
        const port = new FakePort().on('patch', ROW('r1'), network(), json(200, makeRow(1, { status: 'x' })));
        expect(clientOf(port).updateRow('A1', 'T1', 'r1', { status: 'x' }).status).toBe('x');
        expect(port.requests).toHaveLength(2);
        expect(port.requests[1]?.payload).toBe('{"status":"x"}');
      });
    });
  });

  describe('batch writes', () => {
    function patchEcho(request: HttpRequest) {
      const id = pathOfUrl(request.url).split('/').at(-1)!;
      return json(200, { ...makeRow(0), id, ...JSON.parse(request.payload ?? '{}') });
    }

    it('sends in bounded waves and answers one result per item, in order', () => {
      const port = new FakePort().on('patch', /\/rows\/r\d+$/, (r: HttpRequest) =>
        r.url.endsWith('/r7') ? json(400, { error: { message: 'too long' } }) : patchEcho(r),
      );
      const items = Array.from({ length: 25 }, (_, i) => ({ rowId: `r${i}`, patch: { status: `s${i}` } }));
      const seen: number[] = [];
      const results = clientOf(port).updateRows('A1', 'T1', items, {
        onWave: (so) => void seen.push(so.length),
      });
      expect(port.waves).toEqual([10, 10, 5]);
      expect(seen).toEqual([10, 20, 25]);
      expect(results).toHaveLength(25);
      results.forEach((r, i) => {
        if (i === 7)
          expect(errorOf(r).message).toMatch(
            /refused the request for row r7 in table T1\. Details: HTTP 400 Bad Request; the service said "too long"\./,
          );
        else expect(r.ok && r.row.id === `r${i}` && r.row.status === `s${i}`).toBe(true);
      });
    });

    it('refuses a read-only field for that item only, without sending it', () => {
      const port = new FakePort().on('patch', /./, patchEcho);
      const results = clientOf(port).updateRows('A1', 'T1', [
        { rowId: 'r1', patch: { title: 'a' } },
        { rowId: 'r2', patch: { lMod: 'x', title: 'b' } },
        { rowId: '', patch: { title: 'c' } },
        { rowId: 'r4', patch: { title: 'd' } },
      ]);
      expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
      expect(errorOf(results[1])).toMatchObject({ code: 'VALIDATION' });
      expect(errorOf(results[1]).message).toMatch(/"lMod" is read-only/);
      expect(results[1]).toMatchObject({ notSent: true });
      expect(port.requests.map((r) => pathOfUrl(r.url).split('/').at(-1))).toEqual(['r1', 'r4']);
    });

    describe('when the service answers 429 in a wave', () => {
      it('sleeps per Retry-After, re-sends those items, and halves the next wave', () => {
        let calls = 0;
        const port = new FakePort().on('post', ROWS, (r: HttpRequest) => {
          calls++;
          if (calls === 3 || calls === 4) return json(429, {}, { 'retry-after': '2' });
          return json(201, { ...makeRow(calls), ...JSON.parse(r.payload!) });
        });
        const items = Array.from({ length: 30 }, (_, i) => ({ title: `t${i}` }));
        const results = clientOf(port).createRows('A1', 'T1', items);
        expect(results.every((r) => r.ok)).toBe(true);
        expect(results.map((r) => (r.ok ? r.row.title : ''))).toEqual(items.map((i) => i.title));
        expect(port.waves).toEqual([10, 2, 5, 6, 7, 2]);
        expect(port.sleeps).toEqual([2000]);
      });
    });

    describe('when a create loses its connection', () => {
      it('reports that item as outcome unknown and creates the others', () => {
        const port = new FakePort().on('post', ROWS, (r: HttpRequest) =>
          r.payload === '{"title":"b"}' ? network() : json(201, { ...makeRow(1), ...JSON.parse(r.payload!) }),
        );
        const results = clientOf(port).createRows('A1', 'T1', [
          { title: 'a' },
          { title: 'b' },
          { title: 'c' },
        ]);
        expect(results.map((r) => r.ok)).toEqual([true, false, true]);
        expect(errorOf(results[1])).toMatchObject({ code: 'NETWORK', outcomeUnknown: true });
        expect(port.requests).toHaveLength(3);
      });
    });

    describe('when shouldStop says time is up', () => {
      it('leaves the rest unsent as TIME', () => {
        const port = new FakePort().on('patch', /./, patchEcho);
        const items = Array.from({ length: 12 }, (_, i) => ({ rowId: `r${i}`, patch: { a: i } }));
        let waves = 0;
        const results = clientOf(port).updateRows('A1', 'T1', items, {
          waveSize: 5,
          shouldStop: () => waves++ >= 1,
        });
        expect(results.filter((r) => r.ok)).toHaveLength(5);
        results.slice(5).forEach((r) => {
          expect(r).toMatchObject({ ok: false, notSent: true });
          expect(errorOf(r).code).toBe('TIME');
        });
        expect(port.requests).toHaveLength(5);
      });
    });

    it('rowsByIds reads each row and reports a missing one', () => {
      const port = new FakePort().on('get', /\/rows\/r\d$/, (r: HttpRequest) =>
        r.url.endsWith('/r2')
          ? json(404, { message: 'no such row' })
          : json(200, makeRow(Number(r.url.slice(-1)))),
      );
      const results = clientOf(port).rowsByIds('A1', 'T1', ['r1', 'r2', 'r3']);
      expect(results.map((r) => (r.ok ? r.row.id : errorOf(r).code))).toEqual(['r1', 'NOT_FOUND', 'r3']);
      expect(errorOf(results[1]).message).toMatch(
        /^Row r2 was not found in table T1: it may have been deleted on the service\./,
      );
      expect(port.waves).toEqual([3]);
    });
  });

  describe('when answers carry __proto__ or constructor keys', () => {
    const hostile =
      '{"id":"r1","title":"x","__proto__":{"polluted":"yes","id":"evil"},"constructor":{"prototype":{"polluted":"yes"}}}';

    it('keeps them as own members and changes no prototype', () => {
      const port = new FakePort()
        .on('get', ROW('r1'), text(200, hostile))
        .on('patch', ROW('r1'), text(200, hostile));
      const client = clientOf(port);
      for (const row of [client.row('A1', 'T1', 'r1'), client.updateRow('A1', 'T1', 'r1', { title: 'x' })]) {
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        expect(row.id).toBe('r1');
        expect(Object.keys(row)).toContain('__proto__');
        expect((row as Record<string, unknown>).polluted).toBeUndefined();
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('a list hidden under __proto__ is no list', () => {
      const port = new FakePort().on('get', ROWS, text(200, '{"__proto__":{"rows":[{"id":"r1"}]}}'));
      expect(thrown(() => clientOf(port).listRows('A1', 'T1')).code).toBe('BAD_RESPONSE');
    });

    it('rows listed with hostile keys pass through unchanged', () => {
      const port = new FakePort().on('get', ROWS, text(200, `{"rows":[${hostile}],"hasMore":false}`));
      const { rows } = collect(clientOf(port));
      expect(rows).toHaveLength(1);
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
      expect(JSON.stringify(rows[0])).toBe(hostile);
    });

    it('an error message hidden under __proto__ is not read', () => {
      const port = new FakePort().on('get', ROWS, text(400, '{"__proto__":{"message":"from proto"}}'));
      expect(thrown(() => clientOf(port).listRows('A1', 'T1')).message).not.toMatch(/said: "from proto"/);
    });

    it('a patch with an own __proto__ column is sent as it is', () => {
      const port = new FakePort().on('patch', ROW('r1'), json(200, makeRow(1)));
      clientOf(port).updateRow('A1', 'T1', 'r1', JSON.parse('{"__proto__":"v","title":"t"}'));
      expect(port.requests[0]?.payload).toBe('{"__proto__":"v","title":"t"}');
    });
  });

  describe('the API key', () => {
    it('appears in no message of any failure the client reports', () => {
      const answers = [
        json(401, { message: `bad token ${KEY}` }),
        json(403, { error: KEY }),
        text(200, `<html><body>${KEY}</body></html>`),
        text(500, `auth: ${KEY}`),
        network(`auth ${KEY}`),
        json(200, { error: { message: KEY } }),
        json(200, { rows: KEY }),
      ];
      for (const answer of answers) {
        for (const call of [
          (c: TableClient) => c.tableApp('A1'),
          (c: TableClient) => c.createRow('A1', 'T1', { title: 'x' }),
          (c: TableClient) => c.listRows('A1', 'T1'),
        ]) {
          const port = new FakePort().on('get', /./, answer).on('post', /./, answer);
          thrown(() => call(clientOf(port, '/api/public', { retry: { maxAttempts: 1 } })));
        }
        // a profile may legitimately be any object, so the probe need not fail on every answer
        const port = new FakePort().on('get', /./, answer);
        try {
          clientOf(port, 'detect').me();
        } catch (error) {
          expect((error as Error).message).not.toContain(KEY);
        }
      }
    });
  });
});

describe('searchTableApps (the search of table apps the seed names without a shape)', () => {
  const APPS = '/api/public/tableApps';
  const app = (n: number, extra: Record<string, unknown> = {}) => ({
    id: `ta_${n}`,
    name: `App ${n}`,
    ...extra,
  });

  /** A search over `count` apps answering in the settled shape, honouring q, offset and limit. */
  function search(
    count: number,
    shape: 'tableApps' | 'apps' | 'bare' | 'data+total' = 'tableApps',
    ignoresQuery = false,
  ) {
    const all = Array.from({ length: count }, (_, i) => app(i + 1));
    return (request: HttpRequest) => {
      const q = queryOfUrl(request.url);
      const found = all.filter(
        (each) => ignoresQuery || q.q === undefined || each.name.toLowerCase().includes(q.q.toLowerCase()),
      );
      const offset = Number(q.offset);
      const page = found.slice(offset, offset + Number(q.limit));
      const hasMore = offset + page.length < found.length;
      if (shape === 'bare') return json(200, page);
      if (shape === 'apps') return json(200, { apps: page, hasMore });
      if (shape === 'data+total') return json(200, { data: page, total: found.length });
      return json(200, { tableApps: page, hasMore });
    };
  }

  /** An operation memory in a plain object, as user properties would keep it. */
  function memory(): OperationMemory & { since: number | null; writes: number } {
    return {
      since: null,
      writes: 0,
      lackingSince() {
        return this.since;
      },
      setLackingSince(_operation, at) {
        this.since = at;
        this.writes += 1;
      },
    };
  }

  describe('when the service lists table apps', () => {
    it.each([
      'tableApps',
      'apps',
      'bare',
      'data+total',
    ] as const)('reads the %s shape and pages to the end, limit=100 always sent', (shape) => {
      const port = new FakePort().on('get', APPS, search(230, shape));
      const found = clientOf(port).searchTableApps();
      expect(found).toMatchObject({ available: true, complete: true });
      if (!found.available) throw new Error('unavailable');
      expect(found.apps.map((each) => each.id)).toEqual(Array.from({ length: 230 }, (_, i) => `ta_${i + 1}`));
      const offsets = port.requests.map((r) => queryOfUrl(r.url));
      expect(offsets.slice(0, 3)).toEqual([
        { offset: '0', limit: '100' },
        { offset: '100', limit: '100' },
        { offset: '200', limit: '100' },
      ]);
    });

    it('sends the search text as q and keeps the tables the listing names; a nameless app shows its id', () => {
      const port = new FakePort().on(
        'get',
        APPS,
        json(200, {
          tableApps: [
            { id: 'ta_crm', name: 'CRM & Sales', tables: [{ id: 't1', name: 'Deals' }, { id: 't2' }] },
            { id: 'ta_x', name: 'Sales ops' },
            { id: 'ta_y', name: '' },
          ],
          hasMore: false,
        }),
      );
      const found = clientOf(port).searchTableApps('  SALES ');
      expect(queryOfUrl(port.requests[0]!.url)).toEqual({ q: 'SALES', offset: '0', limit: '100' });
      // ta_y has no name to match: a service that ignores q is caught out, its answer filtered here.
      expect(found).toEqual({
        available: true,
        complete: true,
        apps: [
          {
            id: 'ta_crm',
            name: 'CRM & Sales',
            tables: [
              { id: 't1', name: 'Deals' },
              { id: 't2', name: 't2' },
            ],
          },
          { id: 'ta_x', name: 'Sales ops' },
        ],
      });
    });

    it('filters by itself when the service ignores q', () => {
      const port = new FakePort().on('get', APPS, search(30, 'tableApps', true));
      const found = clientOf(port).searchTableApps('app 2');
      expect(found.available && found.apps.map((each) => each.name)).toEqual([
        'App 2',
        ...Array.from({ length: 10 }, (_, i) => `App ${20 + i}`),
      ]);
    });
  });

  describe('when there are more apps than the client lists', () => {
    it('stops at the cap and says the list is not complete', () => {
      const port = new FakePort().on('get', APPS, search(1200));
      const found = clientOf(port).searchTableApps('', { maxApps: 150 });
      expect(found.available && found.apps.length).toBe(150);
      expect(found.available && found.complete).toBe(false);
      expect(port.requests.length).toBeLessThanOrEqual(3);
    });

    it('reads 20 pages at most, for a service that ignores q among many apps', () => {
      const port = new FakePort().on('get', APPS, search(5000, 'tableApps', true));
      const found = clientOf(port).searchTableApps('App 4999');
      expect(found.available && [found.apps.map((each) => each.name), found.complete]).toEqual([[], false]);
      // 20 pages delivered; the last wave of two may have asked one page more.
      expect(port.requests.length).toBeGreaterThanOrEqual(20);
      expect(port.requests.length).toBeLessThanOrEqual(21);
    });

    it('gives the apps listed so far, as not complete, when the time allowed runs out', () => {
      const port = new FakePort().on('get', APPS, search(250));
      const found = clientOf(port, '/api/public', { deadline: () => 0 }).searchTableApps();
      expect(found.available && [found.apps.length, found.complete]).toEqual([100, false]);
      expect(port.requests.length).toBe(1);
    });

    it('lists 500 by default', () => {
      const port = new FakePort().on('get', APPS, search(501));
      const found = clientOf(port).searchTableApps();
      expect(found.available && [found.apps.length, found.complete]).toEqual([500, false]);
    });

    it('is complete when the apps number exactly the cap', () => {
      const port = new FakePort().on('get', APPS, search(200));
      const found = clientOf(port).searchTableApps('', { maxApps: 200 });
      expect(found.available && [found.apps.length, found.complete]).toEqual([200, true]);
    });

    it('ends, incomplete, when the service ignores offset (the same page again)', () => {
      const port = new FakePort().on(
        'get',
        APPS,
        json(
          200,
          Array.from({ length: 100 }, (_, i) => app(i)),
        ),
      );
      const found = clientOf(port).searchTableApps();
      expect(found.available && [found.apps.length, found.complete]).toEqual([100, false]);
      expect(port.requests.length).toBeLessThanOrEqual(3);
    });
  });

  describe('when the service lacks the operation', () => {
    it.each([
      ['404', json(404, { message: 'Not found' })],
      ['405', json(405, { message: 'Method not allowed' })],
      ['400', json(400, { errors: [{ msg: 'Invalid id tableApps' }] })],
      ['501', text(501, 'Not Implemented')],
      ['a 200 HTML page', text(200, '<html><body>Sign in</body></html>')],
      ['a 200 single table app', json(200, { id: 'tableApps', name: 'x', tables: [] })],
      ['a 200 list of things without ids', json(200, { data: [{ name: 'x' }] })],
    ])('answers unavailable on %s, with what to do instead, and remembers it', (_what, answer) => {
      const port = new FakePort().on('get', APPS, answer);
      const remembered = memory();
      const found = clientOf(port, '/api/public', { operationMemory: remembered }).searchTableApps();
      expect(found).toEqual({
        available: false,
        reason: expect.stringContaining('paste the table app’s link'),
      });
      expect(remembered.since).toBe(port.clock);
      expect(port.requests.length).toBe(1);
    });

    it('does not ask again within a day, asks after a day, and forgets once the service has it', () => {
      const remembered = memory();
      const port = new FakePort().on('get', APPS, json(404, {}), search(3));
      const client = () => clientOf(port, '/api/public', { operationMemory: remembered });
      expect(client().searchTableApps().available).toBe(false);
      const since = port.clock;

      port.clock += LACKING_OPERATION_RETRY_MS - 1;
      expect(client().searchTableApps('crm').available).toBe(false);
      expect(port.requests.length).toBe(1);

      port.clock += 1;
      const found = client().searchTableApps();
      expect(found.available && found.apps.length).toBe(3);
      expect(port.requests.length).toBe(2);
      expect(remembered.since).toBeNull();
      expect(since).toBeLessThan(port.clock);
    });

    it('asks when the time remembered is ahead of the clock (a clock that was wrong)', () => {
      const remembered = memory();
      const port = new FakePort().on('get', APPS, search(1));
      remembered.since = port.clock + 60 * 60 * 1000;
      const found = clientOf(port, '/api/public', { operationMemory: remembered }).searchTableApps();
      expect(found.available).toBe(true);
      expect(remembered.since).toBeNull();
    });

    it('asks after a day and, still without it, remembers the new time', () => {
      const remembered = memory();
      const port = new FakePort().on('get', APPS, json(404, {}));
      clientOf(port, '/api/public', { operationMemory: remembered }).searchTableApps();
      port.clock += LACKING_OPERATION_RETRY_MS;
      const found = clientOf(port, '/api/public', { operationMemory: remembered }).searchTableApps();
      expect(found.available).toBe(false);
      expect(port.requests.length).toBe(2);
      expect(remembered.since).toBe(port.clock);
    });
  });

  describe('when the call fails for another reason', () => {
    it.each([
      ['401', json(401, { message: 'bad token' }), 'AUTH'],
      ['403', json(403, { message: 'no' }), 'FORBIDDEN'],
      ['503', json(503, { message: 'down' }), 'SERVER'],
      ['no answer', network(), 'NETWORK'],
    ])('throws on %s and remembers nothing', (_what, answer, code) => {
      const port = new FakePort().on('get', APPS, answer);
      const remembered = memory();
      const error = thrown(() =>
        clientOf(port, '/api/public', {
          operationMemory: remembered,
          retry: { maxAttempts: 1 },
        }).searchTableApps(),
      );
      expect(error.code).toBe(code);
      expect(remembered.writes).toBe(0);
    });

    it('throws when a later page fails, rather than call a working search missing', () => {
      const port = new FakePort().on('get', APPS, search(150), json(404, {}));
      const remembered = memory();
      thrown(() => clientOf(port, '/api/public', { operationMemory: remembered }).searchTableApps());
      expect(remembered.writes).toBe(0);
    });
  });
});
