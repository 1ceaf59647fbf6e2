// Starts what the browser tests talk to and the browser itself.
// - SEMIS_URL=http://127.0.0.1:PORT: use a running `semis serve`.
// - SEMIS_BIN=path/to/semis: start `semis serve --web dist` on a free port.
// - SEMIS_PREVIEW=1: `vite preview` of dist/ (no server at all: local play only).
// - otherwise: build/release (or build/debug) src/app/semis of this checkout, if built.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const shotsDir = join(webDir, 'test-results');
mkdirSync(shotsDir, { recursive: true });

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} did not come up`);
}

let started = null;

// { url, kind: real|preview, server: whether the API answers, stop() }
export async function startSite() {
  if (started) return started;
  if (!existsSync(join(webDir, 'dist', 'index.html'))) execFileSync('npm', ['run', 'build'], { cwd: webDir, stdio: 'inherit' });
  let url = process.env.SEMIS_URL;
  let child = null;
  let kind;
  let restart = null;
  if (!url) {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const bin = process.env.SEMIS_BIN ?? ['release', 'debug'].map((b) => join(webDir, '..', 'build', b, 'src', 'app', 'semis')).find((p) => existsSync(p));
    if (bin) {
      // A database file of its own, so a restart finds the games again.
      const db = join(mkdtempSync(join(tmpdir(), 'semis-web-')), 'semis.db');
      const args = (process.env.SEMIS_ARGS ?? 'serve --address 127.0.0.1 --port {port} --web {web} --db {db}')
        .split(' ')
        .map((a) => a.replace('{port}', String(port)).replace('{web}', join(webDir, 'dist')).replace('{db}', db));
      const run = () => spawn(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      child = run();
      kind = 'real';
      restart = async () => {
        const old = child;
        const exited = new Promise((r) => old.once('exit', r));
        old.kill('SIGTERM');
        await exited;
        child = run();
        await waitFor(url + '/healthz');
      };
    } else if (process.env.SEMIS_PREVIEW) {
      child = spawn(join(webDir, 'node_modules', '.bin', 'vite'), ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: webDir, stdio: 'ignore' });
      kind = 'preview';
    } else {
      throw new Error('no Semis server: set SEMIS_BIN (or SEMIS_URL), or SEMIS_PREVIEW=1 for local play only');
    }
  } else kind = 'real';
  await waitFor(url + '/');
  const server = await fetch(url + '/healthz').then((r) => r.ok && Boolean(r.headers.get('content-type')?.includes('json')), () => false);
  started = {
    url,
    kind,
    server, // a Semis server answers the API
    restart, // stops the server and starts it again on the same port and database (real server only)
    stop() {
      child?.kill('SIGTERM');
    },
  };
  return started;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

// A page with fast animations and its console errors collected (a test fails on any of them).
export async function newPage(browser, { locale = 'en-GB', viewport = { width: 1100, height: 850 }, speed = '4' } = {}) {
  const context = await browser.newContext({ locale, viewport });
  await context.addInitScript((s) => {
    if (!localStorage.getItem('semis.speed')) localStorage.setItem('semis.speed', s);
  }, speed);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { context, page };
}

// Every pit's count as shown: [south houses..., south store, north houses..., north store].
export async function counts(page) {
  return page.$$eval('.board .pit', (cells) =>
    cells.sort((a, b) => Number(a.dataset.pit) - Number(b.dataset.pit)).map((c) => Number(c.querySelector('.count').textContent)),
  );
}

export async function idle(page) {
  await page.waitForFunction(() => window.semisBoard && !window.semisBoard.busy);
}

export async function shot(page, name) {
  const path = join(shotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
