import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

describe('smoke', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => world?.close());
  it('connects, links and pulls', async () => {
    world.connect();
    world.linkAndPull();
    const values = world.values();
    console.log(values.slice(0, 3));
    const rows = await world.serviceRows();
    expect(values.length).toBe(rows.length + 1);
  });
});
