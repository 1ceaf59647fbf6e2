// Loading (issue 18): the first visit gets the JS bundle gzip-compressed, and a second visit in the
// same browser takes every hashed asset from the browser's cache, asking the server nothing for it,
// while the page itself is only revalidated (a 304, no body).
// Against the real `semis serve` (SEMIS_BIN, SEMIS_URL, or this checkout's build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startSite } from './harness.mjs';

// What the page's network stack did, as the DevTools protocol tells it: each response, whether a
// cache served it, and how many bytes came over the wire for it.
async function watchNetwork(context, page) {
  const cdp = await context.newCDPSession(page);
  const byId = new Map();
  const entry = (id) => {
    if (!byId.has(id)) byId.set(id, { url: '', status: 0, fromCache: false, wireBytes: null, headers: {} });
    return byId.get(id);
  };
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    entry(requestId).url = request.url;
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    entry(requestId).fromCache = true;
  });
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const e = entry(requestId);
    e.url = response.url;
    e.status = response.status;
    e.headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (response.fromDiskCache || response.fromPrefetchCache) e.fromCache = true;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    entry(requestId).wireBytes = encodedDataLength;
  });
  await cdp.send('Network.enable');
  return {
    assets: () => [...byId.values()].filter((e) => new URL(e.url || 'about:blank', 'http://x').pathname.startsWith('/assets/')),
    page: () => [...byId.values()].find((e) => new URL(e.url || 'about:blank', 'http://x').pathname === '/'),
  };
}

async function visit(context, url) {
  const page = await context.newPage();
  const net = await watchNetwork(context, page);
  await page.goto(url, { waitUntil: 'load' });
  // The protocol's events may trail the load event a little: wait until each asset's answer is in.
  for (let i = 0; i < 100 && (net.assets().length === 0 || net.assets().some((e) => e.status === 0 || e.wireBytes === null)); i += 1) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return { page, net };
}

test('a second visit takes the bundle from the cache; the first got it gzip-compressed', { skip: process.env.SEMIS_PREVIEW ? 'vite preview is not the server' : false }, async (t) => {
  // One test: the server and the browser are its own.
  const site = await startSite();
  const browser = await launch();
  t.after(async () => {
    await browser.close();
    site.stop();
  });
  const { context, page: blank } = await newPage(browser);
  await blank.close();

  const first = await visit(context, site.url + '/');
  const firstJs = first.net.assets().filter((e) => e.url.endsWith('.js'));
  assert.ok(firstJs.length > 0, `the page loads a bundle: ${JSON.stringify(first.net.assets())}`);
  for (const js of firstJs) {
    assert.equal(js.fromCache, false, `${js.url}: the first visit fetches it`);
    assert.equal(js.status, 200);
    assert.equal(js.headers['content-encoding'], 'gzip', `${js.url} is sent compressed`);
    assert.match(js.headers['cache-control'] ?? '', /immutable/, `${js.url} may be kept for good`);
  }
  // The bytes on the wire are the compressed ones: well under the bundle's size.
  const sizes = await first.page.evaluate(() =>
    performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js')).map((r) => ({ name: r.name, wire: r.encodedBodySize, raw: r.decodedBodySize })),
  );
  for (const s of sizes) assert.ok(s.wire < s.raw / 2, `${s.name}: ${s.wire} bytes sent for ${s.raw}`);
  await first.page.close();

  const second = await visit(context, site.url + '/');
  const secondAssets = second.net.assets();
  assert.ok(secondAssets.some((e) => e.url.endsWith('.js')), 'the second visit runs the bundle too');
  for (const a of secondAssets) {
    assert.equal(a.fromCache, true, `${a.url} comes from the browser's cache: ${JSON.stringify(a)}`);
  }
  // Nothing at all went to the server for the assets: the resource timings say 0 bytes transferred.
  const transferred = await second.page.evaluate(() =>
    performance.getEntriesByType('resource').filter((r) => new URL(r.name).pathname.startsWith('/assets/')).map((r) => ({ name: r.name, transferSize: r.transferSize })),
  );
  assert.ok(transferred.length > 0);
  for (const t of transferred) assert.equal(t.transferSize, 0, `${t.name} crossed the network`);
  // The page itself is checked with the server (no-cache) and not sent again: a 304.
  const doc = second.net.page();
  assert.ok(doc, 'the page was requested');
  assert.match(doc.headers['cache-control'] ?? '', /no-cache/);
  assert.ok(doc.headers.etag, 'the page has an ETag');
  // (The protocol shows a revalidated answer with its cached status, 200: the bytes tell the 304.)
  const pageBytes = Number(doc.headers['content-length']);
  assert.ok(doc.wireBytes < pageBytes, `the page is revalidated, not sent again: ${JSON.stringify(doc)}`);
  await context.close();
});
