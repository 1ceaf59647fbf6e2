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
