// Boards up to 12 houses and 12 seeds (issue 24) in the browser: the home page offers them, a 12x12
// board is drawn on a 390x844 phone and a 1366x768 desk with fingers-wide houses and counts that
// cover nothing, and games on it are played through the WebAssembly core and the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, newPage, shot, useSite } from './harness.mjs';
import { checkLayout } from './layout.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 768 };
const noServer = () => (process.env.SEMIS_PREVIEW ? 'no server' : false);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// Picks Kalah with 12 houses of 12 seeds in the home page's options (the core lists the ranges).
async function chooseTwelveByTwelve(page) {
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  const houses = await page.$$eval('#opt-houses option', (o) => o.map((x) => x.value));
  const seeds = await page.$$eval('#opt-seeds option', (o) => o.map((x) => x.value));
  assert.equal(houses.at(-1), '12', `houses offered: ${houses}`);
  assert.equal(seeds.at(-1), '12', `seeds offered: ${seeds}`);
  await page.selectOption('#opt-houses', '12');
  await page.selectOption('#opt-seeds', '12');
}

// Plays `moves` moves of the side at the bottom, the first legal house each time, animations skipped
// (tapped on a touch screen, clicked with the mouse elsewhere).
async function playSome(page, moves, touch = false) {
  for (let i = 0; i < moves; ++i) {
    await page.waitForSelector('.house.legal', { timeout: 20000 });
    await idle(page);
    await (touch ? page.tap('.house.legal') : page.click('.house.legal'));
    await page.keyboard.press('s');
    await idle(page);
  }
}

for (const locale of ['en-GB', 'fr-FR']) {
  test(`a 12x12 Kalah on a phone (${locale}): chosen on the home page, 24 fingers-wide houses, played on this device`, async () => {
    const { context, page } = await newPage(site.browser, { locale, viewport: phone, touch: true });
    await chooseTwelveByTwelve(page);
    await page.tap('.mode.local');
    await page.waitForSelector('.house.legal');
    await idle(page);
    assert.equal(await page.$$eval('.board .house', (h) => h.length), 24);
    assert.equal(await page.$$eval('.board .house.legal', (h) => h.length), 12);
    assert.equal(sum(await counts(page)), 288);
    await checkLayout(page, `12x12 ${locale} phone`);
    // The houses numbered 10 to 12 are there and can be played; the seeds stay 288.
    await page.tap('.house.legal[data-side="S"][data-house="12"]');
    await page.keyboard.press('s');
    await idle(page);
    // Twelve seeds from house 12: one in the store, eleven over North's row; North moves next.
    await page.waitForSelector('.house.legal[data-side="N"]');
    assert.equal(sum(await counts(page)), 288);
    await playSome(page, 3, true);
    assert.equal(sum(await counts(page)), 288);
    await checkLayout(page, `12x12 ${locale} phone after moves`);
    await shot(page, `bigboard-phone-${locale}`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('a 12x12 Kalah on a desk against the computer of this device: one row of twelve a side, every house fingers-wide', async () => {
  const { context, page } = await newPage(site.browser, { viewport: desk });
  await page.goto(`${site.url}/?local=${encodeURIComponent('kalah,houses=12,seeds=12')}&ai=easy&side=S`);
  await page.waitForSelector('.house.legal');
  await idle(page);
  await checkLayout(page, '12x12 desk');
  // Across: the twelve houses of a row share one line.
  const tops = await page.$$eval('.board .house[data-side="S"]', (h) => h.map((x) => Math.round(x.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `South's row: ${tops}`);
  // Every house and store lies on the wood: the board is as wide as its pits.
  const outside = await page.evaluate(() => {
    const b = document.querySelector('.board').getBoundingClientRect();
    return [...document.querySelectorAll('.board .pit')].filter((p) => {
      const r = p.getBoundingClientRect();
      return r.left < b.left - 1 || r.right > b.right + 1;
    }).map((p) => p.dataset.pit);
  });
  assert.deepEqual(outside, [], 'pits beyond the board’s edges');
  await playSome(page, 4);
  await page.waitForSelector('.house.legal', { timeout: 20000 });
  await idle(page);
  assert.equal(sum(await counts(page)), 288);
  await checkLayout(page, '12x12 desk after moves');
  await shot(page, 'bigboard-desk');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a 12x12 Kalah against the server’s computer on a phone', { skip: noServer() }, async () => {
  const { context, page } = await newPage(site.browser, { viewport: phone, touch: true });
  await chooseTwelveByTwelve(page);
  await page.selectOption('#level', 'easy');
  await page.tap('.mode.computer');
  await page.waitForURL(/\/g\//);
  await page.waitForSelector('.house.legal');
  await idle(page);
  assert.equal(await page.$$eval('.board .house', (h) => h.length), 24);
  await checkLayout(page, '12x12 server phone');
  await playSome(page, 3, true);
  // The computer's answer shown (its animation done), the seeds are all there.
  await page.waitForSelector('.house.legal', { timeout: 20000 });
  await idle(page);
  assert.equal(sum(await counts(page)), 288);
  await checkLayout(page, '12x12 server phone after moves');
  assert.deepEqual(page.errors, []);
  await context.close();
});
