// Browser tests that need no game server: the home page, two players on one device and the local
// computer, all on the C++ core compiled to WebAssembly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { counts, idle, litHint, newPage, shot, useSite } from './harness.mjs';

const site = useSite();

const sum = (a) => a.reduce((x, y) => x + y, 0);

test('home lists the seven games with options, rules and a picture one click away', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  const names = await page.$$eval('.card h3', (h) => h.map((x) => x.textContent));
  assert.deepEqual(names, ['Kalah', 'Kalah, club rules', 'Mangala', 'Mangala, castle rule', 'Al-manqala', 'Congkak', 'Awalé (oware)']);
  await page.click('.card[data-preset="congkak"]');
  assert.match(await page.textContent('.options h2'), /Congkak/);
  await page.click('.card[data-preset="congkak"] .rules-link');
  await page.waitForSelector('dialog[open] svg.picture');
  assert.match(await page.textContent('dialog[open]'), /clockwise/);
  await page.click('dialog[open] .close');
  assert.equal(await page.$('dialog[open]'), null);
  // Esc closes it too.
  await page.click('.card[data-preset="al-manqala"] .rules-link');
  await page.waitForSelector('dialog[open]');
  assert.match(await page.textContent('dialog[open]'), /2 or 4/);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
  for (const mode of ['.mode.computer', '.mode.friend', '.mode.local']) assert.ok(await page.$(mode), mode);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('two players on one device: legal houses lit, seeds conserved, illegal clicks do nothing', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  await page.click('.mode.local');
  await page.waitForSelector('.board .house.legal');
  assert.deepEqual(await counts(page), [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
  // North's houses are not playable on South's turn: the click changes nothing.
  await page.click('.house[data-side="N"][data-house="1"]', { force: true });
  assert.deepEqual(await counts(page), [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
  // South 3: four seeds, the last in the store: an extra turn, the URL remembers the move.
  await page.click('.house[data-side="S"][data-house="3"]');
  await idle(page);
  assert.deepEqual(await counts(page), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
  assert.match(page.url(), /#m=3$/);
  assert.match(await page.textContent('.status'), /Your move|South/);
  // The emptied house is not legal any more: clicking it does nothing.
  await page.click('.house[data-side="S"][data-house="3"]', { force: true });
  assert.deepEqual(await counts(page), [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]);
  await page.click('.house[data-side="S"][data-house="6"]');
  await idle(page);
  const c = await counts(page);
  assert.equal(sum(c), 48);
  assert.equal(c[6], 2);
  assert.match(await page.textContent('.status'), /North to move/);
  assert.equal(await page.$$eval('.house.legal[data-side="S"]', (x) => x.length), 0);
  assert.ok((await page.$$eval('.house.legal[data-side="N"]', (x) => x.length)) > 0);
  assert.match(await page.textContent('.record-text'), /1\. 3\+6/);
  await page.click('.game-head .rules-link');
  await page.waitForSelector('dialog[open] svg.picture');
  await page.keyboard.press('Escape');
  await shot(page, 'local-kalah');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a reload brings back the same position and move history', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/?local=kalah');
  await page.waitForSelector('.house.legal');
  const start = await counts(page);
  // South 3 ends in the store (South again), South 6, then North 2: three plies.
  for (const [side, h] of [['S', 3], ['S', 6], ['N', 2]]) {
    await page.click(`.house.legal[data-side="${side}"][data-house="${h}"]`);
    await idle(page);
  }
  const seen = async () => ({
    counts: await counts(page),
    plies: await page.getAttribute('body', 'data-plies'),
    toMove: await page.getAttribute('body', 'data-to-move'),
    record: (await page.textContent('.record-text')).trim(),
    last: await page.textContent('.last-move'),
    status: await page.textContent('.status'),
    legal: await page.$$eval('.house.legal', (x) => x.map((h) => `${h.dataset.side}${h.dataset.house}`)),
  });
  const before = await seen();
  assert.match(page.url(), /#m=3,6,2$/);
  assert.equal(before.plies, '3');
  assert.notDeepEqual(before.counts, start);
  assert.equal(sum(before.counts), 48);
  assert.match(before.record, /1\. 3\+6 2\b/);
  assert.match(before.last, /Last move: North, house 2/);
  // The board marks the house the last move came from.
  assert.deepEqual(await page.$$eval('.pit.last-sown', (x) => x.map((h) => `${h.dataset.side}${h.dataset.house}`)), ['N2']);
  // North 2's five seeds end in North's store: North plays again, after the reload too.
  assert.equal(before.toMove, 'N');
  await page.reload();
  await page.waitForSelector('.board .house.legal');
  await idle(page);
  assert.match(page.url(), /#m=3,6,2$/);
  assert.deepEqual(await seen(), before);
  // And play goes on from there.
  await page.click(`.house.legal[data-side="N"][data-house="${before.legal[0].slice(1)}"]`);
  await idle(page);
  assert.equal(await page.getAttribute('body', 'data-plies'), '4');
  assert.deepEqual(page.errors, []);
  await context.close();
});

// The engine's reasons (codes, src/engine/Hint.hpp) as the page words them in English (i18n.ts).
const reasonPhrases = [
  /^feeds the opponent, as the rules require$/,
  /^ends in your store: you play again$/,
  /^captures (\d+) seeds?$/,
  /^saves your house of \d+ seeds from a capture$/,
  /^stops a capture of \d+ seeds$/,
  /^leaves the opponent no extra turn$/,
  /^the search rates it best$/,
];

// The hint lit on the board is the house its sentence names, a legal one, and its reasons agree
// with what the core's preview says that house does.
async function checkHint(page) {
  const lit = await litHint(page);
  assert.equal(lit.count, 1, 'one house lit');
  assert.ok(lit.legal, 'the lit house is legal');
  assert.equal(lit.side, await page.getAttribute('body', 'data-to-move'));
  const m = /^House (\d+): (.+)\. The engine’s verdict: (you should finish about \d+ seeds? (?:ahead|behind) \(an estimate\)|about even|you win by \d+ seeds? with best play|with your best defence you lose by \d+ seeds? at most|a draw with best play)\.$/.exec(lit.text);
  assert.ok(m, `the hint in words: ${lit.text}`);
  assert.equal(Number(m[1]), lit.house, 'the sentence names the lit house');
  const reasons = m[2].split(/ ?; /);
  for (const r of reasons) assert.ok(reasonPhrases.some((re) => re.test(r)), `a reason the engine gives: ${r}`);
  assert.equal(lit.badge, 'Tip');
  assert.match(lit.label, /, suggested$/);
  // What the hinted house does, as the hover preview shows it.
  await page.hover(`.pit.hint`);
  await page.waitForFunction(() => document.querySelector('.preview').textContent !== '');
  const preview = await page.textContent('.preview');
  assert.equal(reasons.includes('ends in your store: you play again'), /extra turn/.test(preview), `${lit.text} / ${preview}`);
  const taken = reasons.map((r) => /^captures (\d+)/.exec(r)).find(Boolean);
  assert.equal(taken ? `captures ${taken[1]}` : null, /captures \d+/.exec(preview)?.[0] ?? null, `${lit.text} / ${preview}`);
  await page.mouse.move(0, 0);
  return lit;
}

test('hovering a house previews where the last seed lands and what it captures', async () => {
  const { context, page } = await newPage(site.browser);
  // A position where South 1 (one seed) lands in empty South 2, facing North 5's four seeds.
  await page.goto(site.url + '/?local=kalah#m=3,1');
  await page.waitForSelector('.house.legal');
  await idle(page);
  assert.match(await page.textContent('.status'), /North/);
  await page.click('.house[data-side="N"][data-house="1"]');
  await idle(page);
  // South now: houses 4,0,0,5,5,5 — South 1 has 4? Read the board and preview what the core says.
  await page.hover('.house.legal[data-side="S"] >> nth=0');
  await page.waitForSelector('.pit.lands');
  const text = await page.textContent('.preview');
  assert.match(text, /Last seed lands in/);
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector('.pit.lands'));
  // Walk the game until some house would capture: the preview marks the taken houses and says how many.
  let found = false;
  for (let ply = 0; ply < 60 && !found; ++ply) {
    const legal = await page.$$('.house.legal');
    for (const h of legal) {
      await h.hover();
      if (await page.$('.pit.taken')) {
        found = true;
        assert.match(await page.textContent('.preview'), /captures \d+/);
        break;
      }
    }
    if (!found) {
      await legal[ply % legal.length].click();
      await idle(page);
    }
  }
  assert.ok(found, 'a capture was previewed');
  // Teach me: one house lit, the one its words name, and they say what the house does.
  await page.click('button.teach');
  await checkHint(page);
  // The next move puts the light out.
  await page.click('.house.legal >> nth=0');
  await idle(page);
  assert.equal(await page.$('.pit.hint'), null);
  assert.equal(await page.textContent('.hint-text'), '');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('Teach me: the only legal move is the one lit, for North too, and it shows without animation', async () => {
  // Kalah(4,3) after 2,3,1,3,2: North to move, and only North's house 4 has seeds.
  const { context, page } = await newPage(site.browser, { reducedMotion: 'reduce' });
  await page.goto(site.url + '/?local=kalah,houses=4,seeds=3#m=2,3,1,3,2');
  await page.waitForSelector('.house.legal');
  await idle(page);
  assert.deepEqual(await page.$$eval('.house.legal', (x) => x.map((h) => `${h.dataset.side}${h.dataset.house}`)), ['N4']);
  await page.keyboard.press('h');
  const lit = await checkHint(page);
  assert.equal(`${lit.side}${lit.house}`, 'N4');
  // Reduced motion: no animation, but an outline and a badge that are seen.
  assert.equal(lit.animation, 'none');
  assert.match(lit.outline, /^solid [3-9]/);
  assert.ok(lit.badgeShown, 'the badge is visible');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('keyboard only: a whole game against the local computer, to the result', async () => {
  const { context, page } = await newPage(site.browser, { speed: '4' });
  await page.goto(site.url + '/?local=kalah,houses=4,seeds=3&ai=easy&side=S');
  await page.waitForSelector('.house.legal');
  let moves = 0;
  while (moves < 200) {
    await idle(page);
    const status = await page.getAttribute('body', 'data-status');
    if (status === 'over') break;
    const mine = await page.$$('.house.legal');
    if (mine.length === 0) {
      await page.waitForTimeout(100);
      continue;
    }
    // Tab into the board, walk with the arrows, play with Enter.
    await page.focus('.top-nav .brand');
    let focused = '';
    for (let i = 0; i < 30 && !focused.includes('house'); ++i) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.className ?? '');
    }
    assert.match(focused, /house/);
    await page.keyboard.press('ArrowRight');
    const target = await page.evaluate(() => document.activeElement.className.includes('legal'));
    if (!target) await page.keyboard.press('ArrowLeft');
    const legalNow = await page.evaluate(() => document.activeElement.className.includes('legal'));
    if (!legalNow) {
      // Fall back on the digit keys: the first legal house's number.
      const h = await page.getAttribute('.house.legal', 'data-house');
      await page.keyboard.press(h);
    } else await page.keyboard.press('Enter');
    moves += 1;
    await page.waitForTimeout(50);
  }
  await page.waitForSelector('.status.over');
  const status = await page.textContent('.status');
  assert.match(status, /Result: (Draw|You win|Computer wins) \d+–\d+/);
  const c = await counts(page);
  assert.equal(sum(c), 24);
  assert.equal(c[4] + c[9], 24, 'every seed ends in a store');
  await shot(page, 'local-ai-over');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('French by default for a French browser, English on request, labels for screen readers', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR' });
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  assert.equal(await page.textContent('.mode.local'), 'Deux joueurs sur cet appareil');
  await page.click('button.lang[lang="en"]');
  await page.waitForFunction(() => document.querySelector('.mode.local')?.textContent === 'Two players on this device');
  await page.click('button.lang[lang="fr"]');
  await page.click('.mode.local');
  await page.waitForSelector('.house');
  const label = await page.getAttribute('.house[data-side="S"][data-house="1"]', 'aria-label');
  assert.equal(label, 'Case 1 de Sud, 4 graines, jouable');
  const store = await page.getAttribute('.pit.store[data-side="N"]', 'aria-label');
  assert.equal(store, 'Grenier de Nord, 0 graine');
  assert.match(await page.textContent('.status'), /Au tour de Sud|À vous/);
  // The engine's hint, its codes worded in French.
  await page.click('button.teach');
  await page.waitForSelector('.pit.hint');
  const hint = await page.textContent('.hint-text');
  assert.match(hint, /^Case \d : .+\. Verdict du moteur : (vous devriez finir|avec le meilleur jeu|avec votre meilleure défense|à peu près)/);
  assert.doesNotMatch(hint, /the search|ends in|captures|protects|not proven/);
  await context.close();
});

test('every game renders its board with counts, on a desktop and on a phone', async () => {
  const expected = {
    kalah: [6, 4, true],
    'kalah-club': [6, 4, true],
    mangala: [6, 4, true],
    'mangala-castle': [6, 4, true],
    'al-manqala': [7, 7, false],
    congkak: [7, 7, true],
  };
  for (const [viewport, tag] of [[{ width: 1100, height: 850 }, 'desktop'], [{ width: 375, height: 740 }, 'phone']]) {
    const { context, page } = await newPage(site.browser, { viewport });
    for (const [preset, [n, seeds, stores]] of Object.entries(expected)) {
      await page.goto(`${site.url}/?local=${preset}`);
      await page.waitForSelector('.board .house');
      const c = await counts(page);
      assert.equal(c.length, 2 * n + 2, preset);
      assert.deepEqual(c.filter((_, i) => i !== n && i !== 2 * n + 1), new Array(2 * n).fill(seeds), preset);
      assert.equal(await page.$$eval('.pit.store', (x) => x.length), stores ? 2 : 0, preset);
      assert.equal(await page.$$eval('.pit.tray', (x) => x.length), stores ? 0 : 2, preset);
      // The whole board fits the screen: no pit is cut off at the sides.
      const box = await page.$eval('.board', (b) => b.getBoundingClientRect().toJSON());
      assert.ok(box.left >= 0 && box.right <= viewport.width + 1, `${preset} fits ${tag}: ${JSON.stringify(box)}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${preset}: no sideways scroll on ${tag}`);
      const path = await shot(page, `${preset}-${tag}`);
      assert.ok(readFileSync(path).length > 10000, 'a real picture');
      const south = await page.$eval('.pit[data-side="S"].store, .pit[data-side="S"].tray', (e) => e.getBoundingClientRect().toJSON());
      const house1 = await page.$eval('.house[data-side="S"][data-house="1"]', (e) => e.getBoundingClientRect().toJSON());
      if (tag === 'phone') {
        // Upright phone: the board stands, the player's store at the bottom, every house a finger wide.
        assert.ok(south.y > house1.y, `${preset}: South's store at the bottom on a phone`);
        const sizes = await page.$$eval('.house', (hs) => hs.map((h) => Math.min(h.getBoundingClientRect().width, h.getBoundingClientRect().height)));
        assert.ok(Math.min(...sizes) >= 44, `${preset}: houses of ${Math.min(...sizes)} px on a phone`);
      } else if (preset === 'congkak') assert.ok(south.x < house1.x, 'Congkak: South store on the left');
      else assert.ok(south.x > house1.x, `${preset}: South store on the right`);
    }
    await page.goto(site.url + '/');
    await page.waitForSelector('.card');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `home: no sideways scroll on ${tag}`);
    await shot(page, `home-${tag}`);
    await context.close();
  }
});

test('Congkak relays and Mangala castles are shown as such', async () => {
  const { context, page } = await newPage(site.browser, { speed: '1' });
  await page.goto(site.url + '/?local=congkak');
  await page.waitForSelector('.house.legal');
  await page.click('.house[data-side="S"][data-house="3"]');
  // Mid-sowing: a seed in flight and the relay announced.
  await page.waitForFunction(() => /Relay: \d+ seeds/.test(document.querySelector('.banner')?.textContent ?? ''));
  await page.waitForSelector('.seed.flying');
  await shot(page, 'congkak-relay-in-flight');
  await page.click('button.skip');
  await idle(page);
  assert.equal(sum(await counts(page)), 98);

  await page.goto(site.url + '/?local=mangala-castle');
  await page.waitForSelector('.house.legal');
  let castle = false;
  for (let i = 0; i < 150 && !castle; ++i) {
    if ((await page.getAttribute('body', 'data-status')) !== 'playing') break;
    const legal = await page.$$('.house.legal');
    // Vary the choice so the game wanders: the i-th legal house, cycling.
    await legal[i % legal.length].click();
    await page.click('button.skip');
    await idle(page);
    castle = (await page.$('.pit.castle')) !== null;
  }
  assert.ok(castle, 'a castle appeared within the game');
  assert.equal(sum(await counts(page)), 48);
  const label = await page.$eval('.pit.castle', (e) => e.getAttribute('data-side'));
  assert.match(label, /^[SN]$/);
  await shot(page, 'mangala-castle-built');
  await context.close();
});

test('keyboard only from the home page: pick Congkak, start a game on this device', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  const tabTo = async (selector) => {
    for (let i = 0; i < 60; ++i) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
    }
    assert.fail(`Tab never reached ${selector}`);
  };
  // The cards are one radio group: Tab reaches the chosen one, the arrows move to Congkak.
  await tabTo('.card[aria-checked="true"]');
  for (let i = 0; i < 6 && !(await page.$('.card[data-preset="congkak"][aria-checked="true"]')); ++i) await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.preset), 'congkak');
  assert.match(await page.textContent('.options h2'), /Congkak/);
  await tabTo('.mode.local');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.board .house.legal');
  assert.equal(await page.$$eval('.board .house', (x) => x.length), 14);
  assert.match(await page.getAttribute('.board', 'aria-label'), /South at the bottom/);
  // Digits play a house: South 1 (seven seeds).
  await page.keyboard.press('1');
  await idle(page);
  assert.equal(sum(await counts(page)), 98);
  assert.notEqual((await counts(page))[0], 7);
  await context.close();
});
