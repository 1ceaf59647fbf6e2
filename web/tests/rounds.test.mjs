// Browser test of Congkak's traditional rounds on this device (issue 26, item 4): the status says
// the round, a round's result is shown between rounds with the next round's burnt houses, and the
// burnt houses are drawn and labelled as such, in French and in English. The core decides the
// rounds; the page only shows what the position carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, newPage, playOn, shot, useSite } from './harness.mjs';
import { checkLayout } from './layout.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const rounds = encodeURIComponent('congkak,rounds=traditional');

// (checked before each turn: playOn stops at the round's result, before its "next round" button)
const roundOver = (page) => async () =>
  (await page.$('.set-over:not([hidden])')) !== null || (await page.getAttribute('body', 'data-status')) === 'over';

for (const { locale, round, won, next, burntWord, over } of [
  { locale: 'fr-FR', round: 'Manche', won: 'gagne', next: 'Manche 2', burntWord: 'cases brûlées :', over: 'Manche terminée' },
  { locale: 'en-GB', round: 'Round', won: 'wins', next: 'Round 2', burntWord: 'burnt:', over: 'Round over' },
]) {
  test(`${locale}: Congkak in traditional rounds, the round and its burnt houses shown`, async () => {
    const { context, page } = await newPage(site.browser, { locale, viewport: phone });
    await page.goto(`${site.url}/?local=${rounds}`);
    await page.waitForSelector('.house.legal');
    assert.match(await page.textContent('.status'), new RegExp(`${round} 1`));
    assert.equal(await page.$$eval('.pit.burnt', (c) => c.length), 0, 'nothing is burnt in the first round');
    assert.ok(await playOn(page, roundOver(page), 1500), 'the first round ends');
    assert.notEqual(await page.getAttribute('body', 'data-status'), 'over', 'one round never ends the match: both hold 7 seeds');
    assert.equal(await page.textContent('.banner'), over);
    const between = await page.textContent('.set-over');
    assert.match(between, new RegExp(`${round} 1 ?: .+ ${won} \\d+–\\d+ · ${next}`), between);
    assert.equal((await counts(page)).reduce((a, b) => a + b, 0), 98, 'the round’s last position keeps every seed');
    await page.click('.set-over .next-set');
    await idle(page);
    // The second round: 7 in each house filled, 0 in each burnt one, and the page marks exactly those.
    const c = await counts(page);
    const houses = c.filter((_, pit) => pit !== 7 && pit !== 15);
    assert.ok(houses.every((n) => n === 0 || n === 7), String(c));
    const empty = houses.filter((n) => n === 0).length;
    assert.equal(await page.$$eval('.pit.burnt', (cells) => cells.length), empty);
    const status = await page.textContent('.status');
    assert.match(status, new RegExp(next), status);
    assert.equal(status.includes(burntWord), empty > 0, status);
    if (empty > 0) {
      const label = await page.$eval('.pit.burnt', (cell) => cell.getAttribute('aria-label'));
      assert.match(label, locale === 'fr-FR' ? /brûlée pour cette manche/ : /burnt for this round/, label);
    }
    await checkLayout(page, `congkak rounds, round 2 (${locale})`);
    await shot(page, `congkak-rounds-${locale}`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}
