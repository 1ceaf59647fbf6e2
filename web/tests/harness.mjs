// Starts what the browser tests talk to and the browser itself.
// - SEMIS_URL=http://127.0.0.1:PORT: use a running `semis serve`.
// - SEMIS_BIN=path/to/semis: start `semis serve --port 0 --web dist`; the port is the one its
//   `listening` log line (JSON on stderr) names, so no port is ever guessed and then raced for.
// - SEMIS_PREVIEW=1: `vite preview` of dist/ on a port the system picks (no server: local play only).
// - otherwise: build/release (or build/debug) src/app/semis of this checkout, if built.
// SEMIS_LOG=1 echoes the server's log lines.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const shotsDir = join(webDir, 'test-results');
mkdirSync(shotsDir, { recursive: true });

// Starts `semis serve` and resolves with its port once it logs `listening`; the log is read to
// the end (a full pipe would stop the server), the last lines kept for the error message.
function startSemis(bin, args) {
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`${bin} ${args.join(' ')}: ${why}\n${lines.join('\n')}`));
    };
    const timer = setTimeout(() => fail('no "listening" log line within 20 s'), 20000);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      if (lines.length > 40) lines.shift();
      if (process.env.SEMIS_LOG) process.stderr.write(`semis: ${line}\n`);
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.event === 'listening' && Number.isInteger(entry.port) && entry.port > 0) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({ child, port: entry.port });
      }
    });
  });
}

// `vite preview` on a port the system picks: the URL it prints names it.
function startPreview() {
  const child = spawn(join(webDir, 'node_modules', '.bin', 'vite'), ['preview', '--port', '0', '--host', '127.0.0.1'], { cwd: webDir, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('vite preview printed no URL')), 20000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
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

// { url, kind: real|preview, server: whether the API answers, restart(), stop() }
export async function startSite() {
  if (started) return started;
  if (!existsSync(join(webDir, 'dist', 'index.html'))) execFileSync('npm', ['run', 'build'], { cwd: webDir, stdio: 'inherit' });
  let url = process.env.SEMIS_URL;
  let child = null;
  let kind;
  let restart = null;
  if (!url) {
    const bin = process.env.SEMIS_BIN ?? ['release', 'debug'].map((b) => join(webDir, '..', 'build', b, 'src', 'app', 'semis')).find((p) => existsSync(p));
    if (bin) {
      // A database file of its own, so a restart finds the games again.
      const db = join(mkdtempSync(join(tmpdir(), 'semis-web-')), 'semis.db');
      const argsFor = (port) =>
        (process.env.SEMIS_ARGS ?? 'serve --address 127.0.0.1 --port {port} --web {web} --db {db}')
          .split(' ')
          .map((a) => a.replace('{port}', String(port)).replace('{web}', join(webDir, 'dist')).replace('{db}', db));
      const first = await startSemis(bin, argsFor(0));
      child = first.child;
      const port = first.port;
      url = `http://127.0.0.1:${port}`;
      kind = 'real';
      restart = async () => {
        const old = child;
        const exited = new Promise((r) => old.once('exit', r));
        old.kill('SIGTERM');
        await exited;
        // The same port, so the pages reconnect to the address they know.
        const again = await startSemis(bin, argsFor(port));
        child = again.child;
        if (again.port !== port) throw new Error(`restarted on port ${again.port}, not ${port}`);
      };
    } else if (process.env.SEMIS_PREVIEW) {
      const preview = await startPreview();
      child = preview.child;
      url = `http://127.0.0.1:${preview.port}`;
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

// The site (startSite()) and a browser for the tests of one file: started before them, closed and
// stopped after them. The object it returns is filled in by then: site.url, site.server, site.kind,
// site.restart() as startSite() has them, and site.browser.
export function useSite() {
  const site = {};
  before(async () => {
    Object.assign(site, await startSite());
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    site.stop?.();
  });
  return site;
}

// A port nothing listens on now (the system's pick), for HAProxy (and a KGP port), which cannot report one itself.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Several instances behind HAProxy, sharing PostgreSQL and Redis (tools/cluster, with the release
// build and web/dist as they are): { url, kill(i), restart(i), down() }. Null when this machine
// lacks a part (PostgreSQL, Redis, HAProxy) or the release build.
export async function startCluster(instances = 3) {
  const root = join(webDir, '..');
  const needed = ['/usr/sbin/haproxy', '/usr/bin/redis-server', join(root, 'build', 'release', 'src', 'app', 'semis')];
  if (!needed.every(existsSync)) return null;
  const parent = mkdtempSync(join(tmpdir(), 'semis-web-cluster-'));
  const state = join(parent, 'state');
  const env = { ...process.env, SEMIS_CLUSTER_DIR: state };
  const tool = join(root, 'tools', 'cluster');
  const run = (...args) => execFileSync(tool, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const port = await freePort();
  run('up', String(instances), '--port', String(port), '--no-build');
  return {
    url: `http://127.0.0.1:${port}`,
    kill: (i) => run('kill', String(i)),
    restart: (i) => run('restart', String(i)),
    // A failed test's instances tell what they did (their logs go with the state folder).
    down: ({ failed = false } = {}) => {
      if (failed) {
        for (const f of readdirSync(state).filter((n) => n.endsWith('.log')).sort()) {
          const lines = readFileSync(join(state, f), 'utf8').trimEnd().split('\n');
          process.stderr.write(`--- ${f} (last 60 lines)\n${lines.slice(-60).join('\n')}\n`);
        }
      }
      run('down');
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

// A page with fast animations and its console errors collected (a test fails on any of them).
// touch: a phone's touch screen (page.tap; no mouse hovering over the houses).
export async function newPage(browser, { locale = 'en-GB', viewport = { width: 1100, height: 850 }, speed = '4', reducedMotion = 'no-preference', touch = false } = {}) {
  const context = await browser.newContext({ locale, viewport, reducedMotion, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  await context.addInitScript((s) => {
    if (!localStorage.getItem('semis.speed')) localStorage.setItem('semis.speed', s);
  }, speed);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return { context, page };
}

// Plays the first legal house each turn (the next set when one is over), skipping animations,
// until `until()` holds, for `max` turns at the most; whether it holds then. A turn is one round
// trip to the page: the click, the skips and the wait for a still board happen in it (a whole game
// is hundreds of turns, and each round trip costs more than the turn itself).
export async function playOn(page, until, max = 600) {
  for (let i = 0; i < max; ++i) {
    if (await until()) return true;
    const acted = await page.evaluate(async () => {
      const next = document.querySelector('.set-over:not([hidden]) .next-set');
      const house = next ? null : document.querySelector('.house.legal');
      if (!next && !house) return false;
      (next ?? house).click();
      // The sowing may start a moment after the click (a server's echo): skip it, and whatever
      // follows it (the computer's reply), until the board is still.
      for (let k = 0; k < 3 || window.semisBoard?.busy; ++k) {
        if (house) window.semisBoard?.skip();
        await new Promise((r) => setTimeout(r, 10));
      }
      return true;
    });
    if (!acted) await page.waitForTimeout(30);
  }
  return until();
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

// The lit hint as the page shows it, checked to be seen without any animation: the house, its
// badge and outline, and the hint's sentence.
export async function litHint(page) {
  await page.waitForSelector('.pit.hint');
  return page.evaluate(() => {
    const lit = [...document.querySelectorAll('.pit.hint')];
    const cell = lit[0];
    const badge = cell.querySelector('.hint-badge');
    const style = getComputedStyle(cell);
    const box = badge?.getBoundingClientRect();
    return {
      count: lit.length,
      side: cell.dataset.side,
      house: Number(cell.dataset.house),
      legal: cell.classList.contains('legal'),
      label: cell.getAttribute('aria-label'),
      badge: badge ? badge.textContent : null,
      badgeShown: Boolean(box && box.width > 0 && box.height > 0 && getComputedStyle(badge).visibility !== 'hidden'),
      outline: `${style.outlineStyle} ${parseFloat(style.outlineWidth)}`,
      animation: style.animationName,
      text: document.querySelector('.hint-text').textContent,
    };
  });
}

// A new member on `page`: signs up as `username` from the home page's account bar (a desk's width:
// "Sign up" in the bar) and waits for his menu.
export async function signUp(page, siteUrl, username) {
  await page.goto(siteUrl + '/');
  await page.click('#account .sign-up');
  await page.fill('.club-dialog input[name=username]', username);
  await page.fill('.club-dialog input[name=password]', 'correct horse');
  await page.click('.club-dialog button[type=submit]');
  await page.waitForSelector(`#account summary.who:text("${username}")`);
}
