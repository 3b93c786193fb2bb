// startEmulator (the server in a child process) over real HTTP: operations, admin client, concurrency, a blocked
// parent thread, and the `npm run emulator` CLI printing a working URL and key.

import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, SAMPLE, startEmulator } from '../../../emulators/table-service/index.js';
import { call, DEALS, ISO_MS, type RowJson } from './helpers.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ seed: 3 });
});
afterAll(() => emu.close());

describe('an emulator in a child process', () => {
  it('hands back a base URL, keys for the sample users and their profiles', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(emu.keys).sort()).toEqual(Object.values(SAMPLE.users).sort());
    expect(emu.users.find((u) => u.userId === 'u_alice')).toMatchObject({
      emailId: 'alice@acme.test',
      accountId: 'acc_acme',
    });
    expect(emu.pid).not.toBe(process.pid);
  });

  it('serves every operation under both prefixes', async () => {
    const key = emu.keys.u_alice;
    for (const [i, prefix] of ['/api/public', '/public'].entries()) {
      expect((await call(emu.url, 'GET', `${prefix}/user/me`, { key })).status).toBe(200);
      expect((await call(emu.url, 'GET', `${prefix}/user/people?limit=10`, { key })).status).toBe(200);
      expect((await call(emu.url, 'GET', `${prefix}/tableApps/ta_crm`, { key })).status).toBe(200);
      expect((await call(emu.url, 'GET', `${prefix}${DEALS}`, { key })).status).toBe(200);
      const list = await call(emu.url, 'GET', `${prefix}${DEALS}/rows?offset=0&limit=100`, { key });
      expect((list.json as { rows: RowJson[] }).rows).toHaveLength(25 + i);
      const created = await call(emu.url, 'POST', `${prefix}${DEALS}/rows`, { key, body: { title: prefix } });
      expect(created.status).toBe(201);
      const id = (created.json as RowJson).id;
      expect(
        (await call(emu.url, 'PATCH', `${prefix}${DEALS}/rows/${id}`, { key, body: { won: true } })).status,
      ).toBe(200);
      expect((await call(emu.url, 'GET', `${prefix}${DEALS}/rows/${id}`, { key })).json).toMatchObject({
        id,
        title: prefix,
      });
    }
    await emu.admin.reset();
  });

  it('is driven by the admin client (faults, list shape, log)', async () => {
    await emu.admin.setListShape('array');
    await emu.admin.queueAnswers([{ match: { path: '/rows$' }, status: 503, body: '' }]);
    const key = emu.keys.u_alice;
    expect((await call(emu.url, 'GET', `/public${DEALS}/rows?limit=2`, { key })).status).toBe(503);
    const r = await call(emu.url, 'GET', `/public${DEALS}/rows?limit=2`, { key });
    expect(Array.isArray(r.json)).toBe(true);
    const log = await emu.admin.requestLog();
    expect(log.slice(-2).map((e) => e.status)).toEqual([503, 200]);
    await emu.admin.setListShape('object');
    await emu.admin.clearLog();
  });

  it('answers while this thread is blocked synchronously', () => {
    const script = `fetch(${JSON.stringify(`${emu.url}/public/user/me`)}, { headers: { auth: ${JSON.stringify(emu.keys.u_alice)} } })
      .then((r) => r.text()).then((t) => process.stdout.write(t))`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(JSON.parse(result.stdout)).toMatchObject({ userId: 'u_alice' });
  });
});

describe('when two clients patch one row in parallel', () => {
  it('both succeed, one after the other, and lMod strictly increases', async () => {
    await emu.admin.setFaults({ latencyMs: 30 });
    const row = (await emu.admin.state()).apps[0]?.tables[0]?.rows[0] as RowJson;
    const path = `/api/public${DEALS}/rows/${row.id}`;
    const [a, b] = await Promise.all([
      call(emu.url, 'PATCH', path, { key: emu.keys.u_alice, body: { status: 'from alice' } }),
      call(emu.url, 'PATCH', path, { key: emu.keys.u_bob, body: { amount: 99 } }),
    ]);
    await emu.admin.clearFaults();
    expect([a?.status, b?.status]).toEqual([200, 200]);
    const [first, second] = [a?.json as RowJson, b?.json as RowJson].sort(
      (x, y) => Date.parse(x.lMod) - Date.parse(y.lMod),
    );
    expect(first && second).toBeTruthy();
    expect(Date.parse(first?.lMod as string)).toBeGreaterThan(Date.parse(row.lMod));
    expect(Date.parse(second?.lMod as string)).toBeGreaterThan(Date.parse(first?.lMod as string));
    // The second applied on top of the first: it shows both changes.
    expect(second).toMatchObject({ status: 'from alice', amount: 99 });
    const final = (await emu.admin.state()).apps[0]?.tables[0]?.rows.find((r) => r.id === row.id);
    expect(final?.lMod).toBe(second?.lMod);
    expect(final?.lModBy).toBe(second?.lModBy);
  });

  it('gives 20 parallel patches 20 distinct, strictly increasing lMods', async () => {
    const row = (await emu.admin.state()).apps[0]?.tables[0]?.rows[1] as RowJson;
    const path = `/public${DEALS}/rows/${row.id}`;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(emu.url, 'PATCH', path, { key: emu.keys.u_alice, body: { amount: i } }),
      ),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const lMods = replies.map((r) => (r.json as RowJson).lMod);
    for (const l of lMods) expect(l).toMatch(ISO_MS);
    expect(new Set(lMods).size).toBe(20);
    const sorted = [...replies].sort(
      (x, y) => Date.parse((x.json as RowJson).lMod) - Date.parse((y.json as RowJson).lMod),
    );
    const final = (await emu.admin.state()).apps[0]?.tables[0]?.rows.find((r) => r.id === row.id);
    const last = sorted.at(-1)?.json as RowJson;
    expect(final?.amount).toBe(last.amount);
    expect(final?.lMod).toBe(last.lMod);
  });
});

describe('npm run emulator (the CLI)', () => {
  it('prints a base URL, both prefixes and a working key for alice', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const main = fileURLToPath(new URL('../../../emulators/table-service/main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', tsx, main, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no output: ${text}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('curl')) {
            clearTimeout(timer);
            resolve(text);
          }
        });
      });
      const base = /Base URL:\s+(\S+)/.exec(out)?.[1] as string;
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out).toContain(`${base}/api/public`);
      expect(out).toContain(`${base}/public`);
      expect(out).toContain('ta_crm');
      expect(out).toContain('tbl_deals');
      const key = /API key for alice[^\n]*\n\s*(\S+)/.exec(out)?.[1] as string;
      const r = await call(base, 'GET', '/api/public/tableApps/ta_crm', { key });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: 'ta_crm', name: 'CRM' });
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('closing', () => {
  it('stops the child process', async () => {
    const other = await startEmulator();
    await other.close();
    await expect(fetch(`${other.url}/public/user/me`)).rejects.toThrow();
    expect(() => process.kill(other.pid, 0)).toThrow();
  });
});
