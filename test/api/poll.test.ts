// The client's poll for row updates: the request it sends, paging, and the poll checked rather than
// trusted: missing (404/405/400/501, not a listing) or ignoring since, each remembered per connection
// and tried again after a day (the port's clock).

import { describe, expect, it } from 'vitest';
import { TableClient } from '../../src/api/client';
import { MAX_POLL_RESTARTS, POLL_RETRY_MS, type PollMemory } from '../../src/api/poll';
import type { Row } from '../../src/api/types';
import { SyncError } from '../../src/core/errors';
import { FakePort, json, makeRow, queryOfUrl, text } from './fake-port';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNlY3JldA';
const UPDATES = '/api/public/tableApps/A1/tables/T1/rows/updates';
const SINCE = '2025-01-01T10:00:00.000Z';

function clientOf(port: FakePort, poll?: PollMemory): TableClient {
  return new TableClient(
    port,
    { baseUrl: 'https://svc.example.com', apiKey: KEY, prefix: '/api/public' },
    poll ? { poll } : {},
  );
}

/** A row changed `minutes` after 10:00. */
function changed(n: number, minutes: number): Record<string, unknown> {
  return makeRow(n, { lMod: new Date(Date.parse(SINCE) + minutes * 60_000).toISOString() });
}

/** A row's lMod, as ms. */
const at = (row: Record<string, unknown>): number => Date.parse(String(row.lMod));

/**
 * The poll as a service answers it from `table` as it is at each request: rows with lMod ≥ since,
 * ordered by lMod then id, sliced by offset and limit. `between` runs after each answer (its count
 * from 1): a person changing the table between pages.
 */
function served(
  table: Array<Record<string, unknown>>,
  shape: 'object' | 'array' = 'object',
  between: (answered: number) => void = () => {},
) {
  let answered = 0;
  return (request: { url: string }) => {
    const query = queryOfUrl(request.url);
    const since = Date.parse(query.since as string);
    const offset = Number(query.offset);
    const limit = Number(query.limit);
    const order = table
      .filter((row) => at(row) >= since)
      .sort((a, b) => at(a) - at(b) || (String(a.id) < String(b.id) ? -1 : 1));
    const rows = order.slice(offset, offset + limit);
    const answer = json(200, shape === 'array' ? rows : { rows, hasMore: offset + limit < order.length });
    between(++answered);
    return answer;
  };
}

/** The `since` and offset of every poll request, in order. */
function asked(port: FakePort): string[] {
  return port.requests.map((request) => {
    const query = queryOfUrl(request.url);
    return `${query.since} ${query.offset}`;
  });
}

function poll(client: TableClient) {
  const rows: Row[] = [];
  const outcome = client.rowsChangedSince('A1', 'T1', SINCE, {
    onPage: (page) => {
      for (const row of page) rows.push(row);
    },
  });
  return { outcome, rows };
}

describe('TableClient.rowsChangedSince', () => {
  describe('when the service serves the poll', () => {
    it('asks GET …/rows/updates with since, offset and limit=100, one page first: an unchanged table costs one request', () => {
      const port = new FakePort().on('get', UPDATES, json(200, { rows: [], hasMore: false }));
      const client = clientOf(port);
      const { outcome, rows } = poll(client);
      expect(outcome).toEqual({
        supported: true,
        listing: { rowCount: 0, pageRequests: 1, nextOffset: 0, done: true },
      });
      expect(rows).toEqual([]);
      expect(port.waves).toEqual([1]);
      expect(queryOfUrl(port.requests[0]?.url ?? '')).toEqual({ since: SINCE, offset: '0', limit: '100' });
      expect(client.pollMemory).toEqual({ supported: true, checkedAt: port.clock });
    });

    it('pages through every changed row, in any listing shape, each page from the row the one before ended on', () => {
      const table = [
        ...Array.from({ length: 100 }, (_, i) => changed(i, 1)),
        changed(100, 2),
        changed(101, 3),
      ];
      const port = new FakePort().on('get', UPDATES, served(table, 'array'));
      const { outcome, rows } = poll(clientOf(port));
      expect(outcome.supported && outcome.listing.rowCount).toBe(102);
      expect(rows.map((row) => row.id).slice(-2)).toEqual(['r100', 'r101']);
      expect(new Set(rows.map((row) => row.id)).size).toBe(102);
      expect(asked(port)).toEqual([`${SINCE} 0`, `${SINCE} 99`, `${SINCE} 198`]);
    });

    it('a row of the first page changed between pages (it moves to the end): goes on from the last row it is sure of, skipping none', () => {
      const table = Array.from({ length: 250 }, (_, i) => changed(i, 1 + Math.floor(i / 10)));
      const port = new FakePort().on(
        'get',
        UPDATES,
        served(table, 'object', (answered) => {
          if (answered === 1)
            Object.assign(table[5] as object, { lMod: '2025-01-01T11:00:00.000Z', title: 'new' });
        }),
      );
      const { outcome, rows } = poll(clientOf(port));
      expect(outcome.supported && outcome.listing.done).toBe(true);
      // Every row arrives; the changed one also as it is now, after the rest.
      expect(new Set(rows.map((row) => row.id)).size).toBe(250);
      expect(rows.at(-1)).toMatchObject({ id: 'r5', title: 'new' });
      // The second page did not start on the first page's last row (r99, 10:10): the poll went on from its lMod.
      expect(asked(port).slice(0, 4)).toEqual([
        `${SINCE} 0`,
        `${SINCE} 99`,
        `${SINCE} 198`,
        '2025-01-01T10:10:00.000Z 0',
      ]);
    });

    it('more than a page of rows sharing one lMod, one of them deleted between pages: none skipped, none twice', () => {
      // Ids of one width: the id order is the table's (r100 … r349); r103 goes after the first page.
      const table = Array.from({ length: 250 }, (_, i) => changed(100 + i, 1));
      const port = new FakePort().on(
        'get',
        UPDATES,
        served(table, 'array', (answered) => {
          if (answered === 1) table.splice(3, 1);
        }),
      );
      const { outcome, rows } = poll(clientOf(port));
      expect(outcome.supported && outcome.listing.done).toBe(true);
      // Each row once, the deleted one as the first page read it.
      const ids = rows.map((row) => row.id);
      expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => `r${100 + i}`));
    });

    it('follows a service that answers fewer rows a page than asked: each page from the last row of the one before', () => {
      const table = Array.from({ length: 120 }, (_, i) => changed(i, 1));
      const port = new FakePort().on('get', UPDATES, (request) => {
        const answer = served(table)(request);
        const body = JSON.parse(String(answer.body)) as { rows: unknown[]; hasMore: boolean };
        const offset = Number(queryOfUrl(request.url).offset);
        return json(200, { rows: body.rows.slice(0, 50), hasMore: offset + 50 < table.length });
      });
      const { outcome, rows } = poll(clientOf(port));
      expect(outcome.supported && outcome.listing.done).toBe(true);
      expect(new Set(rows.map((row) => row.id)).size).toBe(120);
      expect(asked(port)).toEqual([`${SINCE} 0`, `${SINCE} 49`, `${SINCE} 98`]);
    });

    it(`rows that keep changing between its pages: ends unfinished after ${MAX_POLL_RESTARTS} times going on`, () => {
      const table = Array.from({ length: 400 }, (_, i) => changed(100 + i, 1));
      // After every page, the first row of the order is deleted: the rows after it all move back.
      const port = new FakePort().on(
        'get',
        UPDATES,
        served(table, 'object', () => table.splice(0, 1)),
      );
      const { outcome } = poll(clientOf(port));
      expect(outcome.supported && outcome.listing.done).toBe(false);
      expect(asked(port).filter((request) => request.endsWith(' 0'))).toHaveLength(MAX_POLL_RESTARTS + 1);
    });

    it('takes a row changed exactly at since', () => {
      const port = new FakePort().on('get', UPDATES, json(200, { rows: [changed(1, 0)], hasMore: false }));
      expect(poll(clientOf(port)).outcome.supported).toBe(true);
    });

    it('refuses a since that is not ISO 8601 UTC with ms, sending nothing', () => {
      const port = new FakePort();
      expect(() => clientOf(port).rowsChangedSince('A1', 'T1', '2025-01-01T10:00:00Z')).toThrow(SyncError);
      expect(port.requests).toEqual([]);
    });
  });

  describe.each([
    ['404', json(404, { error: { code: 'not_found', message: 'No route.' } })],
    ['405', json(405, { error: { code: 'method_not_allowed', message: 'No.' } })],
    ['400', json(400, { error: { code: 'invalid_query', message: 'Unknown query parameter "since".' } })],
    ['501', json(501, { message: 'Not implemented' })],
    ['an HTML page with 200', text(200, '<html>Sign in</html>', { 'content-type': 'text/html' })],
    ['a JSON answer that is not a listing', json(200, { id: 'updates', lMod: SINCE })],
  ])('when the poll answers %s', (_, answer) => {
    it('says the poll is missing and remembers it for the connection', () => {
      const port = new FakePort().on('get', UPDATES, answer);
      const client = clientOf(port);
      const { outcome } = poll(client);
      expect(outcome).toEqual({ supported: false });
      expect(client.pollMemory).toEqual({ supported: false, checkedAt: port.clock });
    });
  });

  describe('when the service ignores since (answers rows older than it)', () => {
    it('says the poll is missing, whatever page shows it, and remembers it', () => {
      const first = Array.from({ length: 100 }, (_, i) => changed(i, 5));
      const port = new FakePort().on('get', UPDATES, (request) =>
        queryOfUrl(request.url).offset === '0' ? json(200, first) : json(200, [changed(100, -60)]),
      );
      const client = clientOf(port);
      expect(poll(client).outcome).toEqual({ supported: false });
      expect(client.pollMemory?.supported).toBe(false);
    });

    it('takes a row with no readable lMod as not checkable: missing', () => {
      const port = new FakePort().on('get', UPDATES, json(200, [makeRow(1, { lMod: 'yesterday' })]));
      expect(poll(clientOf(port)).outcome).toEqual({ supported: false });
    });
  });

  describe('when the connection remembers the poll missing', () => {
    it('sends nothing for a day, then tries again (and remembers that it works)', () => {
      const port = new FakePort().on('get', UPDATES, json(200, { rows: [], hasMore: false }));
      const memory = { supported: false, checkedAt: port.clock - POLL_RETRY_MS + 60_000 };
      expect(poll(clientOf(port, memory)).outcome).toEqual({ supported: false });
      expect(port.requests).toEqual([]);
      port.clock += 60_000;
      const client = clientOf(port, memory);
      expect(poll(client).outcome.supported).toBe(true);
      expect(port.requests.length).toBe(1);
      expect(client.pollMemory).toEqual({ supported: true, checkedAt: port.clock });
    });

    it('remembers within one client too: the second poll of a run sends nothing', () => {
      const port = new FakePort().on(
        'get',
        UPDATES,
        json(404, { error: { code: 'not_found', message: 'No.' } }),
      );
      const client = clientOf(port);
      poll(client);
      poll(client);
      expect(port.requests.length).toBe(1);
    });
  });

  describe('when the connection remembers the poll working', () => {
    it('still checks every answer: a service that stopped honouring since is found out', () => {
      const port = new FakePort().on('get', UPDATES, json(200, [changed(1, -1)]));
      const client = clientOf(port, { supported: true, checkedAt: port.clock - 10 * POLL_RETRY_MS });
      expect(poll(client).outcome).toEqual({ supported: false });
      expect(client.pollMemory).toEqual({ supported: false, checkedAt: port.clock });
    });
  });

  describe('when the poll fails otherwise', () => {
    it('throws as a listing does (a refused key is no missing poll), remembering nothing', () => {
      const port = new FakePort().on(
        'get',
        UPDATES,
        json(401, { error: { code: 'invalid_token', message: 'Bad key.' } }),
      );
      const client = clientOf(port);
      expect(() => poll(client)).toThrow(SyncError);
      expect(client.pollMemory).toBeUndefined();
    });
  });
});

const TABLE = '/api/public/tableApps/A1/tables/T1';
const SCHEMA = json(200, { id: 'T1', name: 'T', columns: [{ id: 'title', name: 'Title', type: 'text' }] });

describe('TableClient.tableAndRowsChangedSince', () => {
  function pollWithSchema(client: TableClient) {
    const events: string[] = [];
    const outcome = client.tableAndRowsChangedSince(
      'A1',
      'T1',
      SINCE,
      (table) => events.push(`table ${table.id}`),
      { onPage: (page) => events.push(`page ${page.length}`) },
    );
    return { outcome, events };
  }

  it("reads the schema in the poll's first wave: one round, the schema before the first page", () => {
    const port = new FakePort()
      .on('get', TABLE, SCHEMA)
      .on('get', UPDATES, json(200, { rows: [changed(1, 1)], hasMore: false }));
    const { outcome, events } = pollWithSchema(clientOf(port));
    expect(outcome.supported).toBe(true);
    expect(events).toEqual(['table T1', 'page 1']);
    expect(port.waves).toEqual([2]);
  });

  it('when the poll is missing, hands back the schema it read (unused), so the listing need not read it again', () => {
    const port = new FakePort()
      .on('get', TABLE, SCHEMA)
      .on('get', UPDATES, json(404, { error: { code: 'not_found', message: 'No route.' } }));
    const { outcome, events } = pollWithSchema(clientOf(port));
    expect(events).toEqual([]);
    expect(outcome.supported).toBe(false);
    expect(!outcome.supported && outcome.table?.id).toBe('T1');
  });

  it('when the service ignores since, the schema is not told either (nothing merged from that answer)', () => {
    const port = new FakePort()
      .on('get', TABLE, SCHEMA)
      .on('get', UPDATES, json(200, { rows: [changed(1, -30)], hasMore: false }));
    const { outcome, events } = pollWithSchema(clientOf(port));
    expect(events).toEqual([]);
    expect(!outcome.supported && outcome.table?.id).toBe('T1');
  });

  it('a failed schema read throws, and says nothing about the poll (a table gone is no missing poll)', () => {
    const port = new FakePort()
      .on('get', TABLE, json(404, { error: { code: 'not_found', message: 'No table T1.' } }))
      .on('get', UPDATES, json(404, { error: { code: 'not_found', message: 'No table T1.' } }));
    const client = clientOf(port);
    expect(() => pollWithSchema(client)).toThrow(SyncError);
    expect(client.pollMemory).toBeUndefined();
  });

  it('known missing: sends nothing and hands back no schema', () => {
    const port = new FakePort();
    const client = clientOf(port, { supported: false, checkedAt: port.clock });
    expect(pollWithSchema(client).outcome).toEqual({ supported: false });
    expect(port.requests).toEqual([]);
  });
});
