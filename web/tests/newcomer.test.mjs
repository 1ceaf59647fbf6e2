// A newcomer's first minutes (issue 22), on a 390x844 phone and a 1366x768 desk, in English and
// French: a server Mangala match against the computer set by set to its end with the move list
// right at every ply and each set's result between the sets; one tap from a game card to a game; the
// phone game page within one screen; a guest's claim code on a phone; only the actions the state
// allows (no abort once both sides moved, no "Teach me" for a spectator).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idle, newPage, shot, useSite } from './harness.mjs';

const site = useSite();

const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 768 };
// (the desk plays a match of three sets, and the phone, a whole match, without motion (as a visitor
// may ask his system): both to keep the run short; the computer's sowings are animated on the desk)
const setups = [
  ['fr-FR', phone, 'mangala', 'reduce'],
  ['en-GB', desk, 'mangala,sets=3', 'no-preference'],
];
const words = {
  'fr-FR': { over: /Partie terminée/, set: (k, n) => new RegExp(`Manche ${k} sur ${n}`), setResult: (k) => new RegExp(`Manche ${k} (?::.+ gagne \\d+–\\d+|nulle \\d+–\\d+) · Points du match`), match: /gagne le match|Match nul/ },
  'en-GB': { over: /Game over/, set: (k, n) => new RegExp(`Set ${k} of ${n}`), setResult: (k) => new RegExp(`Set ${k}(?:: .+ wins \\d+–\\d+| drawn \\d+–\\d+) · Match points`), match: /wins the match|Match drawn/ },
};

async function serverGame(page, rules, extra = {}) {
  const made = await page.request.post(site.url + '/api/games', { data: { rules, mode: 'ai', level: 'easy', side: 'S', ...extra } });
  assert.equal(made.status(), 200);
  return (await made.json()).id;
}

for (const [locale, viewport, rules, reducedMotion] of setups) {
  test(`a server Mangala match against the computer, set by set to its end (${locale}, ${viewport.width}px): the move list right at every ply, each set's result between the sets`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const w = words[locale];
    const { context, page } = await newPage(site.browser, { locale, viewport, reducedMotion });
    const id = await serverGame(page, rules);
    const sets = rules.endsWith('sets=3') ? 3 : 5;
    await page.goto(`${site.url}/g/${id}`);
    await page.waitForSelector('.house.legal');
    const setsSeen = [];
    let checked = 0;
    const deadline = Date.now() + 300000;
    while (Date.now() < deadline) {
      if ((await page.getAttribute('body', 'data-status')) === 'over') break;
      const between = await page.$('.set-over:not([hidden])');
      if (between) {
        const text = await between.textContent();
        const server = await (await page.request.get(`${site.url}/api/games/${id}`)).json();
        // The set just ended is the one before the server's current set (or the last one).
        const ended = server.status === 'over' ? server.set : server.set - 1;
        assert.match(text, w.setResult(ended), text);
        assert.doesNotMatch(await page.textContent('.banner'), w.over, 'no "game over" at the end of a set');
        setsSeen.push(ended);
        await page.click('.set-over .next-set');
        continue;
      }
      const house = await page.$('.house.legal');
      if (!house) {
        await page.waitForTimeout(40);
        continue;
      }
      await idle(page);
      if (!(await page.$('.house.legal')) || (await page.$('.set-over:not([hidden])'))) continue;
      // Our turn, nothing animating: the server waits for us, so its game is the page's.
      const server = await (await page.request.get(`${site.url}/api/games/${id}`)).json();
      const n = server.plies.length;
      assert.equal(server.status, 'playing');
      assert.equal(Number(await page.getAttribute('body', 'data-plies')), n, `the page knows the server's ${n} plies`);
      if (n > 0) assert.equal((await page.textContent('.replay-at')).trim(), `${n} / ${n}`, `the move list at ply ${n}`);
      const status = await page.textContent('.status');
      assert.match(status, w.set(server.set, sets), status);
      // Half points of a drawn set read as the locale writes them: "0,5" in French.
      const [pa, pb] = server.points.map((x) => x.toLocaleString(locale));
      assert.ok(status.includes(`${pa}–${pb}`), `${status}: the points ${server.points}`);
      checked += 1;
      await page.click('.house.legal');
      await page.keyboard.press('s');
    }
    assert.equal(await page.getAttribute('body', 'data-status'), 'over', 'the match ends');
    const server = await (await page.request.get(`${site.url}/api/games/${id}`)).json();
    assert.ok(server.set_results.length >= 2, 'a match of several sets');
    assert.deepEqual(setsSeen, server.set_results.slice(0, -1).map((_, k) => k + 1), 'each set but the last shown between the sets');
    await page.waitForFunction(() => document.querySelector('.status')?.className.includes('over'));
    assert.match(await page.textContent('.status'), w.match);
    await page.waitForFunction((n) => document.querySelector('.replay-at')?.textContent === `${n} / ${n}`, server.plies.length);
    assert.ok(checked > 10);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

// Every control on the page that can be seen is at least 44 px each way on a phone (a checkbox
// counts with its label, which takes the tap).
async function smallControls(page) {
  return page.$$eval('button, select, input, summary, .replay button', (xs) => xs.flatMap((x) => {
    const target = x.type === 'checkbox' || x.type === 'radio' ? x.closest('label') ?? x : x;
    const r = target.getBoundingClientRect();
    const style = getComputedStyle(x);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || x.closest('[hidden], dialog:not([open])')) return [];
    return r.height < 44 || r.width < 44 ? [`${x.tagName.toLowerCase()}.${x.className || x.type || ''} "${(x.textContent || x.getAttribute('aria-label') || '').trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`] : [];
  }));
}

for (const [locale, viewport] of [['en-GB', phone], ['fr-FR', phone], ['fr-FR', desk], ['en-GB', desk]]) {
  test(`home (${locale}, ${viewport.width}px): one tap from a game card to a game; controls fingers-wide on a phone`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const { context, page } = await newPage(site.browser, { locale, viewport });
    await page.goto(site.url + '/');
    await page.waitForSelector('.club-lobby');
    if (viewport === phone) assert.deepEqual(await smallControls(page), [], 'every control at least 44 px');
    for (const preset of ['mangala', 'congkak']) {
      await page.click(`.card[data-preset="${preset}"]`);
      // The card brings the ways to play into sight: one more tap starts the game.
      await page.waitForFunction(() => {
        const r = document.querySelector('.mode.computer').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      }, null, { timeout: 10000 });
    }
    const box = await page.$eval('.mode.computer', (b) => { const r = b.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; });
    await page.mouse.click(box.x, box.y);
    await page.waitForURL(/\/g\//);
    await page.waitForSelector('.house');
    const id = new URL(page.url()).pathname.split('/')[2];
    const g = await (await page.request.get(`${site.url}/api/games/${id}`)).json();
    assert.match(g.rules, /^congkak/);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

// Store names whole (not cut) and clear of the seeds drawn in their store.
async function storeNames(page) {
  return page.$$eval('.board .pit .store-name', (names) => names.flatMap((n) => {
    const r = n.getBoundingClientRect();
    const out = [];
    if (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1) out.push(`"${n.textContent}" cut`);
    for (const s of n.closest('.pit').querySelectorAll('.seeds .seed')) {
      const q = s.getBoundingClientRect();
      if (q.left < r.right - 1 && r.left < q.right - 1 && q.top < r.bottom - 1 && r.top < q.bottom - 1) {
        out.push(`"${n.textContent}" covered by a seed`);
        break;
      }
    }
    return out;
  }));
}

// The parts of the phone game page a player needs, each within the first screen.
async function offScreen(page) {
  return page.evaluate(() => {
    const parts = [['board', '.board'], ['status', '.status'], ['top player', '.player.top'], ['bottom player', '.player.bottom']];
    const out = [];
    const check = (name, el) => {
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight || r.height === 0) out.push(`${name} ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`);
    };
    for (const [name, sel] of parts) check(name, document.querySelector(sel));
    document.querySelectorAll('.board .pit.store, .board .pit.tray').forEach((s, i) => check(`store ${i}`, s));
    document.querySelectorAll('.player .clock').forEach((c, i) => check(`clock ${i}`, c));
    if (document.querySelectorAll('.player .clock').length !== 2) out.push('two clocks');
    return out;
  });
}

for (const locale of ['fr-FR', 'en-GB']) {
  test(`the phone game page (${locale}): board, both stores, both clocks and the status within one 390x844 screen; controls fingers-wide`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const { context, page } = await newPage(site.browser, { locale, viewport: phone });
    for (const rules of ['kalah', 'mangala', 'congkak', 'al-manqala']) {
      const id = await serverGame(page, rules, { clock: { minutes: 5, increment: 3 } });
      await page.goto(`${site.url}/g/${id}`);
      await page.waitForSelector('.house.legal');
      await idle(page);
      assert.deepEqual(await offScreen(page), [], `${rules}: all within the screen`);
      const clocks = await page.$$eval('.player .clock', (c) => c.map((x) => x.textContent));
      assert.ok(clocks.every((c) => /\d:\d\d/.test(c)), `${rules}: both clocks shown (${clocks})`);
      await page.click('.house.legal');
      await page.keyboard.press('s');
      await page.waitForSelector('.house.legal', { timeout: 15000 });
      await idle(page);
      assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled the page');
      assert.deepEqual(await offScreen(page), [], `${rules}: all within the screen after a move`);
      assert.deepEqual(await smallControls(page), [], `${rules}: every control at least 44 px`);
      assert.deepEqual(await storeNames(page), [], `${rules}: the store names`);
    }
    await shot(page, `newcomer-game-phone-${locale}`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

for (const [locale, viewport] of [['fr-FR', phone], ['en-GB', desk]]) {
  test(`a guest (${locale}, ${viewport.width}px) takes his player to another device with a claim code, from the sign-in dialog`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const first = await newPage(site.browser, { locale, viewport });
    const other = await newPage(site.browser, { locale, viewport });
    await first.page.goto(site.url + '/');
    await other.page.goto(site.url + '/');
    await first.page.waitForSelector('#account .sign-in');
    const me = await (await first.page.request.get(site.url + '/api/me')).json();
    // The first device asks for a code...
    await first.page.click('#account .sign-in');
    await first.page.click('.club-dialog .claim');
    await first.page.click('.club-dialog button[type=submit]');
    await first.page.waitForSelector('.club-dialog .code');
    const code = /\b([A-Z0-9]{8})\b/.exec(await first.page.textContent('.club-dialog .code'))?.[1];
    assert.ok(code, 'a code shown');
    // ...the other types it in.
    await other.page.waitForSelector('#account .sign-in');
    await other.page.click('#account .sign-in');
    await other.page.click('.club-dialog .redeem');
    await other.page.fill('.club-dialog input[name=code]', code);
    await other.page.click('.club-dialog button[type=submit]');
    await other.page.waitForFunction(() => !document.querySelector('dialog[open]'));
    const now = await (await other.page.request.get(site.url + '/api/me')).json();
    assert.equal(now.id, me.id, 'the same player on the other device');
    assert.deepEqual(first.page.errors, []);
    assert.deepEqual(other.page.errors, []);
    await first.context.close();
    await other.context.close();
  });
}

for (const [locale, viewport] of [['en-GB', phone], ['fr-FR', desk]]) {
  test(`only what the state allows (${locale}, ${viewport.width}px): abort until both sides moved, no "Teach me" for a spectator`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const a = await newPage(site.browser, { locale, viewport });
    const b = await newPage(site.browser, { locale, viewport });
    const watcher = await newPage(site.browser, { locale, viewport });
    const made = await a.page.request.post(site.url + '/api/games', { data: { rules: 'kalah', mode: 'friend', side: 'S' } });
    const { id } = await made.json();
    await a.page.goto(`${site.url}/g/${id}`);
    await a.page.waitForSelector('.share .link');
    await b.page.goto(`${site.url}/g/${id}`);
    await a.page.waitForSelector('.house.legal');
    await watcher.page.goto(`${site.url}/g/${id}`);
    await watcher.page.waitForSelector('.house');
    await a.page.waitForSelector('.extras .abort');
    // Houses 1 and 2 of Kalah with 4 seeds end in no store: the turn passes each time.
    await a.page.click('.house.legal[data-house="1"]');
    await b.page.waitForSelector('.house.legal');
    await b.page.waitForSelector('.extras .abort');
    await b.page.click('.house.legal[data-house="1"]');
    for (const p of [a.page, b.page]) {
      await p.waitForFunction(() => document.body.dataset.plies === '2');
      await idle(p);
      assert.equal(await p.$('.extras .abort'), null, 'no abort once both sides moved');
      assert.ok(await p.isVisible('button.teach'), 'a player may ask for a hint');
    }
    await watcher.page.waitForFunction(() => document.body.dataset.plies === '2');
    assert.equal(await watcher.page.isVisible('button.teach'), false, 'a spectator sees no "Teach me"');
    // With the pie rule North may swap after South's first move, and only then.
    const pie = await (await a.page.request.post(site.url + '/api/games', { data: { rules: 'kalah,pie=true', mode: 'friend', side: 'S' } })).json();
    await a.page.goto(`${site.url}/g/${pie.id}`);
    await a.page.waitForSelector('.share .link');
    await b.page.goto(`${site.url}/g/${pie.id}`);
    await a.page.waitForSelector('.house.legal');
    assert.equal(await b.page.$('.extras .act-swap'), null, 'no swap before South moved');
    await a.page.click('.house.legal[data-house="1"]');
    await b.page.waitForSelector('.extras .act-swap');
    await b.page.click('.house.legal[data-house="1"]');
    await b.page.waitForFunction(() => document.body.dataset.plies === '2');
    await idle(b.page);
    assert.equal(await b.page.$('.extras .act-swap'), null, 'no swap once North has moved');
    for (const x of [a, b, watcher]) {
      assert.deepEqual(x.page.errors, []);
      await x.context.close();
    }
  });
}

for (const [locale, viewport] of [['fr-FR', phone], ['en-GB', desk]]) {
  test(`the board (${locale}, ${viewport.width}px): reduced motion flies no seed, a tap leaves no ring that reads as advice, store names whole and clear of the seeds`, async () => {
    const context = await site.browser.newContext({ locale, viewport, reducedMotion: 'reduce', hasTouch: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    for (const preset of ['kalah', 'mangala', 'al-manqala', 'congkak']) {
      await page.goto(`${site.url}/?local=${preset}`);
      await page.waitForSelector('.house.legal');
      await page.evaluate(() => {
        window.flights = 0;
        new MutationObserver((ms) => {
          for (const m of ms) for (const n of m.addedNodes) if (n.classList?.contains('flying')) window.flights += 1;
        }).observe(document.querySelector('.board'), { childList: true, subtree: true });
      });
      for (let k = 1; k <= 3; ++k) {
        await page.tap('.house.legal');
        await page.waitForFunction((n) => Number(document.body.dataset.plies) >= n, k);
        await idle(page);
        assert.deepEqual(await page.$$eval('.pit.lands, .pit.taken', (x) => x.map((p) => p.dataset.pit)), [], `${preset}: no preview ring after a tap`);
      }
      assert.equal(await page.evaluate(() => window.flights), 0, `${preset}: no seed flew`);
      assert.deepEqual(await storeNames(page), [], `${preset}: the store names`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
