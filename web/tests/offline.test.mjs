// The installable app: a manifest with its icons that Chromium accepts, a service worker served so
// it can be replaced, and after one visit with the network the page opening and playing without
// it: the computer, two players on one device, a lesson and the daily puzzle already fetched, with
// the offline state shown and the server's features not offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idle, newPage, shot, useSite } from './harness.mjs';
import { until } from './play.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };

test('the manifest, its icons and the service worker as the server sends them', async () => {
  const m = await fetch(`${site.url}/manifest.webmanifest`);
  assert.equal(m.status, 200);
  if (site.server) assert.equal(m.headers.get('content-type'), 'application/manifest+json');
  const manifest = await m.json();
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  const sizes = manifest.icons.map((i) => i.sizes);
  assert.ok(sizes.includes('192x192') && sizes.includes('512x512'));
  for (const icon of manifest.icons) {
    const r = await fetch(site.url + icon.src);
    assert.equal(r.status, 200, icon.src);
    const bytes = Buffer.from(await r.arrayBuffer());
    if (icon.type === 'image/png') {
      assert.equal(bytes.subarray(1, 4).toString(), 'PNG', icon.src);
      const [w, h] = icon.sizes.split('x').map(Number);
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [w, h], `${icon.src} is ${icon.sizes}`);
    } else assert.match(bytes.toString(), /^<svg/, icon.src);
  }
  const sw = await fetch(`${site.url}/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get('content-type'), /javascript/);
  const body = await sw.text();
  assert.match(body, /const PRECACHE = \[/);
  const files = JSON.parse(/const PRECACHE = (\[.*?\]);/.exec(body)[1]);
  assert.ok(files.includes('/') && files.some((f) => /^\/assets\/index-.*\.js$/.test(f)), 'the page and its bundle are kept');
  if (site.server) {
    assert.doesNotMatch(sw.headers.get('cache-control') ?? '', /immutable|max-age=[1-9]/, 'a new worker replaces the old one');
    // The page paths of the lessons are the page.
    assert.equal((await fetch(`${site.url}/learn/congkak`)).status, 200);
  }
});

test('after one visit the page opens and plays offline, on a phone: the computer, two players, a lesson, the daily puzzle', async () => {
  const { context, page } = await newPage(site.browser, { viewport: phone });
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  // Installable as Chromium judges it.
  const cdp = await context.newCDPSession(page);
  await until('the service worker', () => page.evaluate(() => navigator.serviceWorker.ready.then(() => true)));
  await until('the page controlled by it', async () => {
    if (await page.evaluate(() => Boolean(navigator.serviceWorker.controller))) return true;
    await page.reload();
    await page.waitForSelector('.card');
    return false;
  });
  const manifest = await cdp.send('Page.getAppManifest');
  assert.deepEqual(manifest.errors, [], 'the manifest parses');
  const installable = await cdp.send('Page.getInstallabilityErrors');
  // (Playwright's contexts are incognito: that one is about the browser, not the app.)
  assert.deepEqual(installable.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), [], 'installable');
  // The daily puzzle, fetched once with the network.
  let dailyPath = null;
  if (site.server) {
    await page.goto(site.url + '/daily');
    await page.waitForSelector('.daily-page[data-ready="1"]', { timeout: 60000 });
    dailyPath = new URL(await page.getAttribute('.daily-games a[aria-current="page"]', 'href'), site.url).pathname;
    await page.goto(site.url + dailyPath);
    await page.waitForSelector('.daily-page[data-ready="1"]', { timeout: 60000 });
  }

  await context.setOffline(true);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.waitForSelector('body[data-offline="1"] .offline-banner:not([hidden])');
  assert.match(await page.textContent('.offline-banner'), /Offline/);
  assert.equal(await page.isVisible('#account'), false, 'no account bar offline');
  assert.equal(await page.isVisible('.mode.friend'), false, 'no friend game offline');
  await shot(page, 'offline-home-phone');

  // The computer, in the page.
  await page.selectOption('#side', 'S');
  await page.click('.mode.computer');
  await page.waitForURL(/\?local=kalah|\?local=/);
  assert.match(page.url(), /&ai=/);
  await page.waitForSelector('.board .house.legal');
  await idle(page);
  await page.locator('.house.legal[data-side="S"]').first().click();
  await until('the computer’s reply', async () => Number(await page.getAttribute('body', 'data-plies')) >= 2, 30000);
  await page.waitForSelector('body[data-offline="1"] .offline-banner:not([hidden])');

  // Two players on this device.
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.mode.local');
  await page.waitForURL(/\?local=/);
  await page.waitForSelector('.board .house.legal');
  for (let i = 0; i < 3; ++i) {
    await idle(page);
    await page.locator('.house.legal').first().click();
    await until(`move ${i + 1}`, async () => Number(await page.getAttribute('body', 'data-plies')) >= i + 1);
  }

  // A lesson, and the daily puzzle fetched before.
  await page.goto(site.url + '/learn/congkak');
  await page.waitForSelector('body[data-lesson-step="1"] .pit.hint');
  if (dailyPath) {
    await page.goto(site.url + dailyPath);
    await page.waitForSelector('.daily-page[data-ready="1"]');
    await page.locator('.house.legal').first().click();
    await until('the daily move', async () => Number(await page.getAttribute('.daily-page', 'data-plies')) >= 1);
  }

  // The network is back: the home page offers the server's games again.
  await context.setOffline(false);
  await page.goto(site.url + '/');
  await page.waitForSelector('body[data-offline="0"] .card');
  assert.equal(await page.isVisible('.offline-banner'), false);
  if (site.server) assert.equal(await page.isVisible('.mode.friend'), true);
  assert.deepEqual(page.errors, []);
  await context.close();
});
