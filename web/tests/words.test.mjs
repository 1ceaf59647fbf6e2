// Issue 22's words and looks (items 5, 11-14, 19), in real Chromium on a phone and a desk, in both
// languages: a display name a member sets and sees everywhere; result lines that name who won the
// last set and say why a game ended; French that reads as French (a space before the colon, plurals
// that agree, vous); the review within a phone's width; the analysis board agreeing with Teach me;
// the replay buttons worded for screen readers and drawn; dark mode and the two theme switches,
// remembered after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, playOn, shot, useSite } from './harness.mjs';
import { until } from './play.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 768 };
const unique = (stem) => `${stem}${Math.floor(Math.random() * 1e6)}`;

async function signUp(page, username) {
  await page.goto(site.url + '/');
  // A phone shows "Sign in" alone: "Sign up" is inside its dialog.
  if (await page.isVisible('#account .sign-up')) {
    await page.click('#account .sign-up');
  } else {
    await page.click('#account .sign-in');
    await page.click('.club-dialog .sign-up');
  }
  await page.fill('.club-dialog input[name=username]', username);
  await page.fill('.club-dialog input[name=password]', 'correct horse');
  await page.click('.club-dialog button[type=submit]');
  await page.waitForSelector('#account summary.who');
}

// Plays the first legal house each turn, skipping animations, until the game (or match) is over.
async function playToEnd(page) {
  const over = async () => (await page.getAttribute('body', 'data-status')) === 'over';
  assert.ok(await playOn(page, over, 1500), 'the game did not end');
}

// French typography and agreement over the text a visitor reads: a space before ':' (times such as
// 0:30 aside), no "1 coups", "1 points", "1 perdues", the only "tu" gone.
function frenchProblems(text) {
  const problems = [];
  for (const m of text.matchAll(/(\S*[\p{L})»”])(:)(?=\s|$)/gu)) problems.push(`no space before the colon: "${m[0]}"`);
  for (const m of text.matchAll(/(?<![\d,.])\b[01] (coups|points|perdues|gagnées|nulles|parties|jours|graines|erreurs|gaffes)\b/g)) problems.push(`singular with a plural: "${m[0]}"`);
  for (const word of ['Apprends-moi', 'Décliner', 'Computer', 'Égalité ', 'Feuille de partie', 'trésor']) {
    if (text.includes(word)) problems.push(`"${word}"`);
  }
  return problems;
}

async function frenchOk(page, where) {
  const text = await page.evaluate(() => document.body.innerText + '\n' + [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join('\n'));
  assert.deepEqual(frenchProblems(text), [], `${where}:\n${text.slice(0, 2000)}`);
}

async function englishOk(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = [...text.matchAll(/\b1 (moves|points|seeds|games|days|mistakes|blunders)\b/g)].map((m) => m[0]);
  assert.deepEqual(bad, [], `${where}: ${text.slice(0, 1500)}`);
}

test('a member sets a display name from the account menu; the menu, a game seat and the profile show it', async (t) => {
  if (!site.server) return t.skip('needs a server');
  for (const [locale, viewport] of [['en-GB', phone], ['fr-FR', desk]]) {
    const { context, page } = await newPage(site.browser, { locale, viewport });
    const username = unique('nia');
    await signUp(page, username);
    // A name that the server refuses: said in words, nothing changes.
    await page.click('#account summary.who');
    await page.click('#account .display-name');
    await page.fill('.club-dialog input[name=name]', ' x');
    await page.click('.club-dialog button[type=submit]');
    await page.waitForSelector('.club-dialog .error:not(:empty)');
    const error = await page.textContent('.club-dialog .error');
    assert.match(error, locale === 'fr-FR' ? /nom affiché/i : /display name/i, error);
    const name = locale === 'fr-FR' ? 'Élodie M.' : 'Nia Okafor';
    await page.fill('.club-dialog input[name=name]', name);
    await page.click('.club-dialog button[type=submit]');
    await page.waitForSelector('.club-dialog', { state: 'detached' });
    const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
    assert.equal(me.name, name, 'the server has the new name');
    assert.equal(me.username, username, 'the username is unchanged');
    await page.click('#account summary.who');
    assert.match(await page.textContent('#account'), new RegExp(name.replace('.', '\\.')));
    // A seat in a game against the computer.
    const created = await page.request.post(site.url + '/api/games', { data: { rules: 'kalah', mode: 'ai', level: 'easy', side: 'S' } });
    const { id } = await created.json();
    await page.goto(`${site.url}/g/${id}`);
    await page.waitForSelector('.player .name');
    const seats = await page.$$eval('.player .name', (n) => n.map((x) => x.textContent));
    assert.ok(seats.some((s) => s.includes(name)), seats.join(' / '));
    // The profile's heading.
    await page.goto(`${site.url}/p/${me.id}`);
    await page.waitForSelector('.profile h1');
    assert.match(await page.textContent('.profile h1'), new RegExp(name.replace('.', '\\.')));
    if (locale === 'fr-FR') await frenchOk(page, 'profile'); else await englishOk(page, 'profile');
    await shot(page, `display-name-${locale}`);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test('a match’s result names who won the last set, in the winner’s order; Al-manqala says why it ended', async () => {
  for (const locale of ['en-GB', 'fr-FR']) {
    const { context, page } = await newPage(site.browser, { locale, viewport: phone });
    await page.goto(site.url + '/?local=mangala,sets=3');
    await page.waitForSelector('.house.legal');
    await playToEnd(page);
    const status = await page.textContent('.status');
    // The last set's stores as the board shows them at the end, and their winner.
    const [s, n] = await page.evaluate(() => {
      const v = (side) => Number(document.querySelector(`.board .pit.store[data-side="${side}"] .count`).textContent);
      return [v('S'), v('N')];
    });
    const fr = locale === 'fr-FR';
    const names = fr ? { S: 'Sud', N: 'Nord' } : { S: 'South', N: 'North' };
    const hi = Math.max(s, n), lo = Math.min(s, n);
    const expected = s === n ? (fr ? `dernière manche nulle ${s}–${n}` : `last set drawn ${s}–${n}`)
      : fr ? `dernière manche gagnée par ${s > n ? names.S : names.N} ${hi}–${lo}` : `last set won by ${s > n ? names.S : names.N} ${hi}–${lo}`;
    assert.ok(status.includes(expected), `"${status}" should say "${expected}"`);
    if (fr) await frenchOk(page, 'the end of a match'); else await englishOk(page, 'the end of a match');
    await context.close();
  }
  // Al-manqala two players on one device, to its end: when a player's captures reach the target,
  // the line says so (the core's end code, worded here).
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: desk });
  await page.goto(site.url + '/?local=al-manqala');
  await page.waitForSelector('.house.legal');
  await playToEnd(page);
  const piles = await page.$$eval('.board .pit.tray .count', (c) => c.map((x) => Number(x.textContent)));
  const status = await page.textContent('.status');
  // The first legal house each turn ends this game at ply 97, South 50–44 with seeds still on the
  // board (as `semis replay --rules al-manqala` shows): the target, said.
  assert.deepEqual(piles.sort((x, y) => x - y), [44, 50]);
  assert.match(status, /^Résultat : Sud gagne 50–44 \(le premier à 50 graines prises gagne\)$/, status);
  await frenchOk(page, 'the end of Al-manqala');
  await context.close();
});

test('French reads as French on a phone: the game’s end, its review, the analysis board, the leaderboard', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  // The home page, and Mangala's rules in the words the board uses (graines, grenier).
  await page.goto(site.url + '/');
  await page.waitForSelector('.card[data-preset="mangala"]');
  await frenchOk(page, 'the home page');
  await page.click('.card[data-preset="mangala"] .rules-link');
  await page.waitForSelector('.rules-dialog[open]');
  const rules = await page.textContent('.rules-dialog');
  assert.match(rules, /grenier/);
  assert.doesNotMatch(rules, /trésor|pierre/, rules);
  await page.keyboard.press('Escape');
  await page.goto(site.url + '/?local=kalah,houses=4,seeds=3&ai=easy&side=S');
  await page.waitForSelector('.house.legal');
  await frenchOk(page, 'the game page');
  await playToEnd(page);
  assert.match(await page.textContent('.status'), /^Résultat : /);
  await frenchOk(page, 'the end of a game');
  // The review of this game: within the phone's width, in French throughout.
  await page.click('.review-link');
  await page.waitForSelector('.review-table tbody tr');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `the review is ${width} px wide on a ${phone.width} px phone`);
  await frenchOk(page, 'the review');
  // The chart has its axes named.
  const chartText = await page.$$eval('svg.review-chart text', (x) => x.map((e) => e.textContent));
  assert.ok(chartText.length >= 3, `axis labels: ${chartText.join(' | ')}`);
  await shot(page, 'review-phone-fr');
  // The analysis board at Kalah's start: house 3 is the book's proven move, as Teach me says.
  await page.goto(site.url + '/analysis');
  await page.waitForSelector('.move-values button');
  const three = await page.textContent('.move-values li:nth-child(3) button');
  assert.match(three, /^Case 3 : \+8 graines$/, three);
  await frenchOk(page, 'the analysis board');
  if (site.server) {
    await page.goto(site.url + '/top/congkak');
    await page.waitForSelector('.top');
    assert.ok(!(await page.$('table.leaderboard')) || (await page.$$('table.leaderboard tr')).length > 1, 'no empty table');
    await frenchOk(page, 'the leaderboard');
    await page.goto(site.url + '/daily/kalah');
    await page.waitForSelector('.daily-page .streak');
    await frenchOk(page, 'the daily challenge');
    const streaks = await page.$$eval('.streak', (s) => s.map((x) => x.textContent));
    assert.ok(streaks.length === 1, `one streak line: ${streaks.join(' / ')}`);
    const title = await page.textContent('.daily-page h1');
    assert.doesNotMatch(title, /\d{4}-\d{2}-\d{2}/, `a date in words: ${title}`);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('the replay buttons are worded for screen readers and drawn, in both languages', async () => {
  for (const [locale, words] of [['en-GB', /first move/i], ['fr-FR', /premier coup/i]]) {
    const { context, page } = await newPage(site.browser, { locale, viewport: phone });
    await page.goto(site.url + '/?local=kalah,houses=4,seeds=2');
    await page.waitForSelector('.house.legal');
    await playToEnd(page);
    await page.waitForSelector('.replay button');
    const buttons = await page.$$eval('.replay button', (b) => b.map((x) => ({ label: x.getAttribute('aria-label'), svg: Boolean(x.querySelector('svg')), text: x.textContent.trim() })));
    assert.equal(buttons.length, 4);
    for (const b of buttons) {
      assert.doesNotMatch(b.label ?? '', /^replay-|^$/, `a worded label: ${b.label}`);
      assert.ok(b.svg, `${b.label}: a drawn icon`);
      assert.equal(b.text, '', `${b.label}: no glyph a font may lack`);
    }
    assert.match(buttons[0].label, words);
    await page.click('.replay button >> nth=0');
    assert.match(await page.textContent('.replay-at'), /^0 \//);
    await context.close();
  }
});

// The relative luminance contrast of two CSS colours "rgb(r, g, b)".
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

async function colours(page) {
  return page.evaluate(() => {
    const body = getComputedStyle(document.body);
    const count = document.querySelector('.board .pit .count');
    const house = document.querySelector('.board .pit.house');
    return {
      bg: body.backgroundColor,
      fg: body.color,
      count: count ? getComputedStyle(count).color : null,
      countBg: count ? getComputedStyle(count).backgroundColor : null,
      house: house ? getComputedStyle(house).backgroundColor : null,
      theme: document.documentElement.dataset.theme,
      board: document.documentElement.dataset.board,
    };
  });
}

test('dark mode follows the system; the theme and board switches are remembered, readable in both', async () => {
  for (const [locale, viewport] of [['en-GB', phone], ['fr-FR', desk]]) {
    const { context, page } = await newPage(site.browser, { locale, viewport });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(site.url + '/?local=kalah');
    await page.waitForSelector('.house.legal');
    const light = await colours(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const dark = await colours(page);
    assert.notEqual(dark.bg, light.bg, 'the system’s dark scheme changes the page');
    assert.ok(contrast(dark.bg, 'rgb(0, 0, 0)') < contrast(light.bg, 'rgb(0, 0, 0)'), `dark background ${dark.bg}`);
    for (const c of [light, dark]) {
      assert.ok(contrast(c.fg, c.bg) >= 7, `text ${c.fg} on ${c.bg}`);
      const under = c.countBg && !/, 0\)$/.test(c.countBg) && c.countBg !== 'transparent' ? c.countBg : c.house;
      assert.ok(contrast(c.count, under) >= 4.5, `counts ${c.count} on ${under}`);
    }
    // The switch, under "Display": light though the system is dark, then after a reload.
    await page.click('.display-settings summary');
    await page.selectOption('#theme', 'light');
    const forced = await colours(page);
    assert.equal(forced.bg, light.bg);
    await page.selectOption('#board-theme', 'contrast');
    const high = await colours(page);
    assert.equal(high.board, 'contrast');
    assert.ok(contrast(high.count, high.countBg && !/, 0\)$/.test(high.countBg) ? high.countBg : high.house) >= 7, 'high contrast board');
    await page.reload();
    await page.waitForSelector('.house.legal');
    const again = await colours(page);
    assert.equal(again.bg, light.bg, 'the theme is remembered');
    assert.equal(again.board, 'contrast', 'the board theme is remembered');
    assert.equal(await page.inputValue('#theme'), 'light');
    await page.click('.display-settings summary');
    await page.selectOption('#theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForTimeout(100); // a change of the system's scheme would arrive as an event
    assert.equal((await colours(page)).bg, dark.bg, 'dark on request though the system is light');
    await shot(page, `theme-dark-${locale}`);
    if (locale === 'fr-FR') await frenchOk(page, 'the game page with its switches'); else await englishOk(page, 'the game page');
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test('the profile and its chart: games worded, the chart with its axes, no lone dot', async (t) => {
  if (!site.server) return t.skip('needs a server');
  for (const locale of ['en-GB', 'fr-FR']) {
    const { context, page } = await newPage(site.browser, { locale, viewport: phone });
    await page.goto(site.url + '/');
    const created = await page.request.post(site.url + '/api/games', { data: { rules: 'kalah,houses=4,seeds=2', mode: 'ai', level: 'easy', side: 'S' } });
    const { id } = await created.json();
    await page.goto(`${site.url}/g/${id}`);
    await page.waitForSelector('.house.legal[data-side="S"]');
    await page.click(`.confirm button:has-text("${locale === 'fr-FR' ? 'Abandonner' : 'Resign'}")`);
    await page.click('.confirm button.danger');
    await until('the game to end', async () => (await page.getAttribute('body', 'data-status')) === 'over');
    const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
    await page.goto(`${site.url}/p/${me.id}`);
    await page.waitForSelector('.played li[data-game]');
    const line = await page.textContent('.played li[data-game]');
    assert.doesNotMatch(line, /· [01½] ·|· [01½]$/, `an outcome in words: ${line}`);
    assert.match(line, locale === 'fr-FR' ? /perdue/ : /lost/, line);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= phone.width);
    if (locale === 'fr-FR') await frenchOk(page, 'a profile'); else await englishOk(page, 'a profile');
    await context.close();
  }
});

// Two members play a rated Kalah game, A resigning after a move each; `times` games in a row.
async function ratedGames(a, b, times) {
  for (let k = 0; k < times; ++k) {
    await a.goto(site.url + '/');
    await b.goto(site.url + '/');
    await a.waitForSelector('.club-lobby .counts');
    await a.check('#rated');
    await a.click('.quick-seek[data-game="kalah"][data-clock="∞"]');
    await a.waitForSelector('.pairing-status:has-text("adversaire")');
    await b.check('#rated');
    await b.click('.quick-seek[data-game="kalah"][data-clock="∞"]');
    await a.waitForURL(/\/g\//);
    await b.waitForURL(/\/g\//);
    for (let ply = 0; ply < 2; ++ply) {
      await until('a legal house', async () => (await a.$('.house.legal')) !== null || (await b.$('.house.legal')) !== null);
      const mover = (await a.$('.house.legal')) ? a : b;
      await mover.click('.house.legal');
      await mover.keyboard.press('s');
      await mover.waitForFunction(() => window.semisBoard && !window.semisBoard.busy);
    }
    await a.click('.confirm button:has-text("Abandonner")');
    await a.click('.confirm button.danger');
    await until('the game to end', async () => (await a.getAttribute('body', 'data-status')) === 'over');
    await a.waitForSelector('.rating-change', { timeout: 20000 });
  }
}

test('a rating history: one game said in words, then a chart with its axes and its period', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const a = await newPage(site.browser, { locale: 'fr-FR', viewport: phone, reducedMotion: 'reduce' });
  const b = await newPage(site.browser, { locale: 'fr-FR', viewport: phone, reducedMotion: 'reduce' });
  await signUp(a.page, unique('ria'));
  await signUp(b.page, unique('rob'));
  const me = await a.page.evaluate(() => fetch('/api/me').then((r) => r.json()));
  await ratedGames(a.page, b.page, 1);
  await a.page.goto(`${site.url}/p/${me.id}`);
  await a.page.waitForSelector('.rating-card[data-key="kalah"] .rating-history');
  const one = await a.page.textContent('.rating-card[data-key="kalah"] .rating-history');
  assert.match(one, /^Une seule partie classée pour l’instant : \d+ le \d{1,2} \p{L}+ \d{4}\.$/u, one);
  assert.ok(!(await a.page.$('.rating-card svg')), 'no lone dot');
  await frenchOk(a.page, 'a profile after one rated game');
  await ratedGames(a.page, b.page, 1);
  await a.page.goto(`${site.url}/p/${me.id}`);
  await a.page.waitForSelector('.rating-card[data-key="kalah"] svg.rating-chart');
  const ticks = await a.page.$$eval('.rating-card svg.rating-chart text', (x) => x.map((e) => e.textContent));
  // Two ratings and the period: the one day (both games today) or its first and last day.
  assert.ok(ticks.length === 3 || ticks.length === 4, `two ratings and the period: ${ticks.join(' | ')}`);
  assert.ok(Number(ticks[0]) > Number(ticks[1]), `the highest rating above the lowest: ${ticks.join(' | ')}`);
  assert.match(ticks[2], /^\d{1,2} \p{L}+ \d{4}$/u);
  assert.match(await a.page.textContent('.rating-card figcaption'), /^Classement après chaque partie classée, (le \d{1,2} \p{L}+ \d{4}|du .+ au .+)$/u);
  assert.ok((await a.page.evaluate(() => document.documentElement.scrollWidth)) <= phone.width);
  await shot(a.page, 'rating-history-fr');
  assert.deepEqual(a.page.errors, []);
  await a.context.close();
  await b.context.close();
});

test('the review of a game against the server’s computer fits a phone, the computer named in French', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: phone });
  await page.goto(site.url + '/');
  const created = await page.request.post(site.url + '/api/games', { data: { rules: 'kalah', mode: 'ai', level: 'easy', side: 'S' } });
  const { id } = await created.json();
  await page.goto(`${site.url}/g/${id}`);
  for (let i = 0; i < 200; ++i) {
    await page.waitForSelector('body[data-status="over"], .house.legal[data-side="S"]');
    if ((await page.getAttribute('body', 'data-status')) === 'over') break;
    await page.click('.house.legal[data-side="S"]');
    await page.waitForFunction(() => !document.querySelector('.house.legal[data-side="S"]') || document.body.dataset.status === 'over');
  }
  await page.goto(`${site.url}/review/${id}`);
  await page.waitForSelector('.review-table tbody tr', { timeout: 60000 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `the review is ${width} px wide on a ${phone.width} px phone`);
  const names = await page.$$eval('.review-table tbody tr td:nth-child(2)', (x) => [...new Set(x.map((e) => e.textContent))]);
  assert.ok(names.some((n) => n.startsWith('Ordinateur (Facile)')), names.join(' / '));
  await frenchOk(page, 'the review of a server game');
  await shot(page, 'review-server-phone-fr');
  assert.deepEqual(page.errors, []);
  await context.close();
});
