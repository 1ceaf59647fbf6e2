// Bots' tournaments and leaderboard on the page (docs/bots.md, "Matches and tournaments"), against
// the real server: bots written here play over the WebSocket /kgp; a member starts a round robin of
// three of them; its page shows the table as the server counts it (in English and in French, on a
// desk and on a phone, no table wider than the screen), and the bots' leaderboard lists them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, signUp, useSite } from './harness.mjs';

const site = useSite();

const unique = (stem) => `${stem}${Math.floor(Math.random() * 1e6)}`;
const noServer = () => (process.env.SEMIS_PREVIEW ? 'no server' : false);

// Bots that answer each `state` at once with their first house holding seeds, then `yield`: run
// in a page of their own (Node 20 has no WebSocket), over the WebSocket /kgp.
async function playingBots(page, tokens) {
  await page.goto(site.url + '/');
  await page.evaluate((all) => {
    window.bots = all.map((token) => {
      const ws = new WebSocket(location.origin.replace('http', 'ws') + '/kgp');
      let buffer = '';
      const send = (line) => ws.send(line + '\n');
      ws.addEventListener('open', () => {
        send('set auth:token ' + token);
        send('mode freeplay');
      });
      ws.addEventListener('message', (ev) => {
        buffer += String(ev.data);
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          const m = /^(\d+)(?:@\d+)?\s+(\w+)\s*(.*)$/.exec(line);
          if (!m) continue;
          if (m[2] === 'ping') send(`@${m[1]} pong`);
          if (m[2] !== 'state') continue;
          const board = (/<([^>]*)>/.exec(m[3])?.[1] ?? '').split(',').map(Number);
          let house = 1;
          for (let k = 1; k <= board[0]; ++k) {
            if (board[2 + k] > 0) {
              house = k;
              break;
            }
          }
          send(`@${m[1]} move ${house}`);
          send(`@${m[1]} yield`);
        }
      });
      return ws;
    });
  }, tokens);
}

const call = (page, method, path, body) =>
  page.evaluate(async ([m, p, b]) => {
    const r = await fetch(p, { method: m, headers: { 'content-type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    return { status: r.status, body: await r.json() };
  }, [method, path, body]);

test('a round robin of three bots: its table on the page, in English and French, desk and phone', { skip: noServer() }, async () => {
  const { context, page } = await newPage(site.browser);
  await signUp(page, site.url, unique('owner'));
  const bots = [];
  for (const stem of ['Ada', 'Bea', 'Cy']) {
    const made = await call(page, 'POST', '/api/bots', { name: unique(stem) });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    bots.push(made.body);
  }
  const botPage = await context.newPage();
  await playingBots(botPage, bots.map((b) => b.token));
  try {
    // Connected: listed online.
    let online = false;
    for (let i = 0; i < 50 && !online; ++i) {
      const list = (await call(page, 'GET', '/api/bots/online')).body.bots;
      online = bots.every((b) => list.some((o) => o.name === b.name));
      if (!online) await page.waitForTimeout(100);
    }
    assert.ok(online, 'the three bots are connected');
    const started = await call(page, 'POST', '/api/bots/tournaments', { name: 'Spring cup', rules: 'kalah,houses=4,seeds=3', bots: bots.map((b) => b.name) });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const id = started.body.id;

    await page.goto(`${site.url}/bots/tournaments/${id}`);
    await page.waitForSelector('.contest-page h1:text("Spring cup")');
    // Refreshed while it runs, until it is over.
    await page.waitForSelector('.contest-status.over:text("Finished")', { timeout: 30000 });
    const server = (await call(page, 'GET', `/api/bots/tournaments/${id}`)).body;
    const rows = await page.$$eval('.contest-table tr', (trs) => trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    assert.equal(rows.length, 3);
    rows.forEach((cells, i) => {
      const line = server.table[i];
      assert.equal(cells[1], line.name);
      assert.equal(Number(cells[2]), line.points);
      assert.deepEqual(cells.slice(3).map(Number), [line.games, line.wins, line.draws, line.losses, line.seeds_for, line.seeds_against]);
    });
    assert.equal(await page.locator('.contest-game').count(), 6, 'every pair, both sides');
    assert.ok(server.games.every((g) => g.game && g.reason !== 'absent'), JSON.stringify(server.games));
    assert.equal(await page.locator('.contest-game a:text("watch")').count(), 6);
    await shot(page, 'contest-table-desk');

    // The list of tournaments names it; the bots' leaderboard of the board lists the three.
    await page.click('.contest-nav a:text("Tournaments")');
    await page.waitForSelector(`.contest-line a:text("Spring cup")`);
    await page.goto(`${site.url}/bots/top/bots-kalah-4x3`);
    for (const b of bots) await page.waitForSelector(`.bots-board td a:text("${b.name}")`, { timeout: 10000 });
    assert.equal(await page.inputValue('.board-size select >> nth=0'), '4');
    await page.selectOption('.board-size select >> nth=1', '5');
    await page.waitForURL(/bots-kalah-4x5$/);
    await page.waitForSelector('.empty-board');

    // French, on a phone: the words are French, and the table scrolls inside its box.
    const phone = await newPage(site.browser, { locale: 'fr-FR', viewport: { width: 360, height: 740 }, touch: true });
    await phone.context.addInitScript(() => localStorage.setItem('semis.lang', 'fr'));
    await phone.page.goto(`${site.url}/bots/tournaments/${id}`);
    await phone.page.waitForSelector('.contest-status.over:text("Terminé")');
    await phone.page.waitForSelector('.contest-table th:text("Graines pour")');
    const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(wide, false, 'the page is no wider than the phone');
    await shot(phone.page, 'contest-table-phone-fr');
    assert.deepEqual(phone.page.errors, []);
    await phone.context.close();
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});
