// Bad configuration and bad answers: each gets a message that says what to do, no sheet data changes,
// and a refused connection changes nothing stored.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuedAnswer } from '../../emulators/table-service';
import { refusal, startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  message: string;
}

/** Everything a refused call must leave alone: every sheet's values and every property store. */
function snapshot(world: World): string {
  // The "Sync log" sheet is the add-on's own record of runs: a failed run is meant to add a line there.
  const data = world.sim.spreadsheet.getSheets().filter((sheet) => sheet.getName() !== 'Sync log');
  const sheets = data.map((sheet) => {
    const rows = sheet.getLastRow();
    const cols = sheet.getLastColumn();
    return [sheet.getName(), rows && cols ? sheet.getRange(1, 1, rows, cols).getValues() : []];
  });
  return JSON.stringify({
    sheets,
    user: withoutLearned(world.sim.properties('user')),
    document: omitVolatile(world.sim.properties('document')),
    script: world.sim.properties('script'),
  });
}

/**
 * What the client learns of the service by asking, kept per person: its pace of requests (the rolling
 * windows count every request, refused ones too) and whether it has the poll. Not data a run may not
 * change; the key and the connection itself must stay.
 */
function withoutLearned(properties: Record<string, string>): Record<string, unknown> {
  const { servicePace: _pace, ...rest } = properties;
  const connection = rest['tas.connection'];
  if (connection === undefined) return rest;
  const { poll: _poll, ...stored } = JSON.parse(connection) as Record<string, unknown>;
  return { ...rest, 'tas.connection': stored };
}

/**
 * The last-run summary is expected to change on a failed pull, and the day's count of URL fetch calls
 * (the failed run made its requests, and they count toward the quota); links and jobs must not.
 */
function omitVolatile(properties: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(properties).filter(([key]) => !key.startsWith('tas.summary.') && key !== 'tas.quotaDay'),
  );
}

describe('bad configuration and bad answers', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
  });
  afterAll(async () => world?.close());

  describe('a refused connection changes nothing stored', () => {
    const cases: Array<[string, () => { baseUrl: string; apiKey: string }, RegExp[]]> = [
      [
        'an http:// public base URL',
        () => ({ baseUrl: 'http://api.example.com', apiKey: world.emulator.keys.u_alice as string }),
        [/https:\/\//],
      ],
      [
        'a malformed base URL',
        () => ({ baseUrl: 'ht!tp:/not a url', apiKey: world.emulator.keys.u_alice as string }),
        [/service address/i, /e\.g\. https:\/\//i],
      ],
      [
        'an empty key',
        () => ({ baseUrl: world.emulator.url, apiKey: '   ' }),
        [/API key/i, /profile|create/i],
      ],
    ];
    for (const [name, input, words] of cases) {
      it(`refuses ${name} and says what to enter`, () => {
        const before = snapshot(world);
        const message = refusal(world, 'saveConnection', input());
        for (const word of words) expect(message).toMatch(word);
        expect(message).not.toContain(world.emulator.keys.u_alice);
        expect(snapshot(world)).toBe(before);
      });
    }

    it('refuses an expired key and says to create a new one', async () => {
      const expired = await world.emulator.admin.issueToken('u_alice', { expired: true });
      const key = typeof expired === 'string' ? expired : (expired as { token: string }).token;
      const before = snapshot(world);
      const message = refusal(world, 'saveConnection', { baseUrl: world.emulator.url, apiKey: key });
      expect(message).toMatch(/expired/i);
      expect(message).toMatch(/new (API )?key|profile/i);
      expect(message).not.toContain(key);
      expect(snapshot(world)).toBe(before);
    });
  });

  it('a table app of another account: says the key has no access, sheet unchanged', () => {
    const before = snapshot(world);
    const message = refusal(world, 'linkActiveSheet', { tableAppId: 'ta_globex', tableId: 'tbl_inventory' });
    expect(message).toMatch(/access|permission|another account|not allowed/i);
    expect(message).toMatch(/ask|owner|check|account|key/i);
    expect(snapshot(world)).toBe(before);
  });

  describe('answers the add-on cannot use', () => {
    const ROWS = { method: 'GET', path: '/rows$' };
    const html = '<!doctype html><html><body><h1>Sign in</h1><form action="/login"></form></body></html>';
    const cases: Array<[string, QueuedAnswer, RegExp[]]> = [
      [
        'an HTML page',
        { match: ROWS, status: 200, headers: { 'content-type': 'text/html' }, body: html },
        [/cannot read/i, /service address/i],
      ],
      [
        'truncated JSON',
        {
          match: ROWS,
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: '{"rows":[{"id":"r1","tit',
        },
        [/cannot read/i, /try again/i],
      ],
      [
        'an empty body',
        { match: ROWS, status: 200, headers: { 'content-type': 'application/json' }, body: '' },
        [/empty/i, /service address/i],
      ],
      [
        'a 2xx with an error body',
        {
          match: ROWS,
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: '{"error":{"code":"db_down","message":"Database unavailable, try later"}}',
        },
        [/error/i, /Database unavailable/],
      ],
    ];
    for (const [name, answer, words] of cases) {
      it(`a pull answered with ${name} says what to do and changes no sheet data`, async () => {
        const before = snapshot(world);
        // Queued several times so that retries meet the same answer.
        await world.emulator.admin.queueAnswers(Array.from({ length: 6 }, () => answer));
        try {
          const message = refusal(world, 'pullActiveSheet');
          for (const word of words) expect(message).toMatch(word);
          expect(message).not.toMatch(/Something unexpected/);
          expect(snapshot(world)).toBe(before);
        } finally {
          await world.emulator.admin.clearFaults();
        }
        // And once the service answers properly, the next pull works.
        const after = world.call<Summary>('pullActiveSheet');
        expect(after.ok, after.message).toBe(true);
      });
    }
  });

  it('a pull answered with a 10 MB page says what to do and changes no sheet data', async () => {
    // The emulator's admin route takes bodies up to 1 MiB, so a small proxy in its own process (the
    // simulator blocks this thread during a run) answers the rows listing with 10 MB of HTML.
    const proxy = await startBigPageProxy(world.emulator.url);
    try {
      world.call('saveConnection', { baseUrl: proxy.url, apiKey: world.emulator.keys.u_alice });
      const before = snapshot(world);
      const message = refusal(world, 'pullActiveSheet');
      expect(message).toMatch(/cannot read|too (big|large)/i);
      expect(message).toMatch(/service address|try again/i);
      expect(message).not.toMatch(/Something unexpected/);
      expect(snapshot(world)).toBe(before);
    } finally {
      proxy.child.kill();
      world.connect();
    }
  });
});

/** A child process forwarding to the emulator, except GET .../rows, answered with a 10 MB HTML page. */
async function startBigPageProxy(target: string): Promise<{ url: string; child: ChildProcess }> {
  const script = `
    const http = require('node:http');
    const target = new URL(process.argv[1]);
    const page = '<!doctype html><html><body>' + '<p>portal</p>'.repeat(800000) + '</body></html>';
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url.split('?')[0].endsWith('/rows')) {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) });
        res.end(page);
        return;
      }
      const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  `;
  const child = spawn(process.execPath, ['-e', script, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${String(chunk).trim()}`, child };
}
