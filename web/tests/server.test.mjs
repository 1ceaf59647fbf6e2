// Browser tests through a server: the computer, a friend through the share link with a spectator,
// reload and reconnect mid-game, and that an illegal click never sends a move.
// Against the real `semis serve` (SEMIS_BIN, SEMIS_URL, or this checkout's build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, launch, newPage, shot, startSite } from './harness.mjs';

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.stop();
});

const sum = (a) => a.reduce((x, y) => x + y, 0);

// Counts the move messages a page sends on its WebSocket.
async function spySends(context) {
  await context.addInitScript(() => {
    window.__moves = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      try {
        const m = JSON.parse(data);
        if (m.type === 'move') window.__moves.push(m);
      } catch {
        /* not JSON */
      }
      return send.call(this, data);
    };
  });
}

async function chooseKalah(page, houses, seeds) {
  await page.goto(site.url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  await page.selectOption('#opt-houses', String(houses));
  await page.selectOption('#opt-seeds', String(seeds));
}

async function playFirstLegal(page) {
  const h = await page.getAttribute('.house.legal', 'data-house');
  const side = await page.getAttribute('.house.legal', 'data-side');
  await page.click(`.house.legal[data-side="${side}"][data-house="${h}"]`);
  return h;
}

test('a whole game against the computer, through the server', { skip: !process.env.SEMIS_PREVIEW ? false : 'no server' }, async () => {
  const { context, page } = await newPage(browser);
  await chooseKalah(page, 4, 3);
  await page.selectOption('#level', 'easy');
  await page.selectOption('#side', 'S');
  await page.click('.mode.computer');
  await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/);
  await page.waitForSelector('.board .house');
  for (let i = 0; i < 300; ++i) {
    if ((await page.getAttribute('body', 'data-status')) === 'over') break;
    await idle(page);
    if ((await page.$('.house.legal')) && !(await page.evaluate(() => window.semisBoard.busy))) await playFirstLegal(page).catch(() => {});
    await page.waitForTimeout(60);
  }
  await page.waitForSelector('.status.over', { timeout: 15000 });
  await idle(page);
  assert.match(await page.textContent('.status'), /Result: (Draw|You win|.* wins) \d+–\d+/);
  const c = await counts(page);
  assert.equal(sum(c), 24);
  assert.equal(c[4] + c[9], 24);
  assert.match(await page.textContent('.player.top .name'), /Computer/);
  await shot(page, 'server-ai-over');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('friends play through the share link while a third watches; reload and reconnect mid-game', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  if (process.env.DEBUG_WS) b.page.on('websocket', (ws) => { ws.on('framesent', (f) => console.log('B>', f.payload)); ws.on('framereceived', (f) => console.log('B<', String(f.payload).slice(0, 160))); });
  const c = await newPage(browser);
  await spySends(a.context);
  await chooseKalah(a.page, 6, 4);
  await a.page.selectOption('#side', 'S');
  await a.page.selectOption('#clock', '5+3');
  await a.page.click('.mode.friend');
  await a.page.waitForSelector('.share:not([hidden]) input.link');
  const link = await a.page.inputValue('.share input.link');
  assert.match(link, /\/g\/[A-Za-z0-9_-]+$/);
  await shot(a.page, 'friend-waiting');

  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  await a.page.waitForSelector('.share[hidden]', { state: 'attached' });
  // The third finds the game in the home page's live list.
  const path = new URL(link).pathname;
  await c.page.goto(site.url + '/');
  await c.page.waitForSelector(`.live a[href="${path}"]`);
  await c.page.click(`.live a[href="${path}"]`);
  await c.page.waitForSelector('.board .house');
  assert.match(await c.page.textContent('.status'), /watching/);
  // Both clocks are shown, five minutes each.
  await a.page.waitForFunction(() => [...document.querySelectorAll('.player .clock')].every((c) => /^[0-5]:\d\d$/.test(c.textContent)));
  // B sits North: his own row is at the bottom of his screen.
  assert.equal(await b.page.getAttribute('.player.bottom', 'data-side'), 'N');

  // An illegal click sends nothing: North's house on A's screen, and B clicking out of turn.
  await a.page.waitForSelector('.house.legal[data-side="S"]');
  await a.page.click('.house[data-side="N"][data-house="1"]', { force: true });
  assert.equal(await a.page.evaluate(() => window.__moves.length), 0);
  await b.page.click('.house[data-side="N"][data-house="2"]', { force: true });

  const same = async () => {
    for (const p of [a.page, b.page, c.page]) await idle(p);
    const [x, y, z] = [await counts(a.page), await counts(b.page), await counts(c.page)];
    assert.deepEqual(y, x);
    assert.deepEqual(z, x);
    assert.equal(sum(x), 48);
    return x;
  };
  // Plays the first legal house and waits until every connected page has shown the move.
  const turn = async (p, watchers = [a.page, b.page, c.page]) => {
    await p.waitForSelector('.house.legal');
    await idle(p);
    const plies = Number(await p.getAttribute('body', 'data-plies'));
    await playFirstLegal(p);
    for (const w of watchers) {
      await w.waitForFunction((n) => Number(document.body.dataset.plies) > n, plies);
      await idle(w);
    }
  };
  const mover = async () => ((await b.page.getAttribute('body', 'data-to-move')) === 'S' ? a.page : b.page);

  await turn(a.page);
  await turn(await mover());
  const mid = await same();
  assert.equal(await a.page.evaluate(() => window.__moves.length) >= 1, true);

  // Reload: the same seat (cookie), the same board.
  await b.page.reload();
  await b.page.waitForSelector('.board .house');
  await idle(b.page);
  assert.deepEqual(await counts(b.page), mid);
  assert.equal(await b.page.getAttribute('.player.bottom', 'data-side'), 'N');

  // A loses the connection while North moves; A comes back by itself, without a reload, and
  // catches up on the missed move.
  for (let i = 0; i < 20 && (await mover()) === a.page && (await a.page.getAttribute('body', 'data-status')) === 'playing'; ++i) {
    await turn(a.page);
  }
  await same();
  await a.page.evaluate(() => {
    window.__stillHere = true;
    new MutationObserver(() => {
      if (document.body.dataset.online === '0') window.__wentOffline = true;
    }).observe(document.body, { attributes: true });
    window.semisConnection.drop();
  });
  assert.equal(await b.page.getAttribute('body', 'data-status'), 'playing');
  const beforeMiss = await counts(b.page);
  await turn(b.page, [b.page, c.page]);
  await idle(b.page);
  assert.notDeepEqual(await counts(b.page), beforeMiss);
  const plies = await b.page.getAttribute('body', 'data-plies');
  await a.page.waitForFunction((n) => document.body.dataset.online === '1' && document.body.dataset.plies === n, plies, { timeout: 10000 });
  assert.equal(await a.page.evaluate(() => window.__wentOffline), true);
  await same();
  assert.equal(await a.page.evaluate(() => window.__stillHere), true);
  await shot(c.page, 'spectator');
  // A offers a draw; B is asked and accepts; everyone sees the result.
  await a.page.click('.extras button:has-text("Offer a draw")');
  await b.page.waitForSelector('.extras .offer');
  assert.match(await b.page.textContent('.extras .offer'), /offers a draw/);
  await b.page.click('.extras button:has-text("Accept")');
  for (const p of [a.page, b.page, c.page]) {
    await p.waitForSelector('.status.over');
    assert.match(await p.textContent('.status'), /Result: Draw/);
  }
  for (const p of [a.page, b.page, c.page]) assert.deepEqual(p.errors, []);
  for (const x of [a, b, c]) await x.context.close();
});

test('the server restarts mid-game: both players reconnect by themselves and play on', async (t) => {
  if (!site.restart) return t.skip('needs the real server (SEMIS_BIN)');
  const a = await newPage(browser);
  const b = await newPage(browser);
  await chooseKalah(a.page, 6, 4);
  await a.page.selectOption('#side', 'S');
  await a.page.click('.mode.friend');
  await a.page.waitForSelector('.share:not([hidden]) input.link');
  await b.page.goto(await a.page.inputValue('.share input.link'));
  await b.page.waitForSelector('.board .house');
  await a.page.waitForSelector('.house.legal');
  await a.page.click('.house.legal[data-house="1"]');
  await b.page.waitForFunction(() => document.body.dataset.plies === '1');
  await idle(b.page);
  const before = await counts(b.page);
  await site.restart();
  for (const p of [a.page, b.page]) {
    await p.waitForFunction(() => document.body.dataset.online === '1', null, { timeout: 15000 });
    assert.deepEqual(await counts(p), before);
  }
  await b.page.waitForSelector('.house.legal');
  await b.page.click('.house.legal >> nth=0');
  await a.page.waitForFunction(() => document.body.dataset.plies === '2', null, { timeout: 10000 });
  await idle(a.page);
  await idle(b.page);
  assert.deepEqual(await counts(a.page), await counts(b.page));
  for (const p of [a.page, b.page]) assert.deepEqual(p.errors, []);
  await a.context.close();
  await b.context.close();
});
