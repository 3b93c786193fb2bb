// The source's imports point one way (style.md): index -> gas -> api, core; no module reaches itself
// again through its imports, so every module reads as a straight way down.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = 'src';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [normalize(path)] : [];
  });
}

/** The modules a file imports by a relative path (type-only imports too: they tie the modules as much). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const base = normalize(join(dirname(file), match[1] as string));
    const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => known.has(path));
    if (target) found.push(target);
  }
  return found;
}

/** Every cycle, each as the path of modules from its first back to it. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('the imports of src/', () => {
  const files = sourceFiles(ROOT);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

  it('finds the modules and their imports', () => {
    expect(graph.get(normalize('src/gas/live.ts'))).toContain(normalize('src/gas/actions.ts'));
  });

  it('form no cycle', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('would name a cycle', () => {
    const looped = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(cyclesOf(looped)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
