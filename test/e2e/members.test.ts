// Account members and the own profile: the Members sheet, paging edges, the e-mail filter, and
// createdBy / lModBy shown as e-mails with one members lookup per run.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorState, RequestLogEntry } from '../../emulators/table-service';
import { DEFAULT_MAX_PARALLEL_PAGES } from '../../src/api/client';
import { CRM, requestsDuring, startWorld, type World } from './world';

let world: World;
let sample: EmulatorState;

beforeAll(async () => {
  world = await startWorld();
  sample = await world.emulator.admin.state();
});
afterAll(async () => world?.close());

/** Resets the service to the sample data plus an account whose only key holder has `others` colleagues. */
async function accountWith(people: number): Promise<string> {
  const state: EmulatorState = structuredClone(sample);
  state.accounts.push({
    ...(state.accounts[0] as EmulatorState['accounts'][number]),
    id: 'acc_n',
    name: 'N',
    orgId: 'org_n',
  });
  for (let i = 0; i < people; i++) {
    state.users.push({
      id: `u_n${String(i).padStart(4, '0')}`,
      accountId: 'acc_n',
      emailId: `person${i}@n.test`,
      orgId: 'org_n',
      firstName: `First${i}`,
      lastName: `Last${i}`,
      activationStatus: i % 7 === 0 ? 'invited' : 'active',
    });
  }
  await world.emulator.admin.reset(state);
  const key = await world.emulator.admin.issueToken('u_n0000');
  world.call('saveConnection', { baseUrl: world.emulator.url, apiKey: key });
  return key;
}

async function peopleRequests(work: () => void): Promise<RequestLogEntry[]> {
  return (await requestsDuring(world, work)).filter((entry) => entry.path.endsWith('/user/people'));
}

function membersSheet(): unknown[][] {
  return world.values('Members');
}

describe('importing account members', () => {
  beforeEach(() => {
    const members = world.sim.spreadsheet.getSheetByName('Members');
    if (members) world.sim.spreadsheet.deleteSheet(members);
  });

  for (const count of [1, 100, 101, 1050]) {
    it(`writes all ${count} member(s), paging with limit 100 until hasMore is false`, async () => {
      await accountWith(count);
      const requests = await peopleRequests(() => {
        expect(world.call('importAccountMembers', {})).toMatchObject({ members: count, added: count });
      });
      expect(requests.every((entry) => Number(entry.query.limit) <= 100)).toBe(true);
      expect(requests.length).toBeGreaterThanOrEqual(Math.ceil(count / 100));
      expect(requests.length).toBeLessThanOrEqual(Math.ceil(count / 100) + 3);
      const values = membersSheet();
      expect(values[0]).toEqual([
        'id',
        'emailId',
        'firstName',
        'lastName',
        'accountId',
        'orgId',
        'activationStatus',
      ]);
      expect(values).toHaveLength(count + 1);
      expect(new Set(values.slice(1).map((line) => line[0])).size).toBe(count);
    });
  }

  it('handles an account answer with no people', async () => {
    await accountWith(1);
    await world.emulator.admin.queueAnswers([
      { match: { method: 'GET', path: '/user/people$' }, status: 200, body: '{"users":[],"hasMore":false}' },
    ]);
    expect(world.call('importAccountMembers', {})).toMatchObject({ members: 0, added: 0 });
    expect(membersSheet()).toEqual([
      ['id', 'emailId', 'firstName', 'lastName', 'accountId', 'orgId', 'activationStatus'],
    ]);
  });

  it('with an e-mail filter returns just that person, and says so when nobody has it', async () => {
    await accountWith(150);
    const found = await peopleRequests(() => {
      expect(world.call('importAccountMembers', { emailId: 'Person42@N.test' })).toMatchObject({
        members: 1,
      });
    });
    expect(found[0]?.query.emailId).toBe('Person42@N.test');
    const none = world.call<{ members: number; message: string }>('importAccountMembers', {
      emailId: 'nobody@n.test',
    });
    expect(none).toMatchObject({ members: 0 });
    expect(none.message).toContain('No member of your account has the e-mail nobody@n.test');
  });

  it('updates the sheet in place by user id and keeps the person’s own columns', async () => {
    await accountWith(5);
    world.call('importAccountMembers', {});
    const sheet = world.sim.spreadsheet.getSheetByName('Members')!;
    sheet.getRange(1, 8).setValue('team');
    sheet.getRange(3, 8).setValue('blue');
    sheet.getRange(2, 1, 5, 8).sort({ column: 3, ascending: false });
    const state = await world.emulator.admin.state();
    const user = state.users.find((each) => each.id === 'u_n0001')!;
    user.lastName = 'Renamed';
    await world.emulator.admin.reset(state);
    expect(world.call('importAccountMembers', {})).toMatchObject({ added: 0, updated: 1, unchanged: 4 });
    const values = membersSheet();
    expect(values).toHaveLength(6);
    const line = values.find((each) => each[0] === 'u_n0001')!;
    expect(line[3]).toBe('Renamed');
    const blue = values.find((each) => each[7] === 'blue');
    expect(blue).toBeDefined();
  });
});

describe('the own profile', () => {
  it('shows whose key is in use, refreshed on demand, and says when the key stopped working', async () => {
    await world.emulator.admin.reset('sample');
    world.connect();
    expect(world.call('getConnection', { refresh: true })).toMatchObject({
      email: 'alice@acme.test',
      accountId: 'acc_acme',
      orgId: 'org_acme',
    });
    // Its own lifetime, so the token differs from the shared key that world.connect() saves.
    const soonExpired = await world.emulator.admin.issueToken('u_alice', { ttlSeconds: 3600 });
    world.call('saveConnection', { baseUrl: world.emulator.url, apiKey: soonExpired });
    expect(world.call('getConnection', { refresh: true })).toMatchObject({ email: 'alice@acme.test' });
    await world.emulator.admin.expireToken(soonExpired);
    expect(() => world.call('getConnection', { refresh: true })).toThrow(/^Your API key is not valid/);
  });
});

describe('createdBy and lModBy as e-mails', () => {
  it('shows them on a 1,000-row table with one paged listing of people, never a call per row', async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.addMembers('acc_acme', 1046);
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_people',
      name: 'People',
      rows: 1000,
      columns: 4,
      hostile: false,
      asUserId: 'u_bob',
    });
    world.connect();
    const spreadsheet = world.sim.spreadsheet;
    spreadsheet.setActiveSheet(spreadsheet.insertSheet('people view'));
    world.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_people' });
    world.call('setLinkOptions', { fixedFields: ['createdBy', 'lModBy'], showEmails: true });
    const requests = await peopleRequests(() => {
      expect(world.call('pullActiveSheet')).toMatchObject({ ok: true, added: 1000 });
    });
    // 1,046 people: 11 pages, and a size-unknown listing's last wave may ask up to 9 past its end.
    expect(requests.length).toBeLessThanOrEqual(11 + DEFAULT_MAX_PARALLEL_PAGES - 1);
    const values = world.values('people view');
    const headers = (values[0] ?? []).map(String);
    expect(values.slice(1).every((line) => line[headers.indexOf('createdBy')] === 'bob@acme.test')).toBe(
      true,
    );
    expect(world.call('pushActiveSheet')).toMatchObject({ ok: true, updated: 0, errors: 0 });
  });
});
