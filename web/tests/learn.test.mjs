// Learning to play: the lessons (/learn/<preset>) played to their end on the real board with the
// WebAssembly core judging, from a home page card on a phone in French and from the rules dialog on
// a desk in English; every preset's lesson step by step; and taking a move back against the
// server's computer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, newPage, shot, useSite } from './harness.mjs';
import { stateAt, until } from './play.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 768 };
const PRESETS = ['kalah', 'kalah-club', 'mangala', 'mangala-castle', 'al-manqala', 'congkak'];

// Plays the lesson on the page to its end: each step's lit house, then the core's answer checked
// by the page (data-ok) and explained. Returns what each step said after its move.
async function playLesson(page) {
  const said = [];
  for (let k = 1; k <= 12; ++k) {
    await page.waitForSelector(`body[data-lesson-step="${k}"]`);
    const step = {
      counter: await page.textContent('.lesson-counter'),
      before: await page.textContent('.lesson-say'),
    };
    // Only the lit house can be played: the others are not legal.
    assert.equal(await page.locator('.pit.hint').count(), 1, `step ${k}: one house lit`);
    assert.equal(await page.locator('.house.legal').count(), 1, `step ${k}: one house playable`);
    // Several houses in one step (an extra turn): each is lit in turn.
    while (!(await page.$('.lesson-check[data-ok]'))) {
      const lit = page.locator('.pit.hint.legal');
      if ((await lit.count()) === 1) await lit.click();
      await page.waitForTimeout(60);
    }
    step.ok = await page.getAttribute('.lesson-check', 'data-ok');
    step.expect = await page.getAttribute('.lesson-check', 'data-expect');
    step.trace = await page.getAttribute('.lesson-check', 'data-trace');
    step.after = await page.textContent('.lesson-check');
    said.push(step);
    assert.equal(step.ok, '1', `step ${k} (${step.expect}): the core reported ${step.trace}`);
    if (!(await page.$('.lesson-next'))) break;
    await page.click('.lesson-next');
    if ((await page.getAttribute('body', 'data-lesson-done')) === '1') break;
  }
  await page.waitForSelector('body[data-lesson-done="1"]');
  return said;
}

test('a lesson from a home page card, to its end, on a phone in French (Mangala with the castle)', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  const link = page.locator('.card[data-preset="mangala-castle"] .learn-link');
  assert.equal(await link.textContent(), 'Apprendre à jouer');
  await link.click();
  await page.waitForURL(/\/learn\/mangala-castle$/);
  assert.match(await page.textContent('h1'), /Apprendre à jouer/);
  const said = await playLesson(page);
  assert.deepEqual(said.map((s) => s.expect), ['turn_passes', 'capture', 'castle', 'game_end']);
  assert.match(said[0].counter, /^Étape 1 sur 4$/);
  assert.match(said[1].after, /pair/);
  assert.match(said[2].after, /château/);
  assert.match(said[3].after, /26 à 22/);
  for (const s of said) {
    assert.doesNotMatch(s.before + s.after, /\b(house|store|seed|the)\b/i, 'French only');
    assert.doesNotMatch(s.before + s.after, /[^ \u00a0\u202f][:;?!]/, 'a space before : ; ? ! in French');
  }
  assert.match(await page.textContent('h2'), /Bravo/);
  const play = page.locator('.lesson-play');
  assert.equal(await play.textContent(), 'Jouer contre l’ordinateur');
  // The whole page fits the phone's width.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  await shot(page, 'learn-phone-fr-end');
  await play.click();
  await page.waitForURL(/\?local=mangala-castle&ai=easy/);
  await page.waitForSelector('.board .house');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a lesson from the rules dialog, to its end, on a desk in English (Kalah)', async () => {
  const { context, page } = await newPage(site.browser, { viewport: desk });
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"] .rules-link');
  await page.waitForSelector('dialog.rules-dialog[open] .learn-link');
  await page.click('dialog.rules-dialog .learn-link');
  await page.waitForURL(/\/learn\/kalah$/);
  assert.equal(await page.locator('dialog.rules-dialog').count(), 0, 'the dialog closed');
  assert.match(await page.textContent('h1'), /Learn to play Kalah/);
  const firstCounts = await counts(page);
  assert.deepEqual(firstCounts, [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 'the start position');
  const said = await playLesson(page);
  assert.deepEqual(said.map((s) => s.expect), ['turn_passes', 'extra_turn', 'capture', 'game_end']);
  assert.match(said[1].before, /House 3/);
  assert.match(said[1].after, /play again/);
  assert.match(said[1].trace, /extra_turn/);
  assert.match(said[2].trace, /capture/);
  assert.match(said[3].after, /25 to 23/);
  assert.match(said[3].trace, /game_end/);
  assert.match(await page.textContent('h2'), /Well done/);
  await shot(page, 'learn-desk-en-end');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('every preset’s lesson: each step’s answer from the core is the one its words explain', async () => {
  const { context, page } = await newPage(site.browser, { viewport: desk });
  for (const preset of PRESETS) {
    await page.goto(`${site.url}/learn/${preset}`);
    const said = await playLesson(page);
    assert.ok(said.length >= 4, `${preset}: sowing, extra turn or capture, the end`);
    assert.equal(said[said.length - 1].expect, 'game_end', `${preset} ends with the end`);
    if (preset.startsWith('mangala')) assert.ok(said.some((s) => /even/.test(s.after)), `${preset}: the even capture`);
  }
  // A preset without a lesson says so.
  await page.goto(`${site.url}/learn/chess`);
  await page.waitForSelector('.lesson .status');
  assert.match(await page.textContent('.lesson .status'), /no lesson/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('take back against the server’s computer: the move and the reply undone, as the server has it', async (t) => {
  if (!site.server) return t.skip('no server');
  const { context, page } = await newPage(site.browser, { viewport: desk });
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  await page.selectOption('#level', 'easy');
  await page.selectOption('#side', 'S');
  await page.click('.mode.computer');
  await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  await page.waitForSelector('.board .house');
  assert.equal(await page.locator('button.undo').count(), 0, 'nothing to take back yet');
  // House 1's four seeds end in house 5: the computer replies.
  await page.click('.house.legal[data-side="S"][data-house="1"]');
  await until('the computer’s reply', async () => {
    const s = await stateAt(site.url, id);
    return s.plies.length >= 2 && s.position.to_move === 'S';
  });
  await idle(page);
  await page.waitForSelector('button.undo');
  assert.equal(await page.textContent('button.undo'), 'Take back');
  await page.click('button.undo');
  await until('the take back', async () => (await stateAt(site.url, id)).plies.length === 0);
  await page.waitForFunction(() => document.body.dataset.plies === '0');
  await idle(page);
  assert.deepEqual(await counts(page), [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 'the board is back at the start');
  const server = await stateAt(site.url, id);
  assert.equal(server.position.to_move, 'S');
  assert.equal(await page.locator('.house.legal[data-side="S"]').count(), 6, 'South plays again');
  // And the game goes on from there.
  await page.click('.house.legal[data-side="S"][data-house="3"]');
  await until('the new move', async () => (await stateAt(site.url, id)).plies[0]?.move === 3);
  assert.deepEqual(page.errors, []);
  await context.close();
});
