// The README's structure section matches the tree: every folder it names exists, and every folder
// of the repository (and of src/ and test/) is named.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** Generated, installed or local-only folders: not part of the structure a reader needs. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'coverage', 'test-artifacts']);

function structureBlock(): string {
  const section = README.slice(README.indexOf('## How it works'));
  const match = /```\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('README has no structure block under "How it works"');
  return match[1];
}

function folders(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_SOURCE.has(entry.name))
    .map((entry) => entry.name);
}

describe('README structure section', () => {
  const block = structureBlock();
  const named = block
    .split('\n')
    .map((line) => /^(\S+)/.exec(line)?.[1])
    .filter((entry): entry is string => entry !== undefined);

  it('names only paths that exist', () => {
    for (const entry of named) expect(existsSync(path.join(ROOT, entry)), entry).toBe(true);
  });

  it('names every top-level folder, every folder of src/, and every folder of test/', () => {
    for (const folder of folders('.')) expect(block, folder).toMatch(new RegExp(`(^|\\n)${folder}/`));
    for (const folder of folders('src')) expect(named, `src/${folder}`).toContain(`src/${folder}/`);
    for (const folder of folders('test')) expect(block, `test/${folder}`).toContain(`${folder}/`);
  });
});
