// The club in the browser (docs/club.md), against the real server: two new visitors sign up, find
// each other by quick pairing, play a rated game to the end and see their new ratings and the game
// in their histories; a friend invitation; a guest who signs up keeps his game; a claim after the
// opponent closes his page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, newPage, shot, signUp, useSite } from './harness.mjs';
import { playOut, ratedQuickPair } from './play.mjs';

// A short claim delay, so that the claim test does not wait 30 s.
process.env.SEMIS_ARGS ??= 'serve --address 127.0.0.1 --port {port} --web {web} --db {db} --claim-seconds 2';

const site = useSite();

const unique = (stem) => `${stem}${Math.floor(Math.random() * 1e6)}`;
const noServer = () => (process.env.SEMIS_PREVIEW ? 'no server' : false);

test('two strangers sign up, are paired, play a rated game and see it on their profiles', { skip: noServer() }, async () => {
  const a = await newPage(site.browser, { speed: '4', reducedMotion: 'reduce' });
  const b = await newPage(site.browser, { speed: '4', reducedMotion: 'reduce' });
  const [ua, ub] = [unique('ann'), unique('ben')];
  await signUp(a.page, site.url, ua);
  await signUp(b.page, site.url, ub);
  // Both on the home page: the live counts, then the same quick seek.
  await ratedQuickPair(a.page, b.page, 'kalah');
  await a.page.waitForSelector('.rated-line .badge');
  assert.match(await a.page.textContent('.player.top .name'), /\(1500\?\)/);
  await playOut([a.page, b.page]);
  // The changes, once the server has stored them.
  await a.page.waitForSelector('.rating-change[data-side="S"]', { timeout: 20000 });
  const change = await a.page.textContent('.rated-line');
  assert.match(change, /1500 → \d+/);
  await shot(a.page, 'club-rated-over');
  // Each profile: the rating and the game in the history, which links to it.
  const game = new URL(a.page.url()).pathname;
  for (const p of [a.page, b.page]) {
    await p.click('#account summary');
    await p.click('#account .profile');
    await p.waitForSelector('.rating-card[data-key="kalah"] .rating-value');
    const value = await p.textContent('.rating-card[data-key="kalah"] .rating-value');
    assert.match(value, /^\d+\?$/);
    await p.waitForSelector(`.played a[href="${game}"]`);
    assert.equal(p.errors.length, 0, p.errors.join('\n'));
  }
  await a.context.close();
  await b.context.close();
});

test('a friend is invited from the friends page and accepts from anywhere on the site', { skip: noServer() }, async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  const [ua, ub] = [unique('cat'), unique('dan')];
  await signUp(a.page, site.url, ua);
  await signUp(b.page, site.url, ub);
  await a.page.goto(site.url + '/friends');
  await a.page.fill('.add-friend input', ub);
  await a.page.click('.add-friend button[type=submit]');
  await a.page.waitForSelector(`.friends li:has-text("${ub}") .invite`);
  await a.page.click(`.friends li:has-text("${ub}") .invite`);
  // Dan, on the home page, gets the toast and accepts: both are in the game.
  await b.page.waitForSelector('.toast[data-invite] .accept');
  await b.page.click('.toast[data-invite] .accept');
  await b.page.waitForURL(/\/g\//);
  await a.page.waitForURL(/\/g\//);
  assert.equal(a.page.url(), b.page.url());
  await b.page.waitForSelector('body[data-status="playing"]');
  await a.context.close();
  await b.context.close();
});

test('a guest with a finished game signs up and finds it in his history', { skip: noServer() }, async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  await page.selectOption('#opt-houses', '3');
  await page.selectOption('#opt-seeds', '1');
  await page.click('.mode.computer');
  await page.waitForURL(/\/g\//);
  const game = new URL(page.url()).pathname;
  await page.waitForSelector('.house.legal');
  await playOut([page]);
  const name = unique('eve');
  await page.click('#account .sign-up');
  await page.fill('.club-dialog input[name=username]', name);
  await page.fill('.club-dialog input[name=password]', 'correct horse');
  await page.click('.club-dialog button[type=submit]');
  await page.waitForSelector(`#account summary.who:text("${name}")`);
  await page.click('#account summary');
  await page.click('#account .profile');
  await page.waitForSelector(`.played a[href="${game}"]`);
  // The link leads to the game, which steps back to its start move by move.
  await page.click(`.played a[href="${game}"]`);
  await page.waitForSelector('.replay .replay-first');
  await page.click('.replay .replay-first');
  assert.match(await page.textContent('.replay-at'), /^0 \/ \d+$/);
  assert.deepEqual(await counts(page), [1, 1, 1, 0, 1, 1, 1, 0]);
  await page.click('.replay .replay-next');
  assert.match(await page.textContent('.replay-at'), /^1 \/ /);
  assert.equal(page.errors.length, 0, page.errors.join('\n'));
  await context.close();
});

test('a player whose opponent closed his page claims the win after the countdown', { skip: noServer() }, async () => {
  if (process.env.SEMIS_URL) return; // (the claim delay is this test's server's)
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  await signUp(a.page, site.url, unique('fay'));
  await signUp(b.page, site.url, unique('gus'));
  await a.page.check('#rated');
  await a.page.click('.quick-seek[data-game="mangala"][data-clock="∞"]');
  await a.page.waitForSelector('.pairing-status:has-text("opponent")');
  await b.page.check('#rated');
  await b.page.click('.quick-seek[data-game="mangala"][data-clock="∞"]');
  await a.page.waitForURL(/\/g\//);
  await b.page.waitForURL(/\/g\//);
  await a.page.waitForSelector('.abort');
  // Both play their first move: a player who never played is a no-show (the game is aborted), not
  // a leaver to claim against.
  const played = new Set();
  for (let i = 0; played.size < 2 && i < 100; ++i) {
    for (const [name, p] of [['a', a.page], ['b', b.page]]) {
      const h = await p.$('.house.legal');
      if (h && (await h.click().then(() => true, () => false))) played.add(name);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  assert.equal(played.size, 2, 'both played');
  await b.context.close();
  await a.page.waitForSelector('.claim-countdown');
  await a.page.waitForSelector('.claim-win:not([hidden])', { timeout: 15000 });
  await a.page.click('.claim-win');
  await a.page.waitForSelector('body[data-status="over"]');
  assert.match(await a.page.textContent('.status'), /left|parti/);
  await a.context.close();
});
