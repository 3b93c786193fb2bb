// Issue 26, "A day of use" points 3, 6, 7 and 8 in real Chromium: what a person skimming the sidebar
// sees. A run that left something undone is headed by a warning; the run buttons come first; the
// bound-script warning is one folded line; the schedule starts hourly with an estimate only from
// real data; a refused connection puts the cursor in the field to fix.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, errorText, findTables, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

/** The height of the sidebar pane the issue measured (a 777 px pane). */
const PANE_HEIGHT = 777;

let h: Harness;
let page: Page;
usePageSession({ viewport: { width: 300, height: PANE_HEIGHT } }, (session) => {
  ({ h, page } = session);
});

const aliceKey = (): string => h.keys[SAMPLE.users.alice] as string;

async function connectAndLink(key = aliceKey()): Promise<void> {
  await connect(page, key, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await expect.poll(() => page.locator('#sync').isVisible()).toBe(true);
}

/** The sheet's cell of a column on a line (found by header text, as the add-on does). */
function columnOf(columnId: string): number {
  return (h.sim.snapshotSheet('Sheet1').rows[0] ?? []).indexOf(columnId) + 1;
}

/** Top and bottom of an element in page pixels. */
async function box(selector: string): Promise<{ top: number; bottom: number }> {
  return page.evaluate((s) => {
    const rect = document.querySelector(s)?.getBoundingClientRect();
    if (!rect) throw new Error(`no ${s}`);
    return { top: rect.top + window.scrollY, bottom: rect.bottom + window.scrollY };
  }, selector);
}

/** Answers getState with these schedule options, as a link with recorded runs would have. */
async function withScheduleOptions(options: Record<string, unknown>): Promise<void> {
  await page.route('**/rpc', async (route) => {
    const call = route.request().postDataJSON() as { fn: string };
    if (call.fn !== 'getState') return route.continue();
    const answer = await route.fetch();
    const body = (await answer.json()) as { ok: boolean; value: Record<string, unknown> };
    const scheduleOptions = { ...(body.value.scheduleOptions as Record<string, unknown>), ...options };
    return route.fulfill({ response: answer, json: { ...body, value: { ...body.value, scheduleOptions } } });
  });
}

describe('a run that left something undone', () => {
  it('is headed by a warning that says what was left, above the counts', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    expect(await page.locator('#summary-headline').isVisible()).toBe(false);
    h.sim.personEdit('Sheet1', 2, columnOf('amount'), '12,5');
    h.sim.personEdit('Sheet1', 3, columnOf('amount'), 'abc');
    const summary = await operate(page, 'Push');
    expect(summary).toMatch(/^Pushed: .*2 with errors/);
    const headline = page.locator('#summary-headline');
    expect(await headline.isVisible()).toBe(true);
    expect(await headline.textContent()).toBe('Pushed with 2 errors');
    expect(await headline.getAttribute('class')).toContain('attention');
    // Styled apart from the plain counts below it: a person skimming sees it.
    const styles = await page.evaluate(() => {
      const of = (id: string) => getComputedStyle(document.getElementById(id) as Element);
      return {
        headline: [of('summary-headline').fontWeight, of('summary-headline').backgroundColor],
        text: [of('summary-text').fontWeight, of('summary-text').backgroundColor],
      };
    });
    expect(styles.headline).not.toEqual(styles.text);
    expect((await box('#summary-headline')).bottom).toBeLessThanOrEqual((await box('#summary-text')).top);
    await page.screenshot({ path: artifact('sidebar-pushed-with-errors.png'), fullPage: true });

    // Fixed, the next push did all it was asked: no headline.
    h.sim.personEdit('Sheet1', 2, columnOf('amount'), '12.5');
    h.sim.personEdit('Sheet1', 3, columnOf('amount'), '7');
    expect(await operate(page, 'Push')).toMatch(/^Pushed: 2 updated/);
    expect(await headline.isVisible()).toBe(false);
  });

  it('says a missing header in the headline, not only in the plain message', async () => {
    await connectAndLink();
    await operate(page, 'Pull');
    h.sim.personEdit('Sheet1', 1, columnOf('status'), 'Status (renamed)');
    expect(await operate(page, 'Push')).toMatch(/"status"/);
    expect(await page.locator('#summary-headline').textContent()).toBe('Pushed with 1 warning');
  });
});

describe('a run that failed', () => {
  it('says what to do first, the HTTP details on a line of their own', async () => {
    // A key of its own, expired here: the tests after this one keep alice's.
    const key = await h.emulator.admin.issueToken(SAMPLE.users.alice, { ttlSeconds: 7_777 });
    await connectAndLink(key);
    await h.emulator.admin.expireToken(key);
    const message = await operate(page, 'Pull');
    expect(message).toMatch(/^Your API key is not valid .* Details: HTTP 401 /);
    const text = page.locator('#summary-text');
    expect(await text.getAttribute('class')).toBe('error');
    expect(await text.locator('.details').textContent()).toMatch(/^ Details: HTTP 401 Unauthorized/);
    expect(await page.locator('#summary-headline').isVisible()).toBe(false);
  });
});

describe('the first screen', () => {
  it('puts the run buttons first, above the account block and within the pane', async () => {
    await connectAndLink();
    const pull = await box('#pull');
    expect(pull.bottom).toBeLessThanOrEqual(PANE_HEIGHT);
    expect(pull.bottom).toBeLessThanOrEqual((await box('#account')).top);
    expect((await box('#sync-both')).bottom).toBeLessThanOrEqual(PANE_HEIGHT);
    // The first section on show has no rule above it.
    const rule = await page.evaluate(
      () => getComputedStyle(document.getElementById('sync') as Element).borderTopStyle,
    );
    expect(rule).toBe('none');
    await page.screenshot({ path: artifact('sidebar-first-screen.png') });
  });

  it('shows the bound-script warning once, folded to one line with the whole text behind it', async () => {
    const warning = page.locator('#key-safety');
    // Where the key is saved…
    expect(await page.locator('#connect-form #key-safety').isVisible()).toBe(true);
    expect(await warning.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    const summary = page.locator('#key-safety summary');
    const lineHeight = await summary.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect((await summary.boundingBox())?.height).toBeLessThanOrEqual(lineHeight + 1);
    expect(await page.locator('#key-safety-text').isVisible()).toBe(false);
    await summary.click();
    expect(await page.locator('#key-safety-text').textContent()).toMatch(
      /every editor of the spreadsheet can change its code/,
    );
    // …and where the schedule is saved, once linked: one warning on show, never two.
    await connectAndLink();
    expect(await page.locator('#schedule-form #key-safety').isVisible()).toBe(true);
    const shown = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>('p, details, div')].filter(
          (element) =>
            element.offsetParent !== null &&
            /can change its code/.test(element.textContent ?? '') &&
            element.children.length === 0,
        ).length,
    );
    expect(shown).toBeLessThanOrEqual(1);
    expect(await page.locator('#key-safety').count()).toBe(1);
  });
});

describe('the schedule picker', () => {
  it('starts at every hour', async () => {
    await connectAndLink();
    expect(await page.locator('#schedule-every').inputValue()).toBe('h1');
    expect(await page.locator('#schedule-every option:checked').textContent()).toBe('Every hour');
  });

  it('shows no estimate when the server plans none', async () => {
    await withScheduleOptions({
      runSeconds: 0,
      intervals: [{ every: 'h1', label: 'Every hour', minutesPerDay: 0, quotaWarning: null }],
    });
    await connectAndLink();
    const estimate = await page.locator('#schedule-estimate').textContent();
    expect(estimate).not.toMatch(/minutes of trigger time/);
    expect(estimate).toBe('Times are in the spreadsheet’s time zone, Etc/UTC.');
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('says trigger time is not known yet after a pull that took no measurable time, never "0 minutes"', async () => {
    // The server's own plan, as after a first pull in the playground (its runs take "0 s").
    await connectAndLink();
    expect(await operate(page, 'Pull')).toMatch(/ in 0 s\.$/);
    const estimate = page.locator('#schedule-estimate');
    await expect.poll(() => estimate.textContent()).toMatch(/^A day: about \d+ URL fetch calls/);
    expect(await estimate.textContent()).toMatch(
      /^A day: about [\d,]+ URL fetch calls \(\d+% of 20,000\) and trigger time not known yet \(recent runs took no measurable time\), the daily quotas of a Google account, shared by all your scripts\.$/,
    );
  });

  it('shows the estimate when recent runs give one', async () => {
    const usage =
      'A day: about 48 URL fetch calls (1% of 20,000) and 5 minutes of trigger time (6% of 90), the daily quotas of a Google account, shared by all your scripts.';
    const use = {
      urlFetches: 48,
      triggerMinutes: 5,
      urlFetchShare: 1,
      triggerShare: 6,
      usage,
      refusal: null,
      basis: [],
    };
    await withScheduleOptions({
      runSeconds: 12,
      intervals: [
        {
          every: 'h1',
          label: 'Every hour',
          minutesPerDay: 5,
          quotaWarning: null,
          use: { sync: use, pull: use, push: use },
        },
      ],
    });
    await connectAndLink();
    expect(await page.locator('#schedule-estimate').textContent()).toBe(usage);
    await page.unrouteAll({ behavior: 'wait' });
  });
});

describe('a refused connection', () => {
  it('puts the cursor in the service address when the address is wrong', async () => {
    await connect(page, aliceKey(), `${h.emulator.url}/not-the-service`);
    const refused = await errorText(page);
    expect(refused).toMatch(
      /^Could not connect\. No table service answered at .*: check the service address/,
    );
    expect(refused).not.toMatch(/base URL/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('base-url');
    // The key stays typed: only the address needs fixing.
    expect(await page.locator('#api-key').inputValue()).toBe(aliceKey());
  });

  it('puts the cursor in the API key when the key is refused, the status code only in the details', async () => {
    await connect(page, 'not-a-real-key', h.emulator.url);
    const error = page.locator('#error');
    const details = await error.locator('.details').textContent();
    const headline = (await error.textContent())?.replace(details ?? '', '') ?? '';
    expect(headline).toMatch(
      /^Could not connect\. Your API key is not valid .*create a new key in your profile/,
    );
    expect(headline).not.toMatch(/\d{3}|auth|token/i);
    expect(details).toMatch(/^ Details: HTTP 401 Unauthorized; the service said "/);
    // On a line of its own, below what to do.
    const lines = await error.evaluate((box) => {
      const span = box.querySelector('.details')?.getBoundingClientRect();
      const strong = box.querySelector('strong')?.getBoundingClientRect();
      return { details: span?.top ?? 0, headline: strong?.bottom ?? 0 };
    });
    expect(lines.details).toBeGreaterThanOrEqual(lines.headline);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    await page.screenshot({ path: artifact('sidebar-key-refused.png') });
  });
});

describe('times in the sidebar', () => {
  it('shows a time the server sent only as ISO in the spreadsheet’s zone, as YYYY-MM-DD HH:mm', async () => {
    await connectAndLink();
    await page.route('**/rpc', async (route) => {
      const call = route.request().postDataJSON() as { fn: string };
      if (call.fn !== 'getState') return route.continue();
      const answer = await route.fetch();
      const body = (await answer.json()) as { ok: boolean; value: Record<string, unknown> };
      const link = {
        ...(body.value.link as Record<string, unknown>),
        lastSyncAt: '2026-11-25T06:43:35.000Z',
        lastSyncLocal: null,
      };
      const scheduleOptions = {
        ...(body.value.scheduleOptions as Record<string, unknown>),
        timeZone: 'Asia/Tokyo',
      };
      return route.fulfill({
        response: answer,
        json: { ...body, value: { ...body.value, link, scheduleOptions } },
      });
    });
    await page.reload();
    await expect
      .poll(() => page.locator('#link-info').textContent())
      .toMatch(/Last sync: 2026-11-25 15:43\.$/);
    await page.unrouteAll({ behavior: 'wait' });
  });
});
