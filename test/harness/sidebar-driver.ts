// Drives the sidebar like a person (clicks and typing), in a page or in the playground's iframe.
import type { FrameLocator, Page } from 'playwright-core';

/** A page showing /sidebar, or the playground's sidebar iframe. */
export type SidebarScope = Page | FrameLocator;

/** Waits until the sidebar has finished the action under way (aria-busy false on <main>). */
export async function idle(scope: SidebarScope): Promise<void> {
  await scope.locator('main#app[aria-busy="false"]').waitFor({ state: 'attached', timeout: 20_000 });
}

export async function connect(scope: SidebarScope, apiKey: string, baseUrl?: string): Promise<void> {
  await idle(scope);
  if (baseUrl !== undefined) await scope.locator('#base-url').fill(baseUrl);
  await scope.locator('#api-key').fill(apiKey);
  await scope.getByRole('button', { name: 'Connect' }).click();
  await idle(scope);
}

/** Shows the tables of a table app (id or link), pasted. */
export async function findTables(scope: SidebarScope, tableAppId: string): Promise<void> {
  // The paste form sits folded below the list of the person's table apps (open where there is no list).
  if ((await scope.locator('#paste-box').getAttribute('open')) === null)
    await scope.locator('#paste-summary').click();
  await scope.locator('#app-id').fill(tableAppId);
  await scope.getByRole('button', { name: 'Show its tables' }).click();
  await idle(scope);
}

/** The table apps the link step lists, as their buttons read ("CRM · 2 tables"), once the list has settled. */
export async function listedApps(scope: SidebarScope): Promise<string[]> {
  await scope.locator('#app-list[aria-busy="false"]').waitFor({ state: 'attached', timeout: 20_000 });
  return scope.locator('#app-list button').allTextContents();
}

/** Chooses a table app of the link step's list by its name, and waits for its tables. */
export async function chooseTableApp(scope: SidebarScope, name: string): Promise<void> {
  await scope
    .locator('#app-list button', { has: scope.locator('.app-name', { hasText: name }) })
    .first()
    .click();
  await idle(scope);
}

/** Chooses a table by its shown name and links it to this sheet or a new one. */
export async function linkTable(
  scope: SidebarScope,
  tableName: string,
  target: 'this' | 'new' = 'this',
): Promise<void> {
  await scope.locator('#table-list label', { hasText: tableName }).locator('input').check();
  await scope.locator(`input[name="target"][value="${target}"]`).check();
  await scope.locator('#link-form').getByRole('button', { name: 'Link' }).click();
  await idle(scope);
}

/**
 * Clicks Pull, Push, Sync, or Keep mine / Take theirs (for all lines, or on one row) and waits for
 * the summary.
 */
export async function operate(
  scope: SidebarScope,
  button: 'Pull' | 'Pull everything' | 'Push' | 'Sync' | 'Keep mine' | 'Take theirs',
  row?: number,
): Promise<string> {
  const resolving = button === 'Keep mine' || button === 'Take theirs';
  const name = !resolving ? button : row === undefined ? `${button} for all` : `${button} on row ${row}`;
  await scope.getByRole('button', { name, exact: true }).click();
  await idle(scope);
  return (await scope.locator('#summary-text').textContent()) ?? '';
}

export async function errorText(scope: SidebarScope): Promise<string | null> {
  const box = scope.locator('#error');
  return (await box.isVisible()) ? await box.textContent() : null;
}
