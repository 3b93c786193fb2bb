// Connecting to an address that never answers (issue 26, point 1): the page's own address typed as
// the service's once held "Checking your key…" for 6 minutes and ended in "Exceeded maximum execution
// time". Connecting has its own limit: one unanswered request (UrlFetchApp's ~60 s deadline, charged
// to the simulated clock) and it stops, saying the address did not answer as the service.

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../emulators/apps-script';
import { startEmulator } from '../../emulators/table-service';

/** A server that accepts connections and never answers (the kernel accepts even while this thread waits). */
let silent: Server;
const sockets: Socket[] = [];
let silentUrl: string;

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // Its sockets stay open (it never answers): close them with the server.
  const closed = new Promise<void>((resolve) => silent.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
});

function simulator() {
  // The real wait is kept short; each timed-out request still costs the platform's full minute.
  return createSimulator({ countRealTime: false, fetchTimeoutMs: 300, fetchDeadlineMs: 60_000 });
}

describe('connecting to an address that never answers', () => {
  it('stops after one unanswered request and says the address did not answer as the service', () => {
    const sim = simulator();
    const result = sim.run('saveConnection', [{ baseUrl: silentUrl, apiKey: 'any-key' }]);
    expect(result.killed).toBe(false);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain(`${silentUrl} gave no answer within 60 s`);
    expect(result.error?.message).toContain('did not answer as the service');
    expect(result.error?.message).toContain('the address you open the service at');
    expect(result.error?.message).not.toContain('any-key');
    expect(result.simulatedMs).toBeLessThan(2 * 60_000);
    expect(result.stats.httpRequests).toBe(1);
    // Nothing was stored: the sidebar still asks for an address and a key.
    expect(sim.run('getConnection').value).toBeNull();
  });

  it('says the same when nothing listens at the address', async () => {
    const closed = createServer(() => {});
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = simulator().run('saveConnection', [{ baseUrl: url, apiKey: 'any-key' }]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain(`${url} could not be reached`);
    expect(result.error?.message).toContain('did not answer as the service');
    expect(result.simulatedMs).toBeLessThan(2 * 60_000);
  });

  it('bounds a profile refresh too, when the stored address stops answering', async () => {
    const emulator = await startEmulator({ data: 'sample' });
    try {
      const sim = simulator();
      const connected = sim.run('saveConnection', [{ baseUrl: emulator.url, apiKey: emulator.keys.u_alice }]);
      expect(connected.ok).toBe(true);
      // Every answer now comes after the (short, real) fetch timeout: to the script, no answer at all.
      await emulator.admin.setFaults({ latencyMs: 2_000 });
      const refreshed = sim.run('getConnection', [{ refresh: true }]);
      expect(refreshed.killed).toBe(false);
      expect(refreshed.ok).toBe(false);
      expect(refreshed.error?.message).toMatch(/^Cannot reach 127\.0\.0\.1: check/);
      expect(refreshed.simulatedMs).toBeLessThan(2 * 60_000);
      expect(refreshed.stats.httpRequests).toBe(1);
      // The stored connection is kept: the address answered before, and may again.
      expect(sim.run('getConnection').value).toMatchObject({ baseUrl: emulator.url });
    } finally {
      await emulator.close();
    }
  });
});
