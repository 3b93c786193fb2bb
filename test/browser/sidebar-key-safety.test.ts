// The sidebar's additions of issue 15 in real Chromium: the bound-script warning where a key and a
// schedule are saved, the schedule picker's daily runtime estimate, whose key runs the schedule,
// and local times with the spreadsheet's zone.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
usePageSession({}, (session) => {
  ({ h, page } = session);
});

describe('sidebar: whose key acts', () => {
  it('warns next to the key form in a bound script', async () => {
    await expect.poll(() => page.locator('#connect').isVisible()).toBe(true);
    const warning = page.locator('#connect-form #key-safety');
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.textContent()).toMatch(/every editor of the spreadsheet can change its code/);
  });

  it('shows the daily runtime estimate, whose key runs the schedule, and the next run in local time', async () => {
    await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
    await findTables(page, SAMPLE.apps.crm);
    await linkTable(page, 'Deals');
    await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
    // The service takes 12 s to answer the pull's first request: a run with a measurable time.
    h.sim.person.at({ on: 'network' }, () => h.sim.clock.advance(12_000));
    await operate(page, 'Pull');
    await page.locator('#schedule-every').selectOption({ label: 'Every hour' });
    expect(await page.locator('#schedule-estimate').textContent()).toMatch(
      // A 12-second run every hour: 24 runs of 10 requests (the first pull's full first wave: the
      // schema, the size probe and 8 pages), about 5 minutes of the day's 90 (issue 25's plan).
      /^A day: about 240 URL fetch calls \(2% of 20,000\) and 5 minutes of trigger time \(6% of 90\), the daily quotas of a Google account, shared by all your scripts\.$/,
    );
    expect(await page.locator('#schedule-form #key-safety').isVisible()).toBe(true);
    await page.locator('#schedule-mode').selectOption('pull');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await idle(page);
    expect(await page.locator('#schedule-info').textContent()).toMatch(
      /^Pulls every hour\. Next run around \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Etc\/UTC\)\./,
    );
    expect(await page.locator('#schedule-owner').textContent()).toMatch(
      /^Runs with your API key under your Google account/,
    );
  });
});
