// Launches headless Chromium for the browser tests and the demo check (playwright-core + @sparticuz/chromium).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

/** Where screenshots go (gitignored). */
export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');

/** Starts headless Chromium: CHROMIUM_PATH when set, else the @sparticuz/chromium binary. */
export async function launchBrowser(): Promise<Browser> {
  const sparticuz = (await import('@sparticuz/chromium')).default;
  const executablePath = process.env.CHROMIUM_PATH ?? (await sparticuz.executablePath());
  mkdirSync(ARTIFACTS, { recursive: true });
  // --single-process (meant for one-shot serverless runs) ends the browser when its first context closes.
  const args = sparticuz.args.filter((arg) => arg !== '--single-process');
  return chromium.launch({ executablePath, args: [...args, '--no-sandbox'], headless: true });
}

/** The path of a screenshot artifact. */
export function artifact(name: string): string {
  return path.join(ARTIFACTS, name);
}
