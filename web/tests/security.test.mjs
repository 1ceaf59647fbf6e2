// The page under the server's security headers (docs/server.md, "Security headers"): every page
// and a game against the computer (the WebAssembly core) run with no Content-Security-Policy
// violation; a signed-in player lists his devices and signs out everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, signUp, useSite } from './harness.mjs';

const site = useSite();

const noServer = () => (site?.kind === 'preview' || process.env.SEMIS_PREVIEW ? 'no server' : false);

// Every violation the page reports, from its own event and from the console.
async function watchPolicy(page) {
  const seen = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Refused to: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

test('every page runs under the Content-Security-Policy, the rules core included', { skip: noServer() }, async () => {
  const home = await fetch(site.url + '/');
  const csp = home.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(home.headers.get('x-content-type-options'), 'nosniff');
  const { page, context } = await newPage(site.browser, { reducedMotion: 'reduce' });
  const violations = await watchPolicy(page);
  await page.goto(site.url + '/');
  await page.waitForSelector('.home');
  // A game against the computer on this device: the core (WebAssembly) judges every move.
  await page.goto(site.url + '/?local=kalah&ai=easy');
  await page.waitForSelector('.house.legal');
  await page.click('.house.legal');
  await page.waitForFunction(() => document.querySelectorAll('.house.legal').length > 0 || document.body.dataset.status === 'over', null, { timeout: 20000 });
  for (const path of ['/daily', '/analysis', '/review?local=kalah&m=3,6']) {
    // (The pages keep their socket open: 'networkidle' never comes. Each draws its main part.)
    await page.goto(site.url + path);
    await page.waitForSelector('#app > *');
    await page.waitForTimeout(1500);
  }
  assert.deepEqual(violations, [], 'the page breaks its own policy');
  await context.close();
});

test('a player lists his devices and signs out everywhere', { skip: noServer() }, async () => {
  const { page, context } = await newPage(site.browser);
  const username = `dev${Math.floor(Math.random() * 1e6)}`;
  await signUp(page, site.url, username);
  // A second device, signed in over the API.
  const other = await fetch(site.url + '/api/account/signin', { method: 'POST', body: JSON.stringify({ username, password: 'correct horse' }) });
  assert.equal(other.status, 200);
  const otherCookie = other.headers.get('set-cookie').split(';')[0];
  await page.click('#account summary.who');
  await page.click('#account .sessions');
  await page.waitForSelector('.session.current');
  assert.equal(await page.locator('.session').count(), 2);
  await page.click('.sign-out-all');
  await page.waitForSelector('#account .sign-up');
  const me = await (await fetch(site.url + '/api/me', { headers: { cookie: otherCookie } })).json();
  assert.equal(me.username, null, 'the other device is signed out too');
  await context.close();
});
