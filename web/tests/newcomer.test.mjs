// A newcomer's first minutes (issue 22), on a 390x844 phone and a 1366x768 desk, in English and
// French: a server Mangala match against the computer set by set to its end with the move list
// right at every ply and each set's result between the sets; one tap from a game card to a game; the
// phone game page within one screen; a guest's claim code on a phone; only the actions the state
// allows (no abort once both sides moved, no "Teach me" for a spectator).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idle, launch, newPage, shot, startSite } from './harness.mjs';

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

const phone = { width: 390, height: 844 };
const desk = { width: 1366, height: 768 };
// (the desk plays a match of three sets, to keep the run short)
const setups = [
  ['fr-FR', phone, 'mangala'],
  ['en-GB', desk, 'mangala,sets=3'],
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

for (const [locale, viewport, rules] of setups) {
  test(`a server Mangala match against the computer, set by set to its end (${locale}, ${viewport.width}px): the move list right at every ply, each set's result between the sets`, async (t) => {
    if (!site.server) return t.skip('needs a server');
    const w = words[locale];
    const { context, page } = await newPage(browser, { locale, viewport });
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
      assert.ok(status.includes(`${server.points[0]}–${server.points[1]}`), `${status}: the points ${server.points}`);
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
