// Browser tests of the game page as a new player meets it (issue 18): a whole Mangala match on a
// phone in French (each set's result between sets, the match's at the end, fingers-wide houses, no
// overlapping counts), confirmations before a game ends, the last move marked, take back and new
// game on this device, the move list during play, the sound switch, and the home page's keyboard
// path and live list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, newPage, playOn, shot, useSite } from './harness.mjs';
import { checkLayout } from './layout.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };


test('a phone in French: a whole Mangala match, each set’s result between the sets, the match’s at the end', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  await page.goto(site.url + '/?local=mangala');
  await page.waitForSelector('.house.legal');
  await checkLayout(page, 'mangala on a phone');
  await shot(page, 'mangala-phone-fr');
  const setsSeen = [];
  for (let set = 1; set <= 5; ++set) {
    const ended = await playOn(page, async () => (await page.$('.set-over:not([hidden])')) !== null || (await page.getAttribute('body', 'data-status')) === 'over');
    assert.ok(ended);
    if ((await page.getAttribute('body', 'data-status')) === 'over') break;
    // Between sets: the set's result over its last position, the match points beside it.
    const text = await page.textContent('.set-over');
    assert.match(text, new RegExp(`Manche ${set} (?::.+ gagne \\d+–\\d+|nulle \\d+–\\d+) · Points du match`), text);
    const c = await counts(page);
    assert.equal(c.reduce((a, b) => a + b, 0), 48, 'the set’s last position keeps every seed');
    assert.ok(!(await page.$('.banner:has-text("Partie terminée")')), 'no "game over" between sets');
    setsSeen.push(text);
    await page.click('.set-over .next-set');
    await idle(page);
    assert.deepEqual((await counts(page)).filter((_, i) => i !== 6 && i !== 13), new Array(12).fill(4), 'the next set starts afresh');
  }
  await playOn(page, async () => (await page.getAttribute('body', 'data-status')) === 'over');
  const status = await page.textContent('.status');
  assert.match(status, /(gagne le match \d+(,5|\.5)?–\d+|Match nul) .*dernière manche (?:gagnée par .+ \d+–\d+|nulle \d+–\d+)/, status);
  assert.ok(setsSeen.length >= 2, 'a match of several sets');
  await checkLayout(page, 'mangala at the end');
  await shot(page, 'mangala-phone-fr-end');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a phone: a whole Al-manqala game and a whole Congkak game, the layout whole at the end', async () => {
  for (const preset of ['al-manqala', 'congkak']) {
    const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
    await page.goto(`${site.url}/?local=${preset}`);
    await page.waitForSelector('.house.legal');
    assert.ok(await playOn(page, async () => (await page.getAttribute('body', 'data-status')) === 'over', 1500), `${preset} ends`);
    await checkLayout(page, `${preset} at the end`);
    assert.match(await page.textContent('.status'), /Résultat/);
    assert.ok(!(await page.$('.set-over:not([hidden])')), 'no set banner on a one-set game');
    await shot(page, `${preset}-phone-end`);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test('every preset on a phone and a desk, in both languages: fingers-wide houses, counts that cover nothing', async () => {
  for (const [locale, viewport] of [['en-GB', phone], ['fr-FR', phone], ['fr-FR', { width: 1100, height: 850 }], ['en-GB', { width: 1100, height: 850 }]]) {
    // Without motion: the layouts are what is checked here, not the sowing (56 pages of it took 54 s).
    const { context, page } = await newPage(site.browser, { locale, viewport, reducedMotion: 'reduce' });
    for (const preset of ['kalah', 'kalah-club', 'mangala', 'mangala-castle', 'al-manqala', 'congkak', 'awale']) {
      await page.goto(`${site.url}/?local=${preset}&ai=easy&side=S`);
      await page.waitForSelector('.house.legal');
      await idle(page);
      await checkLayout(page, `${preset} ${locale} ${viewport.width}px`);
      // Two moves in, the layout holds with seeds moved.
      await page.click('.house.legal');
      await page.keyboard.press('s');
      await page.waitForSelector('.house.legal', { timeout: 10000 });
      await idle(page);
      await checkLayout(page, `${preset} ${locale} after a move`);
    }
    await context.close();
  }
});

test('on this device: ending a game asks first, the last move is marked, take back and new game', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/?local=al-manqala');
  await page.waitForSelector('.house.legal');
  // The split asks before it ends the game; Cancel keeps it going.
  await page.click('.extras button:has-text("Offer to share")');
  assert.equal(await page.getAttribute('body', 'data-status'), 'playing');
  await page.click('.extras button:has-text("Cancel")');
  await page.click('.extras button:has-text("Offer to share")');
  await page.click('.extras button:has-text("sure?")');
  await page.waitForFunction(() => document.body.dataset.status === 'over');
  // Against the computer: a move, its answer; the answer's house is marked and said.
  await page.goto(site.url + '/?local=kalah&ai=easy&side=S#m=');
  await page.waitForSelector('.house.legal');
  await page.click('.house.legal[data-side="S"][data-house="1"]');
  await page.waitForFunction(() => Number(document.body.dataset.plies) >= 2 && document.querySelector('.house.legal[data-side="S"]'));
  await idle(page);
  const marked = await page.$$eval('.pit.last-sown', (x) => x.map((h) => h.dataset.side));
  assert.deepEqual(marked, ['N']);
  assert.match(await page.textContent('.last-move'), /Last move: Computer, house \d/);
  assert.equal(await page.getAttribute('.last-move', 'aria-live'), 'polite');
  // The focus left the house just emptied for one the player can play.
  assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('legal')), 'focus on a playable house');
  // The move list steps back during the game, and ⏭ comes back to it.
  await page.click('.replay-first');
  assert.match(await page.textContent('.viewing'), /Showing move 0 of/);
  assert.equal(await page.$('.house.legal'), null, 'no play while looking back');
  await page.click('.replay-last');
  await page.waitForSelector('.house.legal');
  // Take back: to before our own last move.
  await page.click('.extras button.undo');
  await page.waitForFunction(() => document.body.dataset.plies === '0');
  assert.match(page.url(), /#m=$/);
  // New game asks first.
  await page.click('.house.legal[data-side="S"][data-house="2"]');
  await page.waitForFunction(() => Number(document.body.dataset.plies) >= 1);
  await page.waitForSelector('.house.legal[data-side="S"]');
  await page.click('.extras button:has-text("New game")');
  await page.click('.extras button:has-text("sure?")');
  await page.waitForFunction(() => document.body.dataset.plies === '0');
  // The sound switch is remembered.
  const before = await page.getAttribute('button.sound', 'aria-pressed');
  await page.click('button.sound');
  await page.reload();
  await page.waitForSelector('button.sound');
  assert.notEqual(await page.getAttribute('button.sound', 'aria-pressed'), before);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('home: the game cards are one radio group the arrow keys move through, a short Tab path to play', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card[aria-checked="true"]');
  await page.focus('.card[aria-checked="true"]');
  const first = await page.getAttribute('.card[aria-checked="true"]', 'data-preset');
  await page.keyboard.press('ArrowRight');
  const second = await page.getAttribute('.card[aria-checked="true"]', 'data-preset');
  assert.notEqual(second, first);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.preset), second);
  assert.equal(await page.$$eval('.card[tabindex="0"]', (x) => x.length), 1, 'one tab stop for the group');
  // The rules' picture says whose store is which (Congkak's: the player's on his left).
  await page.click('.card[data-preset="congkak"] .rules-link');
  const labels = await page.$$eval('dialog[open] svg text', (x) => x.map((t) => ({ text: t.textContent, x: Number(t.getAttribute('x')) })));
  const mine = labels.find((l) => /your store/.test(l.text));
  const theirs = labels.find((l) => /opponent’s store/.test(l.text));
  assert.ok(mine && theirs && mine.x < theirs.x, JSON.stringify(labels));
  await page.keyboard.press('Escape');
  // From the top of the page to "Play the computer" by Tab.
  await page.goto(site.url + '/');
  await page.waitForSelector('.mode.computer');
  let presses = 0;
  for (; presses < 40; ++presses) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('computer'))) break;
  }
  assert.ok(presses < 16, `${presses + 1} Tab presses to "Play the computer"`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('through the server: a draw the computer declines is said; a rematch asked is seen and accepted', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser);
  const made = await page.request.post(site.url + '/api/games', { data: { rules: 'kalah,houses=4,seeds=3', mode: 'ai', level: 'easy', side: 'S' } });
  const { id } = await made.json();
  await page.goto(site.url + `/g/${id}`);
  await page.waitForSelector('.extras button:has-text("Offer a draw")');
  await page.click('.extras button:has-text("Offer a draw")');
  await page.waitForSelector('.banner.show:has-text("declines: the game goes on")');
  assert.equal(await page.getAttribute('body', 'data-status'), 'playing');
  // Between friends: A resigns (asked first), asks for a rematch; B sees it and accepts.
  const a = page;
  const b = (await newPage(site.browser)).page;
  await a.goto(site.url + '/');
  await a.waitForSelector('.mode.friend');
  await a.click('.mode.friend');
  await a.waitForSelector('.share .link');
  const link = await a.inputValue('.share .link');
  await b.goto(link);
  await a.waitForSelector('.house.legal');
  await a.click('.extras button:has-text("Resign")');
  await a.click('.extras button:has-text("Resign: sure?")');
  await b.waitForFunction(() => document.body.dataset.status === 'over');
  await a.waitForSelector('.extras button:has-text("Rematch")');
  await a.click('.extras button:has-text("Rematch")');
  await b.waitForSelector('.extras .offer:has-text("asks for a rematch")');
  await b.click('.extras button:has-text("Accept the rematch")');
  const first = new URL(link).pathname;
  await a.waitForFunction((p) => location.pathname.startsWith('/g/') && location.pathname !== p, first);
  await b.waitForFunction((p) => location.pathname.startsWith('/g/') && location.pathname !== p, first);
  assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname, 'both in the same new game');
  assert.deepEqual(a.errors, []);
  await context.close();
  await b.context().close();
});
