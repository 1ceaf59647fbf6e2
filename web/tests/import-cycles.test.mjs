// The client's modules import no cycle (scripts/import-cycles.mjs, which `npm test` runs first),
// and the check finds the cycles it is there for. No browser, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCycles, specifiers } from '../scripts/import-cycles.mjs';

function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'semis-cycles-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('web/src has no import cycle', () => {
  assert.deepEqual(findCycles(new URL('../src', import.meta.url).pathname), []);
});

test('a cycle through three modules is found, type imports and re-exports included', (t) => {
  const dir = tree({
    'a.ts': "import { b } from './b';\nexport const a = b + 1;\n",
    'b.ts': "import type { C } from './c';\nexport const b: C = 2;\n",
    'c.ts': "export { a } from './a';\nexport type C = number;\n",
    'd.ts': "import { a } from './a';\nexport const d = a;\n",
  });
  t.after(() => rmSync(dir, { recursive: true }));
  const cycles = findCycles(dir);
  assert.equal(cycles.length, 1);
  assert.deepEqual(cycles[0].modules, ['a.ts', 'b.ts', 'c.ts']);
  assert.deepEqual(cycles[0].path, ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
});

test('two modules importing each other, one of them lazily, are a cycle', (t) => {
  const dir = tree({
    'game.ts': "import { start } from './game-server';\nexport const HINT_WAIT_MS = 1;\nstart();\n",
    'game-server.ts': "export function start() { return import('./game.js'); }\n",
  });
  t.after(() => rmSync(dir, { recursive: true }));
  assert.deepEqual(findCycles(dir).map((c) => c.modules), [['game-server.ts', 'game.ts']]);
});

test('imports in comments and packages are not edges; multi-line imports are', () => {
  const text = [
    "// import { x } from './commented';",
    "/* import './blocked'; */",
    "import { a,",
    "  b } from './multi';",
    "import './side-effect.css';",
    "import { createServer } from 'node:http';",
    "const url = 'https://example.org/x'; // from './not-an-import'",
  ].join('\n');
  assert.deepEqual(specifiers(text), ['./multi', 'node:http', './side-effect.css']);
});
