// Browser test of Congkak's traditional rounds chosen on the home page (issue 26, item 4): a
// labelled control, reached by the keyboard, offers the catalogue's values of the option `rounds`
// in the visitor's words; the games it starts (the computer, a friend by link, two on this device)
// carry `rounds=traditional`; a combination the rules core refuses is never sent; the Congkak rules
// dialog says how the rounds go, in French and in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite } from './harness.mjs';
import { checkLayout } from './layout.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const rules = 'congkak,rounds=traditional';

// Tab from the page's top until `selector` holds the focus.
async function tabTo(page, selector) {
  for (let i = 0; i < 80; ++i) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  assert.fail(`Tab never reached ${selector}`);
}

async function chooseCongkak(page) {
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="congkak"]');
  await page.waitForSelector('#opt-rounds');
}

// The next POST /api/games the page sends, once `act` ran.
async function postedGame(page, act) {
  const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games'), act()]);
  return request.postDataJSON();
}

test('fr-FR phone: traditional rounds chosen on the home page by the keyboard, a game against the computer in round 1 of such a match', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  await chooseCongkak(page);
  // The control: labelled, described, its values the catalogue's, worded in French.
  const select = page.getByRole('combobox', { name: 'Manches' });
  assert.equal(await select.count(), 1, 'one control named "Manches"');
  assert.deepEqual(await page.$$eval('#opt-rounds option', (o) => o.map((x) => x.value)), ['single', 'traditional']);
  assert.deepEqual(await page.$$eval('#opt-rounds option', (o) => o.map((x) => x.textContent)), ['Une seule manche', 'Manches traditionnelles, avec cases brûlées']);
  assert.equal(await select.inputValue(), 'single', 'one round unless chosen');
  const help = await page.$eval('#opt-rounds', (s) => document.getElementById(s.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
  assert.match(help, /7 graines par case/, help);
  assert.match(help, /brûlées/, help);
  // Reached by Tab from the top of the page, and set with the arrow keys.
  await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  await tabTo(page, '#opt-rounds');
  await page.keyboard.press('ArrowDown');
  assert.equal(await select.inputValue(), 'traditional', 'the arrow key chose traditional rounds');
  await checkLayout(page, 'home, congkak rounds (fr-FR)');
  await shot(page, 'home-congkak-rounds-fr-FR');
  await page.selectOption('#level', 'easy');
  const body = await postedGame(page, () => page.click('.mode.computer'));
  assert.equal(body.rules, rules);
  assert.equal(body.mode, 'ai');
  await page.waitForURL(/\/g\/\w+$/);
  await page.waitForSelector('.house.legal');
  assert.match(await page.textContent('.status'), /Manche 1\b/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const game = await (await page.request.get(`${site.url}/api/games/${id}`)).json();
  assert.equal(game.rules, rules, 'the server plays traditional rounds');
  assert.equal(game.set, 1);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('en-GB phone: a friend by link and two on this device carry traditional rounds; the rules dialog tells them', async (t) => {
  const { context, page } = await newPage(site.browser, { locale: 'en-GB', viewport: phone });
  await chooseCongkak(page);
  assert.deepEqual(await page.$$eval('#opt-rounds option', (o) => o.map((x) => x.textContent)), ['One round', 'Traditional rounds, with burnt houses']);
  await page.selectOption('#opt-rounds', 'traditional');
  await page.click('.card[data-preset="congkak"] .rules-link');
  await page.waitForSelector('dialog[open]');
  assert.match(await page.textContent('dialog[open]'), /Traditional rounds.+seven a house.+burnt/);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  await page.click('.mode.local');
  await page.waitForURL((u) => u.searchParams.get('local') === rules);
  await page.waitForSelector('.house.legal');
  assert.match(await page.textContent('.status'), /Round 1\b/);
  if (site.server) {
    // The choice is kept while the page lives: back on the home page, still traditional rounds.
    await page.click('a.back');
    await page.waitForSelector('#opt-rounds');
    assert.equal(await page.inputValue('#opt-rounds'), 'traditional');
    const body = await postedGame(page, () => page.click('.mode.friend'));
    assert.equal(body.rules, rules);
    assert.equal(body.mode, 'friend');
    await page.waitForURL(/\/g\/\w+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    assert.equal((await (await page.request.get(`${site.url}/api/games/${id}`)).json()).rules, rules);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('fr-FR: rules the core refuses are never sent, and the page says why it waits', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  await chooseCongkak(page);
  // A value outside the catalogue, as a stale or tampered page would hold (seeds go up to 12).
  const posts = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games' && posts.push(r.postData()));
  await page.$eval('#opt-seeds', (s) => {
    s.append(new Option('13', '13'));
    s.value = '13';
    s.dispatchEvent(new Event('change'));
  });
  for (const mode of ['.mode.computer', '.mode.friend', '.mode.local']) assert.equal(await page.isDisabled(mode), true, mode);
  assert.match(await page.textContent('.home > .note'), /Ces options ne vont pas ensemble/);
  await page.click('.mode.computer', { force: true });
  await page.click('.mode.local', { force: true });
  assert.deepEqual(posts, []);
  assert.equal(new URL(page.url()).search, '', 'still on the home page');
  // Back to a value the core takes: the buttons come back.
  await page.selectOption('#opt-seeds', '5');
  assert.equal(await page.isDisabled('.mode.computer'), false);
  assert.doesNotMatch(await page.textContent('.home > .note'), /Ces options/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
