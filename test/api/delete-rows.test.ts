// The client's deleteRows: each answer the contract allows (200 with the row, 204, 404 = already gone),
// retries, and telling "the service does not serve deleting" (405, 501, 400, a 404 for a row that is
// still there) from a row already gone.

import { describe, expect, it } from 'vitest';
import { type DeleteResult, TableClient } from '../../src/api/client';
import type { HttpRequest } from '../../src/api/http-port';
import { FakePort, json, makeRow, text } from './fake-port';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNlY3JldA';
const ROWS = '/api/public/tableApps/A1/tables/T1/rows';
const ROW = (id: string) => `${ROWS}/${id}`;

function clientOf(port: FakePort): TableClient {
  return new TableClient(port, { baseUrl: 'https://svc.example.com', apiKey: KEY, prefix: '/api/public' });
}

function outcomes(results: DeleteResult[]): string[] {
  return results.map((r) => (r.ok ? r.outcome : r.unsupported ? 'unsupported' : r.error.code));
}

describe('deleteRows', () => {
  it('sends DELETE per row, in one wave, with the key and no body', () => {
    const port = new FakePort().on('delete', /\/rows\/r\d$/, (r: HttpRequest) =>
      json(200, makeRow(Number(r.url.slice(-1)))),
    );
    const results = clientOf(port).deleteRows('A1', 'T1', ['r1', 'r2', 'r3']);
    expect(outcomes(results)).toEqual(['deleted', 'deleted', 'deleted']);
    expect(port.waves).toEqual([3]);
    for (const request of port.requests) {
      expect(request.method).toBe('delete');
      expect(request.headers.auth).toBe(KEY);
      expect(request.payload).toBeUndefined();
    }
  });

  it('takes 204 and an empty 200 as deleted', () => {
    const port = new FakePort().on('delete', ROW('r1'), text(204, '')).on('delete', ROW('r2'), text(200, ''));
    expect(outcomes(clientOf(port).deleteRows('A1', 'T1', ['r1', 'r2']))).toEqual(['deleted', 'deleted']);
  });

  it('takes a 404 for a row that is not found either as already gone', () => {
    const port = new FakePort()
      .on('delete', ROW('r1'), json(404, { message: 'no such row' }))
      .on('get', ROW('r1'), json(404, { message: 'no such row' }));
    expect(outcomes(clientOf(port).deleteRows('A1', 'T1', ['r1']))).toEqual(['alreadyGone']);
  });

  it('takes a 404 for a row the service still has as a service without deleting', () => {
    const port = new FakePort()
      .on('delete', ROW('r1'), json(404, { message: 'no route' }))
      .on('get', ROW('r1'), json(200, makeRow(1)));
    const [result] = clientOf(port).deleteRows('A1', 'T1', ['r1']);
    expect(result).toMatchObject({ ok: false, unsupported: true });
    expect(result?.ok === false && result.error.message).toMatch(
      /does not allow deleting rows through its API/,
    );
  });

  it.each([405, 501, 400])('takes %s as a service without deleting', (status) => {
    const port = new FakePort().on('delete', ROW('r1'), json(status, { message: 'nope' }));
    expect(outcomes(clientOf(port).deleteRows('A1', 'T1', ['r1']))).toEqual(['unsupported']);
  });

  it('retries a 503 (a delete is idempotent) and then deletes', () => {
    const port = new FakePort().on(
      'delete',
      ROW('r1'),
      json(503, { message: 'busy' }),
      json(200, makeRow(1)),
    );
    expect(outcomes(clientOf(port).deleteRows('A1', 'T1', ['r1']))).toEqual(['deleted']);
    expect(port.requests.filter((r) => r.method === 'delete')).toHaveLength(2);
  });

  it('keeps an HTML page answered 200 an error, never a deletion', () => {
    const port = new FakePort().on('delete', ROW('r1'), text(200, '<html><body>Sign in</body></html>'));
    expect(outcomes(clientOf(port).deleteRows('A1', 'T1', ['r1']))).toEqual(['BAD_RESPONSE']);
  });

  it('leaves the rest unsent when told to stop', () => {
    const port = new FakePort().on('delete', /\/rows\/r\d$/, json(200, makeRow(1)));
    let waves = 0;
    const results = clientOf(port).deleteRows('A1', 'T1', ['r1', 'r2', 'r3'], {
      waveSize: 1,
      shouldStop: () => waves++ >= 1,
    });
    expect(outcomes(results)).toEqual(['deleted', 'TIME', 'TIME']);
    expect(results[1]).toMatchObject({ notSent: true });
  });

  it('refuses a dot-segment id without sending anything', () => {
    const port = new FakePort();
    const [result] = clientOf(port).deleteRows('A1', 'T1', ['..']);
    expect(result).toMatchObject({ ok: false, notSent: true });
    expect(port.requests).toHaveLength(0);
  });
});
