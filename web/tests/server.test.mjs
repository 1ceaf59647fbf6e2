// Browser tests through a server: the computer, a friend through the share link with a spectator,
// reload and reconnect mid-game, and that an illegal click never sends a move.
// Against the real `semis serve` (SEMIS_BIN, SEMIS_URL, or this checkout's build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, litHint, newPage, shot, useSite } from './harness.mjs';
import { chooseKalahAt, gameId, pitsOf, playFirstLegal, recordFrames, shareFriendGame, stateAt, until } from './play.mjs';

const site = useSite();

const sum = (a) => a.reduce((x, y) => x + y, 0);

// Keeps the messages a page sends on its WebSocket: its moves, and every type sent.
async function spySends(context) {
  await context.addInitScript(() => {
    window.__moves = [];
    window.__sent = [];
    // A hint asked while the last one is still unanswered (the page must not do that).
    window.__hintAnswers = 0;
    window.__hintOverlaps = 0;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (!this.__spied) {
        this.__spied = true;
        this.addEventListener('message', (e) => {
          try {
            const t = JSON.parse(e.data).type;
            if (t === 'hint' || t === 'error') window.__hintAnswers += 1;
          } catch {
            /* not JSON */
          }
        });
      }
      try {
        const m = JSON.parse(data);
        window.__sent.push(m.type);
        if (m.type === 'move') window.__moves.push(m);
        if (m.type === 'hint' && window.__sent.filter((x) => x === 'hint').length - 1 > window.__hintAnswers) window.__hintOverlaps += 1;
      } catch {
        /* not JSON */
      }
      return send.call(this, data);
    };
  });
}

// The game as the server has it, and the kalah setup on the home page, on this site.
const serverState = (id) => stateAt(site.url, id);
const chooseKalah = (page, houses, seeds) => chooseKalahAt(page, site.url, houses, seeds);

test('a whole game against the computer, through the server', { skip: !process.env.SEMIS_PREVIEW ? false : 'no server' }, async () => {
  const { context, page } = await newPage(site.browser);
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
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  if (process.env.DEBUG_WS) b.page.on('websocket', (ws) => { ws.on('framesent', (f) => console.log('B>', f.payload)); ws.on('framereceived', (f) => console.log('B<', String(f.payload).slice(0, 160))); });
  const c = await newPage(site.browser);
  await spySends(a.context);
  await spySends(b.context);
  const bFrames = recordFrames(b.page);
  const link = await shareFriendGame(a.page, site.url, 6, 4, '5+3');
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
  const initial = await counts(a.page);
  await a.page.click('.house[data-side="N"][data-house="1"]', { force: true });
  assert.equal(await a.page.evaluate(() => window.__moves.length), 0);
  // South to move: B's own house 2 has seeds but is not his to play now. The page offers it as
  // not playable, sends nothing when clicked, and the board stays as it was.
  await b.page.waitForSelector('.board .house');
  assert.equal(await b.page.getAttribute('body', 'data-to-move'), 'S');
  assert.equal(await b.page.getAttribute('.house[data-side="N"][data-house="2"]', 'aria-disabled'), 'true');
  assert.equal(await b.page.$('.house.legal'), null);
  await b.page.click('.house[data-side="N"][data-house="2"]', { force: true });
  assert.equal(await b.page.evaluate(() => window.__moves.length), 0, 'no move message from B out of turn');
  assert.deepEqual(await counts(b.page), initial);
  // The server refuses it too: the same move sent by hand is answered not_your_turn and changes nothing.
  await b.page.evaluate((game) => window.semisConnection.send({ type: 'move', game, id: 'out-of-turn', house: 2 }), gameId(link));
  await until('not_your_turn for B', () => bFrames.some((f) => f.type === 'error' && f.id === 'out-of-turn' && f.code === 'not_your_turn'));
  const untouched = await serverState(gameId(link));
  assert.equal(untouched.plies.length, 0);
  assert.deepEqual(pitsOf(untouched), initial);
  await idle(b.page);
  assert.deepEqual(await counts(b.page), initial);
  assert.equal(await b.page.getAttribute('body', 'data-plies'), '0');

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
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  const frames = [recordFrames(a.page), recordFrames(b.page)];
  await chooseKalah(a.page, 6, 4);
  await a.page.selectOption('#side', 'S');
  await a.page.click('.mode.friend');
  await a.page.waitForSelector('.share:not([hidden]) input.link');
  const link = await a.page.inputValue('.share input.link');
  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  await a.page.waitForSelector('.house.legal');
  await a.page.click('.house.legal[data-house="1"]');
  await b.page.waitForFunction(() => document.body.dataset.plies === '1');
  await idle(b.page);
  const before = await counts(b.page);
  for (const p of [a.page, b.page]) {
    await p.evaluate(() => {
      window.__stillHere = true;
      window.__wentOffline = false;
      new MutationObserver(() => {
        if (document.body.dataset.online === '0') window.__wentOffline = true;
      }).observe(document.body, { attributes: true });
    });
  }
  const opened = frames.map((f) => f.filter((x) => x.type === '_open').length);
  const marks = frames.map((f) => f.length);
  await site.restart();
  // Each page noticed the server going away, opened a new connection to the new server and was
  // sent the game again by it; no page was reloaded.
  for (const [i, p] of [a.page, b.page].entries()) {
    await until(`page ${i} reconnects`, () => frames[i].filter((x) => x.type === '_open').length > opened[i]);
    await until(`page ${i} gets the game from the new server`, () => frames[i].slice(marks[i]).some((x) => x.type === 'state' || x.type === 'caught_up'));
    await p.waitForFunction(() => document.body.dataset.online === '1', null, { timeout: 15000 });
    assert.equal(await p.evaluate(() => window.__wentOffline), true, 'the page saw the connection drop');
    assert.equal(await p.evaluate(() => window.__stillHere), true, 'no reload');
  }
  // The restarted server has the game as it was, and the pages show what it has.
  const after = await serverState(gameId(link));
  assert.equal(after.plies.length, 1);
  assert.deepEqual(pitsOf(after), before);
  for (const p of [a.page, b.page]) {
    await idle(p);
    assert.deepEqual(await counts(p), before);
  }
  await b.page.waitForSelector('.house.legal');
  await b.page.click('.house.legal >> nth=0');
  await a.page.waitForFunction(() => document.body.dataset.plies === '2', null, { timeout: 10000 });
  await idle(a.page);
  await idle(b.page);
  const played = await serverState(gameId(link));
  assert.equal(played.plies.length, 2);
  assert.deepEqual(await counts(a.page), pitsOf(played));
  assert.deepEqual(await counts(b.page), pitsOf(played));
  for (const p of [a.page, b.page]) assert.deepEqual(p.errors, []);
  await a.context.close();
  await b.context.close();
});

// One click on South's house 1 of game `id`: the move is in the record, once, both pages show it,
// North may move, and nothing went wrong on either page (which are closed).
async function playedOnceAndShown(a, b, id) {
  await until('the move in the record', async () => (await serverState(id)).plies.length === 1, 15000);
  for (const p of [a.page, b.page]) await p.waitForFunction(() => document.body.dataset.plies === '1', null, { timeout: 10000 });
  await b.page.waitForSelector('.house.legal');
  const played = await serverState(id);
  assert.equal(played.plies.length, 1);
  assert.equal(played.plies[0].move, 1);
  for (const p of [a.page, b.page]) {
    await idle(p);
    assert.deepEqual(await counts(p), pitsOf(played));
    assert.deepEqual(p.errors, []);
  }
  await a.context.close();
  await b.context.close();
}

test('a move whose connection dies before the server reads it is sent again on the next one and played once', async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  // Page a's socket loses its first move and dies with it, as when its server is killed while the
  // page still thinks the connection open; its next sockets pass everything.
  let lost = 0;
  await a.page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (lost === 0 && JSON.parse(String(m)).type === 'move') {
        lost += 1;
        server.close();
        ws.close({ code: 1011 });
        return;
      }
      server.send(m);
    });
    server.onMessage((m) => ws.send(m));
  });
  const link = await shareFriendGame(a.page, site.url, 6, 4);
  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  await a.page.waitForSelector('.house.legal');
  await a.page.click('.house.legal[data-house="1"]');
  await playedOnceAndShown(a, b, gameId(link));
  assert.equal(lost, 1, 'the first send was lost');
});

test('a click while the connection is closing is played once the page has reconnected', async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  const link = await shareFriendGame(a.page, site.url, 6, 4);
  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  await a.page.waitForSelector('.house.legal');
  await idle(a.page);
  // The socket starts closing (as when its server has just gone) and the player clicks before the
  // page has noticed.
  await a.page.evaluate(() => {
    window.semisConnection.drop();
    document.querySelector('.house.legal[data-house="1"]').click();
  });
  await playedOnceAndShown(a, b, gameId(link));
});

// The clocks each page shows, in milliseconds (data-ms) and as text.
async function shownClocks(page) {
  return page.evaluate(() => {
    const out = {};
    for (const c of document.querySelectorAll('.player .clock')) out[c.dataset.side] = { ms: Number(c.dataset.ms), text: c.textContent };
    return out;
  });
}

const clockText = (ms) => {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

test('clocks: two players and a spectator see the server’s times; only the side to move runs; they stop at the end', async () => {
  const a = await newPage(site.browser);
  const b = await newPage(site.browser);
  const c = await newPage(site.browser);
  const link = await shareFriendGame(a.page, site.url, 6, 4, '5+3');
  const id = gameId(link);
  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  await c.page.goto(link);
  await c.page.waitForSelector('.board .house');
  assert.match(await c.page.textContent('.status'), /watching/);
  const pages = { A: a.page, B: b.page, spectator: c.page };

  // Every page shows both clocks within about a second of the server's (a correctness check: a
  // page that keeps an old value or counts the wrong side is off by the seconds played or the increment).
  const agree = async (when) => {
    const [server, ...shown] = await Promise.all([serverState(id), ...Object.values(pages).map(shownClocks)]);
    assert.ok(server.clock, 'a clocked game');
    for (const [i, who] of Object.keys(pages).entries()) {
      for (const side of ['S', 'N']) {
        const v = shown[i][side];
        assert.ok(Number.isFinite(v?.ms), `${when}: ${who} shows a ${side} clock`);
        assert.ok(Math.abs(v.ms - server.clock[side]) <= 1000, `${when}: ${who} shows ${side} ${v.ms} ms, the server has ${server.clock[side]} ms`);
        assert.equal(v.text, clockText(v.ms));
      }
    }
    return server;
  };
  // Plays after thinking a while, then waits until every page has the move.
  const play = async (p) => {
    await p.waitForSelector('.house.legal');
    await idle(p);
    await p.waitForTimeout(1500);
    const plies = Number(await p.getAttribute('body', 'data-plies'));
    await playFirstLegal(p);
    for (const w of Object.values(pages)) {
      await w.waitForFunction((n) => Number(document.body.dataset.plies) > n, plies);
      await idle(w);
    }
  };
  const mover = async () => ((await c.page.getAttribute('body', 'data-to-move')) === 'S' ? a.page : b.page);

  await a.page.waitForFunction(() => document.body.dataset.status === 'playing');
  const start = await agree('at the start');
  assert.equal(start.clock.running, true);
  for (let i = 0; i < 4; ++i) {
    await play(await mover());
    const s = await agree(`after move ${i + 1}`);
    assert.equal(s.plies.length, i + 1);
  }
  // Between messages only the side to move counts down, on every page.
  const toMove = await c.page.getAttribute('body', 'data-to-move');
  const waiting = toMove === 'S' ? 'N' : 'S';
  const first = await Promise.all(Object.values(pages).map(shownClocks));
  await a.page.waitForTimeout(1200);
  const second = await Promise.all(Object.values(pages).map(shownClocks));
  for (const [i, who] of Object.keys(pages).entries()) {
    assert.equal(second[i][waiting].ms, first[i][waiting].ms, `${who}: ${waiting}'s clock waits`);
    assert.ok(first[i][toMove].ms - second[i][toMove].ms >= 1000, `${who}: ${toMove}'s clock runs`);
  }
  await agree('while thinking');
  // A resigns: the server stops the clocks and so does every page.
  // (Resign asks first: a stray tap ends no game.)
  await a.page.click('.extras button:has-text("Resign")');
  await a.page.click('.extras button:has-text("Resign: sure?")');
  for (const p of Object.values(pages)) await p.waitForSelector('.status.over');
  const end = await agree('at the end');
  assert.equal(end.clock.running, false);
  const stopped = await Promise.all(Object.values(pages).map(shownClocks));
  await a.page.waitForTimeout(1200);
  assert.deepEqual(await Promise.all(Object.values(pages).map(shownClocks)), stopped);
  for (const p of Object.values(pages)) assert.deepEqual(p.errors, []);
  for (const x of [a, b, c]) await x.context.close();
});

// The server's reasons in French (src/i18n.ts words every code of docs/protocol.md).
const frenchReasons = [
  /^finit dans votre grenier : vous rejouez$/,
  /^prend \d+ graines?$/,
  /^met à l’abri votre case de \d+ graines$/,
  /^empêche une prise de \d+ graines$/,
  /^ne laisse pas l’adversaire rejouer$/,
  /^nourrit l’adversaire, comme la règle l’exige$/,
  /^la recherche l’estime la meilleure$/,
];

test('Teach me asks the server: a legal house lit, its reasons in French, five asks without an error', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR', reducedMotion: 'reduce' });
  await spySends(context);
  const frames = recordFrames(page);
  await chooseKalah(page, 6, 4);
  await page.selectOption('#level', 'easy');
  await page.selectOption('#side', 'S');
  await page.click('.mode.computer');
  await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/);
  const id = gameId(page.url());
  await page.waitForSelector('.house.legal');
  await idle(page);
  await page.evaluate(() => {
    window.__banners = [];
    window.__offline = false;
    window.__disabled = 0;
    const banner = document.querySelector('.banner');
    new MutationObserver(() => {
      if (banner.classList.contains('show')) window.__banners.push(banner.textContent);
    }).observe(banner, { attributes: true, childList: true, characterData: true, subtree: true });
    new MutationObserver(() => {
      if (document.body.dataset.online === '0') window.__offline = true;
    }).observe(document.body, { attributes: true });
    const teach = document.querySelector('button.teach');
    new MutationObserver(() => {
      if (teach.disabled) window.__disabled += 1;
    }).observe(teach, { attributes: true, attributeFilter: ['disabled'] });
  });
  const legal = (await serverState(id)).legal;
  const answers = () => frames.filter((f) => f.type === 'hint' || f.type === 'error');
  for (let i = 1; i <= 5; ++i) {
    await page.click('button.teach');
    await until(`answer ${i}`, () => answers().length >= i);
    assert.equal(answers()[i - 1].type, 'hint', `the server's answer: ${JSON.stringify(answers()[i - 1])}`);
    await page.waitForFunction(() => !document.querySelector('button.teach').disabled);
    assert.equal(await page.evaluate(() => window.__disabled), i, 'the button waits for the answer');
    const lit = await litHint(page);
    assert.equal(lit.count, 1);
    assert.equal(lit.side, 'S');
    assert.ok(legal.includes(lit.house), `house ${lit.house} is legal: ${legal}`);
    assert.ok(lit.legal);
    assert.equal(lit.badge, 'Conseil');
    assert.ok(lit.badgeShown);
    assert.match(lit.outline, /^solid [3-9]/);
    assert.match(lit.label, /, conseillée$/);
    const m = /^Case (\d+) : (.+?)\.(?: Verdict du moteur : (avec le meilleur jeu, vous l’emportez de \d+ graines?|avec le meilleur jeu, la partie est nulle|avec votre meilleure défense, vous perdez de \d+ graines? au plus|vous devriez finir avec environ \d+ graines? d’(?:avance|retard) \(estimation\)|à peu près à égalité)[^.]*\.)?$/.exec(lit.text);
    assert.ok(m, `the hint in French: ${lit.text}`);
    assert.equal(Number(m[1]), lit.house);
    for (const r of m[2].split(' ; ')) assert.ok(frenchReasons.some((re) => re.test(r)), `a reason in French: ${r}`);
  }
  // H five times in a row: never a second question while one is unanswered.
  for (let i = 0; i < 5; ++i) await page.keyboard.press('h');
  const asked = await page.evaluate(() => window.__sent.filter((x) => x === 'hint').length);
  assert.ok(asked >= 6 && asked <= 10, `${asked} hints asked`);
  await until('every answer', () => answers().length >= asked);
  await page.waitForFunction(() => !document.querySelector('button.teach').disabled);
  assert.equal(await page.evaluate(() => window.__hintOverlaps), 0, 'one question at a time');
  await litHint(page);
  const got = answers();
  assert.equal(got.length, asked);
  assert.ok(got.every((f) => f.type === 'hint'), JSON.stringify(got));
  for (const h of got) assert.ok(legal.includes(h.house));
  assert.equal(frames.filter((f) => f.type === '_close').length, 0, 'the connection stays open');
  assert.equal(await page.evaluate(() => window.__offline), false);
  assert.deepEqual(await page.evaluate(() => window.__banners), [], 'no error banner');
  assert.deepEqual(page.errors, []);
  await context.close();
});
