// Load-time checks of a script (§5): parse as Apps Script V8 would, reject `#private` and `static x =` fields,
// and list the top-level functions (the names menus, triggers and google.script.run can call).
import { parse } from 'acorn';

/** Apps Script's save-time error for code it cannot parse. */
export class ScriptSyntaxError extends SyntaxError {
  constructor(message: string, line: number, file: string) {
    super(`Syntax error: SyntaxError: ${message} line: ${line} file: ${file}`);
    this.name = 'SyntaxError';
  }
}

interface AnyNode {
  type: string;
  start: number;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

function* walk(node: unknown): Generator<AnyNode> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) yield* walk(child);
    return;
  }
  const n = node as AnyNode;
  if (typeof n.type !== 'string') return;
  yield n;
  for (const key of Object.keys(n)) {
    if (key === 'loc' || key === 'type') continue;
    const v = n[key];
    if (v && typeof v === 'object') yield* walk(v);
  }
}

/**
 * Parses `code` (ecmaVersion latest, script goal: `import`/`export` are syntax errors) and returns the
 * names of its top-level functions: function declarations and var/let/const bound to function or arrow
 * expressions (§5 "Function detection").
 */
export function checkScript(code: string, file = 'Code.gs'): string[] {
  let ast: AnyNode;
  try {
    ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script', locations: true }) as unknown as AnyNode;
  } catch (e) {
    const err = e as SyntaxError & { loc?: { line: number } };
    throw new ScriptSyntaxError(err.message.replace(/\s*\(\d+:\d+\)$/, ''), err.loc?.line ?? 0, file);
  }
  for (const node of walk(ast)) {
    const line = node.loc?.start.line ?? 0;
    if (node.type === 'PrivateIdentifier') {
      throw new ScriptSyntaxError(
        `Unexpected token '#${String(node.name)}' (private class members are not supported)`,
        line,
        file,
      );
    }
    if (node.type === 'PropertyDefinition' && node.static === true) {
      throw new ScriptSyntaxError("Unexpected token '=' (static class fields are not supported)", line, file);
    }
    if (node.type === 'StaticBlock') {
      throw new ScriptSyntaxError("Unexpected token '{' (static blocks are not supported)", line, file);
    }
  }
  const names: string[] = [];
  for (const stmt of (ast.body as AnyNode[]) ?? []) {
    if (stmt.type === 'FunctionDeclaration') {
      const id = stmt.id as { name: string } | null;
      if (id) names.push(id.name);
    } else if (stmt.type === 'VariableDeclaration') {
      for (const d of stmt.declarations as AnyNode[]) {
        const init = d.init as AnyNode | null;
        const id = d.id as AnyNode;
        if (
          id.type === 'Identifier' &&
          init &&
          (init.type === 'FunctionExpression' || init.type === 'ArrowFunctionExpression')
        ) {
          names.push(String(id.name));
        }
      }
    }
  }
  return names;
}
