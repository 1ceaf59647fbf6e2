// Playing a bot from the home page (docs/bots.md), against the real server with its KGP port: a
// tiny bot written here connects over TCP (node's net), a member and his bot are made over HTTP;
// on a phone in French the home page lists the bot with its owner, one tap starts a game against
// it, and the game is played to its end by tapping legal houses. Before the bot connects, the page
// says none is online and how to connect one; after the game, the bot's profile says in words how
// it played against the solver (French and English).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { freePort, idle, launch, newPage, shot, startSite } from './harness.mjs';
import { until } from './play.mjs';

const noServer = () => (process.env.SEMIS_PREVIEW || process.env.SEMIS_URL ? 'needs a server of its own with a KGP port' : false);

let site;
let browser;
let kgpPort;
before(async () => {
  if (noServer()) return;
  kgpPort = await freePort();
  process.env.SEMIS_ARGS = `serve --address 127.0.0.1 --port {port} --web {web} --db {db} --kgp-port ${kgpPort} --kgp-pool-seconds 0`;
  site = await startSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  site?.stop();
});

const unique = (stem) => `${stem}${Math.floor(Math.random() * 1e6)}`;

async function post(path, body, cookie = '') {
  const r = await fetch(site.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const json = await r.json();
  assert.equal(r.status, 200, JSON.stringify(json));
  return { json, setCookie: r.headers.get('set-cookie') ?? '' };
}

// The simplest bot there is: signs in with its token, and on each `state` plays the first house of
// its own row with seeds (KGP shows the bot its side as South: `<n,own store,other store,own
// houses...,other houses...>`), then yields. Answers `ping`. Lines it was sent are kept.
function tinyBot(port, token) {
  const socket = connect(port, '127.0.0.1');
  const lines = [];
  let moves = 0;
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      const m = /^(\d+)(?:@\d+)?\s+(\w+)\s*(.*)$/.exec(line) ?? /^()(\w+)\s*(.*)$/.exec(line);
      if (!m) continue;
      const [, id, command, args] = m;
      if (command === 'kgp') {
        socket.write(`set auth:token ${token}\r\nmode freeplay\r\n`);
      } else if (command === 'state') {
        const board = (/<([^>]*)>/.exec(args)?.[1] ?? '').split(',').map(Number);
        const n = board[0];
        let k = 1;
        while (k < n && !(board[2 + k] > 0)) ++k;
        socket.write(`@${id} move ${k}\r\n@${id} yield\r\n`);
        ++moves;
      } else if (command === 'ping') {
        socket.write(`@${id} pong\r\n`);
      }
    }
  });
  return { socket, lines, moves: () => moves };
}

test('on a phone, in French, a member picks a bot online, plays it to the end and sees the result', { skip: noServer() }, async () => {
  const owner = unique('owner');
  const signed = await post('/api/account/signup', { username: owner, password: 'correct horse' });
  const token = /semis_token=([^;]+)/.exec(signed.setCookie)?.[1];
  assert.ok(token, signed.setCookie);
  const cookie = `semis_token=${token}`;
  const botName = unique('Semeur');
  const made = (await post('/api/bots', { name: botName }, cookie)).json;

  const { context, page } = await newPage(browser, { locale: 'fr-FR', viewport: { width: 390, height: 844 }, touch: true });
  await context.addCookies([{ name: 'semis_token', value: token, url: site.url }]);

  // No bot online yet: the page says so, and how to connect one.
  await page.goto(site.url + '/');
  await page.waitForSelector('.bots-box h3:text("Robots")');
  await page.waitForSelector('.bots-box .no-bot:has-text("Aucun robot n’est connecté en ce moment.")');
  assert.match(await page.textContent('.bots-box .no-bot'), /port TCP 2671/);
  assert.equal(await page.getAttribute('.bots-box .no-bot a.bots-doc', 'href'), '/bots');

  const bot = tinyBot(kgpPort, made.token);
  try {
    await until('the bot online', async () => {
      const r = await (await fetch(site.url + '/api/bots/online')).json();
      return r.bots.some((b) => b.name === botName);
    }, 10000);
    // The list is read again while the page is open (every 10 s): the bot appears without a
    // reload. Two periods and a half: a read in flight when the bot came is stale, and a loaded
    // machine delays the page's timers (15 s failed once in a whole suite at load 5-8).
    const button = `.bots-box .play-bot[data-bot="${botName}"]`;
    await page.waitForSelector(button, { timeout: 25000 });
    assert.equal((await page.textContent(button)).trim(), `Jouer contre ${botName}`);
    assert.equal((await page.textContent('.bots-box .bot-online .bot-owner')).trim(), `par ${owner}`);
    assert.equal(await page.inputValue('#bot-board'), '6x4', 'Kalah’s own board first');
    assert.deepEqual(await page.$$eval('#bot-board option', (o) => o.map((x) => x.value)), ['6x4', '6x6', '8x8', '10x10', '12x12']);
    for (const sel of [button, '#bot-board', '.bots-box .bot-owner']) {
      const box = await page.locator(sel).first().boundingBox();
      assert.ok(box && box.height >= 44, `${sel} is a finger wide: ${JSON.stringify(box)}`);
    }
    // Keyboard: the bot's button is reached and pressed like any button (checked here by focus).
    await page.focus(button);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-bot')), botName);
    await page.locator(button).scrollIntoViewIfNeeded();
    await shot(page, 'playbot-list-fr');

    await page.tap(button);
    await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    const state = await (await fetch(`${site.url}/api/games/${id}`)).json();
    assert.equal(state.rules.split(',')[0], 'kalah');
    assert.equal(state.position.houses.length, 12, 'a 6 × 4 board: six houses a side');
    assert.ok([state.seats.S?.name, state.seats.N?.name].includes(botName), JSON.stringify(state.seats));

    await page.waitForSelector('.board .house');
    for (let i = 0; i < 400; ++i) {
      if ((await page.getAttribute('body', 'data-status')) === 'over') break;
      await idle(page);
      if ((await page.$('.house.legal')) && !(await page.evaluate(() => window.semisBoard.busy))) await page.tap('.house.legal').catch(() => {});
      await page.waitForTimeout(60);
    }
    await page.waitForSelector('.status.over', { timeout: 15000 });
    assert.match(await page.textContent('.status'), /Résultat/);
    assert.ok(bot.moves() > 0, `the bot played: ${bot.lines.join(' | ')}`);
    const end = await (await fetch(`${site.url}/api/games/${id}`)).json();
    assert.equal(end.status, 'over');
    await shot(page, 'playbot-over-fr');

    // The server reviews the bot's game in the background; its profile then says how it played.
    let accuracy;
    await until('the bot’s game reviewed', async () => {
      accuracy = (await (await fetch(`${site.url}/api/players/${made.id}`)).json()).accuracy;
      return accuracy?.games === 1;
    }, 60000);
    const pct = Math.floor((100 * accuracy.perfect) / accuracy.proven);
    await page.goto(`${site.url}/p/${made.id}`);
    const fr = (await page.textContent('.profile .bot-accuracy', { timeout: 10000 })).trim();
    const frMoves = accuracy.proven === 1 ? '1 coup prouvé' : `${accuracy.proven} coups prouvés`;
    // (French writes "87 %" with a narrow no-break space.)
    assert.equal(fr.replace(/\s/g, ' '), accuracy.proven === 0 ? 'Le solveur n’a encore prouvé aucun de ses coups.' : `Jeu parfait sur ${pct} % de ${frMoves}, en 1 partie analysée.`);
    await shot(page, 'playbot-profile-fr');
    assert.deepEqual(page.errors, []);
    const english = await newPage(browser);
    await english.page.goto(`${site.url}/p/${made.id}`);
    const en = (await english.page.textContent('.profile .bot-accuracy', { timeout: 10000 })).trim();
    const enMoves = accuracy.proven === 1 ? '1 proven move' : `${accuracy.proven} proven moves`;
    assert.equal(en, accuracy.proven === 0 ? 'The solver has not proven any of its moves yet.' : `Perfect play on ${pct}% of ${enMoves}, over 1 game reviewed.`);
    assert.deepEqual(english.page.errors, []);
    await english.context.close();
  } finally {
    bot.socket.destroy();
    await context.close();
  }
});
