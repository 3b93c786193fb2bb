// Connecting to an address that never answers (issue 26, point 1): the page's own address typed as
// the service's once held "Checking your key…" for 6 minutes and ended in "Exceeded maximum execution
// time". Connecting has its own limit: one unanswered request (UrlFetchApp's ~60 s deadline, charged
// to the simulated clock) and it stops, saying the address did not answer as the service.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../emulators/apps-script';

/** A server that accepts connections and never answers (the kernel accepts even while this thread waits). */
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => silent.close(() => resolve()));
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
});
