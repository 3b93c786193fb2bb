// Connecting from the sidebar (connectFromSidebar): a refusal is answered with the field to fix, so
// the sidebar puts the cursor in the service address or in the API key; nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

interface Answer {
  connected?: false;
  field?: 'baseUrl' | 'apiKey' | null;
  message?: string;
  email?: string;
}

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

const aliceKey = (): string => world.emulator.keys.u_alice as string;

describe('connectFromSidebar', () => {
  it.each([
    [
      'an address with no service behind it',
      () => ({ baseUrl: `${world.emulator.url}/elsewhere`, apiKey: aliceKey() }),
      'baseUrl',
    ],
    ['a malformed address', () => ({ baseUrl: 'ht!tp:/not an address', apiKey: aliceKey() }), 'baseUrl'],
    ['a closed port', () => ({ baseUrl: 'http://127.0.0.1:1', apiKey: aliceKey() }), 'baseUrl'],
    ['an empty key', () => ({ baseUrl: world.emulator.url, apiKey: '  ' }), 'apiKey'],
    ['a key with spaces', () => ({ baseUrl: world.emulator.url, apiKey: 'two words' }), 'apiKey'],
    ['a key the service refuses', () => ({ baseUrl: world.emulator.url, apiKey: 'not-a-key' }), 'apiKey'],
  ] as const)('names the field to fix for %s, and stores nothing', (_, input, field) => {
    const before = world.sim.properties('user');
    const answer = world.call<Answer>('connectFromSidebar', input());
    expect(answer).toMatchObject({ connected: false, field });
    expect(answer.message).toMatch(/\w/);
    expect(answer.message).not.toContain(aliceKey());
    expect(world.sim.properties('user')).toEqual(before);
  });

  it('connects with a good address and key, as saveConnection does', () => {
    const answer = world.call<Answer>('connectFromSidebar', {
      baseUrl: world.emulator.url,
      apiKey: aliceKey(),
    });
    expect(answer.connected).toBeUndefined();
    expect(answer.email).toBe('alice@acme.test');
    expect(JSON.stringify(answer)).not.toContain(aliceKey());
  });
});
