// A game is named with its options wherever the page names it from its rules text (the live list,
// the game page's title), in English and in French: a spectator must tell a Congkak of traditional
// rounds from a plain Congkak, a Kalah of 8 houses of 6 from the standard one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useSite } from './harness.mjs';

const site = useSite();

const games = [
  { rules: 'congkak,rounds=traditional', 'en-GB': 'Congkak · traditional rounds', 'fr-FR': 'Congkak · manches traditionnelles' },
  { rules: 'kalah,houses=8,seeds=6', 'en-GB': 'Kalah · 8 houses · 6 seeds', 'fr-FR': 'Kalah · 8 cases · 6 graines' },
  { rules: 'mangala,sets=3', 'en-GB': 'Mangala · 3 sets', 'fr-FR': 'Mangala · 3 manches' },
  // An option the page has no words for is named as written, not dropped.
  {
    rules: 'kalah,relay=true,capture=empty,end=on_turn',
    'en-GB': 'Kalah · relay=true · capture even facing an empty house · ends when the player to move has no seeds',
    'fr-FR': 'Kalah · relay=true · prise même face à une case vide · fin quand le joueur au trait n’a plus de graines',
  },
  { rules: 'kalah', 'en-GB': 'Kalah', 'fr-FR': 'Kalah' },
];

// The home page's line for a game, once the live list has it (a reload fetches the list again:
// a game is listed once its player's page has connected).
async function liveLine(page, id) {
  for (let i = 0; i < 40; ++i) {
    await page.goto(site.url + '/');
    const link = await page.waitForSelector(`.live a[href="/g/${id}"]`, { timeout: 500 }).catch(() => null);
    if (link) return link.textContent();
    await page.waitForTimeout(250);
  }
  assert.fail(`game ${id} never reached the live list`);
}

test('the live list and the game page name each game with its options, in English and in French', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const player = await newPage(site.browser);
  for (const g of games) {
    const made = await player.page.request.post(site.url + '/api/games', { data: { rules: g.rules, mode: 'ai', level: 'easy', side: 'S' } });
    assert.equal(made.status(), 200, await made.text());
    g.id = (await made.json()).id;
    // Someone at the board: the game is being played, so it is listed.
    const page = await player.context.newPage();
    await page.goto(`${site.url}/g/${g.id}`);
    await page.waitForSelector('.house.legal');
    assert.equal(await page.textContent('h1.game-title'), g['en-GB']);
    assert.equal(await page.title(), `${g['en-GB']} · Semis`);
  }
  for (const locale of ['en-GB', 'fr-FR']) {
    const { context, page } = await newPage(site.browser, { locale });
    for (const g of games) {
      const line = await liveLine(page, g.id);
      // "Congkak · traditional rounds · Ada – Computer (Easy) · 0 moves"
      assert.ok(line.startsWith(`${g[locale]} · `), `${locale}: "${line}" should begin with "${g[locale]} · "`);
      assert.ok(!line.startsWith(`${g[locale]} · ${g[locale]}`), line);
    }
    // The game page of a spectator, in his language.
    await page.goto(`${site.url}/g/${games[1].id}`);
    await page.waitForSelector('.board .pit');
    assert.equal(await page.textContent('h1.game-title'), games[1][locale]);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
  assert.deepEqual(player.page.errors, []);
  await player.context.close();
});

test('the open seeks name the game with its options, in English and in French', async (t) => {
  if (!site.server) return t.skip('needs a server');
  // A seek of Kalah on 8 houses of 6, sent as the lobby's form sends one (lobby-options.test.mjs
  // opens one from the form), on a socket kept open in the seeker's page.
  const seeker = await newPage(site.browser);
  await seeker.page.goto(site.url + '/');
  await seeker.page.evaluate(() => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    window.seekSocket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'seek', rules: 'kalah,houses=8,seeds=6', clock: null, rated: false, quick: false, range: 0 }));
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === 'seeking') resolve();
      if (msg.type === 'error') reject(new Error(m.data));
    };
  }));
  for (const locale of ['en-GB', 'fr-FR']) {
    const { context, page } = await newPage(site.browser, { locale });
    await page.goto(site.url + '/');
    const line = page.locator('.seeks li[data-seek]').first();  // (a locator: the list redraws)
    await line.waitFor();
    const text = await line.textContent();
    const name = games[1][locale];
    assert.ok(text.includes(` · ${name} · `), `${locale}: "${text}" should name "${name}"`);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
  await seeker.context.close();
});

test('on a phone a title with options fits in two lines and leaves the rules button on the screen', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', viewport: { width: 390, height: 844 }, touch: true });
  for (const g of [games[1], games[3]]) {
    const made = await page.request.post(site.url + '/api/games', { data: { rules: g.rules, mode: 'ai', level: 'easy', side: 'S' } });
    assert.equal(made.status(), 200, await made.text());
    await page.goto(`${site.url}/g/${(await made.json()).id}`);
    await page.waitForSelector('.house.legal');
    const head = await page.evaluate(() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      const title = document.querySelector('h1.game-title');
      return { width: innerWidth, rules: box('.game-head .rules-link').right, back: box('.game-head .back').right,
        whole: title.scrollHeight <= title.clientHeight + 1 && title.scrollWidth <= title.clientWidth + 1 };
    });
    assert.ok(head.rules <= head.width, `${g.rules}: the rules button ends at ${head.rules} px, past ${head.width}`);
    assert.ok(head.back <= head.width, g.rules);
    // "Kalah · 8 cases · 6 graines" whole, on two lines; the longest title may be cut at two.
    if (g === games[1]) assert.ok(head.whole, `${g.rules}: the title is cut`);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});
