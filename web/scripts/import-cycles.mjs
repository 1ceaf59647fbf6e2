// Fails when the client's modules import each other in a cycle, directly or through others.
// A cycle makes the order modules run in depend on which one the page loads first (a value read
// before its module ran is undefined), and ties modules that should not know each other.
// Every relative import counts, `import type` too: a type cycle is the same coupling.
// Usage: node scripts/import-cycles.mjs [dir]   (default: src, beside this script's folder)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const extensions = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return extensions.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

// The text without its comments (strings and template literals kept, so '//' in a URL stays).
function withoutComments(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// The module specifiers a file imports: static imports and re-exports (types included),
// side-effect imports and dynamic import('...').
export function specifiers(text) {
  const code = withoutComments(text);
  const found = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/gm,
    /^\s*import\s*(['"])([^'"]+)\1/gm,
    /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[2]);
  return found;
}

function resolveImport(from, spec, known) {
  if (!spec.startsWith('.')) return null; // a package: outside the graph
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), ...extensions.map((ext) => base + ext),
    ...extensions.map((ext) => join(base, 'index' + ext))];
  return candidates.find((path) => known.has(path)) ?? null;
}

// Every cycle's modules, one list a strongly connected component (Tarjan), each in import order.
export function findCycles(dir) {
  const files = sourceFiles(resolve(dir));
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file,
    [...new Set(specifiers(readFileSync(file, 'utf8')).map((s) => resolveImport(file, s, known)).filter(Boolean))]]));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v).includes(v)) components.push(component);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  // One cycle through each component, as a path a reader can follow: a -> b -> ... -> a.
  return components.map((component) => {
    const inside = new Set(component);
    const start = [...component].sort()[0];
    const path = [start];
    const seen = new Set([start]);
    const walk = (v) => {
      for (const w of edges.get(v)) {
        if (!inside.has(w)) continue;
        if (w === start) return true;
        if (seen.has(w)) continue;
        seen.add(w);
        path.push(w);
        if (walk(w)) return true;
        path.pop();
      }
      return false;
    };
    walk(start);
    return { modules: component.map((f) => relative(resolve(dir), f)).sort(),
      path: [...path, start].map((f) => relative(resolve(dir), f)) };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const cycles = findCycles(dir);
  if (cycles.length === 0) {
    console.log(`import cycles: none in ${relative(process.cwd(), resolve(dir)) || '.'}`);
  } else {
    console.error(`import cycles: ${cycles.length} in ${resolve(dir)}; move what the modules share into a module of its own:`);
    for (const cycle of cycles) console.error(`  ${cycle.path.join(' -> ')}  (modules: ${cycle.modules.join(', ')})`);
    process.exit(1);
  }
}
