// Fetches npm registry packages into DIR/node_modules without npm, checking each tarball against the
// registry's sha512 integrity, and links their bins into DIR/node_modules/.bin:
//   node tools/node-fetch.mjs DIR NAME@VERSION...
// tools/setup runs it with Debian's nodejs 18 (emscripten brings it) to fetch Node 22 and npm 10:
// Debian's own npm package would bring some 400 packages more for this one download.
// The registry is $npm_config_registry or registry.npmjs.org; node trusts NODE_EXTRA_CA_CERTS.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...specs] = process.argv.slice(2);
if (!dir || specs.length === 0) {
  console.error('usage: node tools/node-fetch.mjs DIR NAME@VERSION...');
  process.exit(2);
}
const registry = (process.env.npm_config_registry || 'https://registry.npmjs.org').replace(/\/+$/, '');

async function get(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function install(spec) {
  const at = spec.lastIndexOf('@');
  const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
  if (at <= 0 || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`${spec}: give NAME@X.Y.Z`);
  const meta = JSON.parse((await get(`${registry}/${name}/${version}`)).toString('utf8'));
  const integrity = meta.dist?.integrity ?? '';
  if (!integrity.startsWith('sha512-')) throw new Error(`${spec}: the registry gives no sha512 integrity`);
  const tarball = await get(meta.dist.tarball);
  const digest = 'sha512-' + createHash('sha512').update(tarball).digest('base64');
  if (digest !== integrity) throw new Error(`${spec}: the tarball does not match its integrity ${integrity}`);
  const dest = join(dir, 'node_modules', name);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  const file = join(dir, `${name}.tgz`);
  writeFileSync(file, tarball);
  execFileSync('tar', ['-xzf', file, '-C', dest, '--strip-components=1', '--no-same-owner']);
  rmSync(file);
  // The package's bins, as npm would link them.
  const pkg = JSON.parse(readFileSync(join(dest, 'package.json'), 'utf8'));
  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
  const binDir = join(dir, 'node_modules', '.bin');
  mkdirSync(binDir, { recursive: true });
  for (const [bin, path] of Object.entries(bins)) {
    const link = join(binDir, bin);
    rmSync(link, { force: true });
    symlinkSync(join('..', name, path), link);
    chmodSync(join(dest, path), 0o755);
  }
  console.log(`tools/node-fetch: ${name}@${version}`);
}

try {
  for (const spec of specs) await install(spec);
} catch (e) {
  console.error(`tools/node-fetch: ${e.message}`);
  console.error('tools/node-fetch: (behind a proxy? then put a Node.js 20.19+ with npm on PATH yourself)');
  process.exit(1);
}
