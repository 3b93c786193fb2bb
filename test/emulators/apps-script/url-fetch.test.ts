// Tests of UrlFetchApp (§4) against a real HTTP server in a child process (the test thread blocks on Atomics.wait).
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSUMER_URL_FETCH_DAILY,
  createSimulator,
  type SimulatorOptions,
  URL_FETCH_DAILY_MESSAGE,
  WORKSPACE_URL_FETCH_DAILY,
} from '../../../emulators/apps-script/index';

const SERVER = `
const http = require('node:http');
const waiting = {};
let arrivals = 0;
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/');
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (parts[1] === 'status') { res.writeHead(Number(parts[2]), { 'Content-Type': 'text/plain' }); res.end('E'.repeat(150)); return; }
    if (parts[1] === 'together') {
      // Holds each request of a group until N of them wait at once; alone after 10 s (sent one by one).
      const group = (waiting[parts[3]] = waiting[parts[3]] || []);
      const answer = (text) => { res.writeHead(200); res.end(text); };
      group.push(answer);
      if (group.length === Number(parts[2])) { group.splice(0).forEach((a) => a('together')); return; }
      setTimeout(() => { const at = group.indexOf(answer); if (at >= 0) { group.splice(at, 1); answer('alone'); } }, 10000);
      return;
    }
    if (parts[1] === 'delay') { setTimeout(() => { res.writeHead(200); res.end('slept ' + parts[2]); }, Number(parts[2])); return; }
    if (parts[1] === 'echo') { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(JSON.stringify({ method: req.method, headers: req.headers, body: body, path: req.url })); return; }
    if (parts[1] === 'arrival') { arrivals++; res.writeHead(200); res.end(parts[2] + '@' + arrivals); return; }
    if (parts[1] === 'headers') { res.writeHead(200, [['X-Custom-Header', 'Yes'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]); res.end('ok'); return; }
    if (parts[1] === 'redirect') { res.writeHead(302, { Location: '/echo' }); res.end(); return; }
    if (parts[1] === 'drop') { req.socket.destroy(); return; }
    if (parts[1] === 'silent') return;
    res.writeHead(404); res.end('not found');
  });
});
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`;

let child: ChildProcess;
let base = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.on('exit', () => reject(new Error('server exited')));
  });
});

afterAll(() => {
  child?.kill();
});

const CODE = `
function get(url, params) { var r = UrlFetchApp.fetch(url, params || {}); return { code: r.getResponseCode(), text: r.getContentText(), headers: r.getHeaders(), all: r.getAllHeaders(), bytes: r.getContent().length }; }
function tryGet(url, params) { try { return get(url, params); } catch (e) { return { error: e.message, isError: e instanceof Error }; } }
function all(requests) {
  try { return UrlFetchApp.fetchAll(requests).map(function (r) { return [r.getResponseCode(), r.getContentText()]; }); }
  catch (e) { return { error: e.message }; }
}
function timedTry(url) { var t = Date.now(); var r = tryGet(url, { muteHttpExceptions: true }); return { ms: Date.now() - t, error: r.error }; }
function timed(requests) { var t = Date.now(); UrlFetchApp.fetchAll(requests); return Date.now() - t; }
`;

const make = (more: SimulatorOptions = {}) =>
  createSimulator({ code: CODE, startTime: Date.UTC(2024, 0, 1), timeZone: 'Etc/UTC', ...more });

describe('UrlFetchApp.fetch', () => {
  it('returns status, body and headers with the server casing', () => {
    const v = make().run('get', [`${base}/headers`]).value as {
      code: number;
      text: string;
      headers: Record<string, string>;
      all: Record<string, unknown>;
    };
    expect(v.code).toBe(200);
    expect(v.text).toBe('ok');
    expect(v.headers['X-Custom-Header']).toBe('Yes');
    expect(v.all['Set-Cookie']).toEqual(['a=1', 'b=2']);
  });
  it('throws the Apps Script message for unmuted codes >= 400', () => {
    const v = make().run('tryGet', [`${base}/status/404`]).value as { error: string; isError: boolean };
    expect(v.isError).toBe(true);
    expect(v.error).toBe(
      `Request failed for ${base} returned code 404. Truncated server response: ${'E'.repeat(100)}... (use muteHttpExceptions option to examine full response)`,
    );
  });
  it('returns the response when muted', () => {
    const v = make().run('get', [`${base}/status/503`, { muteHttpExceptions: true }]).value as {
      code: number;
      text: string;
    };
    expect(v.code).toBe(503);
    expect(v.text).toHaveLength(150);
  });
  it('sends method, headers, payload and content type', () => {
    const sim = make();
    const post = sim.run('get', [
      `${base}/echo`,
      {
        method: 'POST',
        payload: JSON.stringify({ a: 1 }),
        contentType: 'application/json',
        headers: { Authorization: 'Bearer t' },
      },
    ]);
    const echo = JSON.parse((post.value as { text: string }).text);
    expect(echo).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(echo.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t' });
    expect(echo.headers['user-agent']).toMatch(/Google-Apps-Script/);
    const form = JSON.parse(
      (
        sim.run('get', [`${base}/echo`, { method: 'patch', payload: { a: 'x y', b: 2 } }]).value as {
          text: string;
        }
      ).text,
    );
    expect(form).toMatchObject({ method: 'PATCH', body: 'a=x%20y&b=2' });
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(
      (sim.run('tryGet', [`${base}/echo`, { method: 'head' }]).value as { error: string }).error,
    ).toMatch(/Invalid argument: method/);
  });
  it('follows redirects unless told not to', () => {
    const sim = make();
    expect(JSON.parse((sim.run('get', [`${base}/redirect`]).value as { text: string }).text).path).toBe(
      '/echo',
    );
    expect(
      (sim.run('get', [`${base}/redirect`, { followRedirects: false }]).value as { code: number }).code,
    ).toBe(302);
  });
  it('throws on network errors even when muted', () => {
    const sim = make();
    expect(
      (sim.run('tryGet', ['http://127.0.0.1:1/x', { muteHttpExceptions: true }]).value as { error: string })
        .error,
    ).toBe('Address unavailable: http://127.0.0.1:1/x');
    expect(
      (sim.run('tryGet', [`${base}/drop`, { muteHttpExceptions: true }]).value as { error: string }).error,
    ).toBe(`Unexpected error: ${base}/drop`);
  });
  it('charges the platform deadline to the clock when a request gets no answer', () => {
    const sim = make({ countRealTime: false, fetchTimeoutMs: 200, fetchDeadlineMs: 60_000 });
    const v = sim.run('timedTry', [`${base}/silent`]).value as { ms: number; error: string };
    expect(v.error).toBe(`Timeout: ${base}/silent`);
    expect(v.ms).toBe(60_000);
  });
  it('refuses hosts outside allowedFetchHosts and over-long URLs', () => {
    const sim = make();
    expect((sim.run('tryGet', ['https://example.com/']).value as { error: string }).error).toMatch(
      /^Address unavailable: https:\/\/example.com\//,
    );
    expect((sim.run('tryGet', [`${base}/echo?${'a'.repeat(2100)}`]).value as { error: string }).error).toBe(
      'Limit Exceeded: URLFetch URL Length.',
    );
  });
  it('counts calls toward the daily quota (each fetchAll member counts)', () => {
    const sim = make({ urlFetchDailyQuota: 3 });
    expect(sim.run('all', [[`${base}/echo`, `${base}/echo`]]).ok).toBe(true);
    expect(sim.run('get', [`${base}/echo`]).ok).toBe(true);
    expect(sim.run('get', [`${base}/echo`]).error?.message).toBe(
      'Service invoked too many times for one day: urlfetch.',
    );
    expect(sim.stats.urlFetchToday).toBe(3);
    sim.clock.advance(24 * 3_600_000);
    expect(sim.run('get', [`${base}/echo`]).ok).toBe(true);
  });
});

describe("the daily URL Fetch quota (per user, shared by all of the user's scripts)", () => {
  const users = [{ email: 'alice@example.com' }, { email: 'bob@example.com' }];

  it("counts what the user's other scripts used, and refuses with Google's message once it is used up", () => {
    const sim = make({ urlFetchDailyQuota: 5, users });
    expect(sim.useQuotaElsewhere('alice@example.com', { urlFetches: 4 })).toBe(true);
    expect(sim.run('get', [`${base}/echo`]).ok).toBe(true);
    expect(sim.urlFetchUsed('alice@example.com')).toBe(5);
    expect(sim.run('get', [`${base}/echo`]).error?.message).toBe(URL_FETCH_DAILY_MESSAGE);
    expect(URL_FETCH_DAILY_MESSAGE).toBe('Service invoked too many times for one day: urlfetch.');
    // Another user has a quota of their own.
    expect(sim.run('get', [`${base}/echo`], { user: 'bob@example.com' }).ok).toBe(true);
    expect(sim.urlFetchUsed('bob@example.com')).toBe(1);
  });

  it('refuses a fetchAll that would pass the quota whole: nothing sent, nothing counted', () => {
    const sim = make({ urlFetchDailyQuota: 3 });
    expect(sim.run('get', [`${base}/echo`]).ok).toBe(true);
    const refused = sim.run('all', [[`${base}/echo`, `${base}/echo`, `${base}/echo`]]);
    expect((refused.value as { error: string }).error).toBe(URL_FETCH_DAILY_MESSAGE);
    expect(refused.stats.httpRequests).toBe(0);
    expect(sim.urlFetchUsed()).toBe(1);
    expect(sim.run('all', [[`${base}/echo`, `${base}/echo`]]).ok).toBe(true);
    expect(sim.urlFetchUsed()).toBe(3);
  });

  it("has Google's figures: 20,000 a day for a Google account, 100,000 for Workspace", () => {
    expect([CONSUMER_URL_FETCH_DAILY, WORKSPACE_URL_FETCH_DAILY]).toEqual([20_000, 100_000]);
    const sim = make();
    expect(sim.useQuotaElsewhere('alice@example.com', { urlFetches: CONSUMER_URL_FETCH_DAILY })).toBe(true);
    expect(sim.run('get', [`${base}/echo`]).error?.message).toBe(URL_FETCH_DAILY_MESSAGE);
  });
});

describe('UrlFetchApp.fetchAll', () => {
  it('answers in input order', () => {
    const v = make().run('all', [
      [
        `${base}/delay/150`,
        { url: `${base}/delay/10` },
        { url: `${base}/status/404`, muteHttpExceptions: true },
      ],
    ]).value;
    expect(v).toEqual([
      [200, 'slept 150'],
      [200, 'slept 10'],
      [404, 'E'.repeat(150)],
    ]);
  });
  it('throws for the whole call when one unmuted request fails', () => {
    const v = make().run('all', [[`${base}/echo`, `${base}/status/500`]]).value as { error: string };
    expect(v.error).toMatch(/^Request failed for .* returned code 500/);
  });
  it('runs requests in parallel', () => {
    // The server answers only once all five wait at once: requests sent one by one each get "alone".
    const res = make().run('all', [[1, 2, 3, 4, 5].map(() => `${base}/together/5/parallel`)]);
    expect(res.ok).toBe(true);
    expect(res.value).toEqual([1, 2, 3, 4, 5].map(() => [200, 'together']));
    expect(res.stats).toMatchObject({ httpRequests: 5, fetchAllCalls: 1 });
  });
  it('sends one at a time in a chosen order when dispatchOrder is set, answering in input order', () => {
    const orders: number[] = [];
    const sim = make({
      fetchDispatchOrder: (count) => {
        orders.push(count);
        return [2, 0, 1];
      },
    });
    const first = sim.run('all', [['a', 'b', 'c'].map((name) => `${base}/arrival/${name}`)]).value as [
      number,
      string,
    ][];
    const arrival = (text: string) => Number(text.split('@')[1]);
    const [a, b, c] = first.map(([, text]) => arrival(text));
    expect(first.map(([, text]) => text.split('@')[0])).toEqual(['a', 'b', 'c']);
    // c arrived first, then a, then b.
    expect([(a as number) - (c as number), (b as number) - (c as number)]).toEqual([1, 2]);
    expect(orders).toEqual([3]);
    expect(
      (
        make({ fetchDispatchOrder: () => [0, 0] }).run('all', [[`${base}/echo`, `${base}/echo`]]).value as {
          error: string;
        }
      ).error,
    ).toMatch(/permutation/);
  });
  it('charges one modelled latency per wave', () => {
    const sim = make({ countRealTime: false, costs: { httpLatencyMs: 300 } });
    expect(sim.run('timed', [[`${base}/echo`, `${base}/echo`, `${base}/echo`]]).value).toBe(300);
  });
});
