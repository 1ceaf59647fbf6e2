// What the server tests do on a page and ask of a server, shared by the one-server and the
// several-instances tests.
import assert from 'node:assert/strict';

// Every JSON message the page's WebSockets receive, and their opening and closing, in order.
export function recordFrames(page) {
  const got = [];
  page.on('websocket', (ws) => {
    got.push({ type: '_open' });
    ws.on('framereceived', (f) => {
      try {
        got.push(JSON.parse(String(f.payload)));
      } catch {
        got.push({ type: '_not_json' });
      }
    });
    ws.on('close', () => got.push({ type: '_close' }));
  });
  return got;
}

export async function until(what, check, ms = 20000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The game as the server at `url` has it (a visitor's view: GET /api/games/<id>).
export async function stateAt(url, id) {
  const r = await fetch(`${url}/api/games/${id}`);
  assert.equal(r.status, 200);
  return r.json();
}

// The server's position in the board's pit order: South's houses, South's store, North's, North's store.
export function pitsOf(state) {
  const h = state.position.houses;
  const n = h.length / 2;
  return [...h.slice(0, n), state.position.stores[0], ...h.slice(n), state.position.stores[1]];
}

export const gameId = (link) => new URL(link).pathname.split('/').pop();

export async function chooseKalahAt(page, url, houses, seeds) {
  await page.goto(url + '/');
  await page.waitForSelector('.card');
  await page.click('.card[data-preset="kalah"]');
  await page.selectOption('#opt-houses', String(houses));
  await page.selectOption('#opt-seeds', String(seeds));
}

export async function playFirstLegal(page) {
  const h = await page.getAttribute('.house.legal', 'data-house');
  const side = await page.getAttribute('.house.legal', 'data-side');
  await page.click(`.house.legal[data-side="${side}"][data-house="${h}"]`);
  return h;
}

// A friend game of Kalah(houses, seeds) made on `url` by the page, which plays South (with a clock
// such as '5+3' if given), and its share link.
export async function shareFriendGame(page, url, houses, seeds, clock = null) {
  await chooseKalahAt(page, url, houses, seeds);
  await page.selectOption('#side', 'S');
  if (clock) await page.selectOption('#clock', clock);
  await page.click('.mode.friend');
  await page.waitForSelector('.share:not([hidden]) input.link');
  return page.inputValue('.share input.link');
}

// Plays whatever is legal on whichever page has the move, until the game is over.
export async function playOut(pages, max = 800) {
  for (let i = 0; i < max; ++i) {
    if ((await pages[0].getAttribute('body', 'data-status')) === 'over') return;
    let moved = false;
    for (const p of pages) {
      const h = await p.$('.house.legal');
      if (h) {
        await h.click().catch(() => undefined);
        moved = true;
        break;
      }
    }
    await new Promise((r) => setTimeout(r, moved ? 150 : 50));
  }
  assert.fail('the game did not end');
}

// Two signed-in members on their home pages take the same rated quick seek of `game` (untimed):
// the first waits, the second's lobby counts him, then both land on the same game's page.
export async function ratedQuickPair(a, b, game) {
  await a.waitForSelector('.club-lobby .counts:has-text("online")');
  await a.check('#rated');
  await a.click(`.quick-seek[data-game="${game}"][data-clock="∞"]`);
  await a.waitForSelector('.pairing-status:has-text("opponent")');
  await until(`the lobby to count the ${game} searcher`, async () => (await b.textContent(`[data-count="${game}"]`))?.includes('1'));
  await b.check('#rated');
  await b.click(`.quick-seek[data-game="${game}"][data-clock="∞"]`);
  await a.waitForURL(/\/g\//);
  await b.waitForURL(/\/g\//);
  assert.equal(a.url(), b.url(), 'the same game');
}

// The daily challenge's page: our side plays `puzzle.line`'s moves at its turns (the page's perfect
// player answers between them) until the attempt is done; bounded by `turns`.
export async function playDailyLine(page, puzzle, turns = 60) {
  const side = puzzle.position.to_move;
  for (let guard = 0; guard < turns; ++guard) {
    await page.waitForSelector('.daily-page[data-ready="1"], .daily-page[data-ready="done"]');
    if ((await page.getAttribute('.daily-page', 'data-ready')) === 'done') break;
    const i = Number(await page.getAttribute('.daily-page', 'data-plies'));
    await page.click(`.house[data-side="${side}"][data-house="${puzzle.line[i]}"]`);
    await page.waitForFunction((n) => Number(document.querySelector('.daily-page').dataset.plies) > n, i);
  }
  await page.waitForSelector('.daily-outcome:not([hidden])');
}
