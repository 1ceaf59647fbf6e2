// Several instances behind HAProxy (tools/cluster): two browsers play a friend game while each
// instance in turn is killed with -9 and restarted. Whichever instance a page was on, it reconnects
// by itself through HAProxy to a living one and play goes on; the record holds every move, once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { counts, idle, launch, newPage, startCluster } from './harness.mjs';
import { gameId, pitsOf, playFirstLegal, recordFrames, shareFriendGame, stateAt, until } from './play.mjs';

let cluster;
let browser;
let failed = false;
before(async () => {
  cluster = await startCluster(3);
  if (cluster) browser = await launch();
});
after(async () => {
  await browser?.close();
  cluster?.down({ failed });
});

const plies = (page) => page.evaluate(() => Number(document.body.dataset.plies ?? 0));
const online = (page) => page.evaluate(() => document.body.dataset.online === '1');

test('killing any one instance mid-game loses no move: both browsers play on', async (t) => {
  if (!cluster) return t.skip('needs PostgreSQL, Redis, HAProxy and the release build');
  failed = true; // until its last check passed
  const a = await newPage(browser);
  const b = await newPage(browser);
  const frames = [recordFrames(a.page), recordFrames(b.page)];
  const link = await shareFriendGame(a.page, cluster.url, 6, 4);
  const id = gameId(link);
  await b.page.goto(link);
  await b.page.waitForSelector('.board .house');
  let played = 0;
  // The side to move plays its first legal house once both pages are online and idle; both then
  // show the new ply.
  const playOne = async () => {
    await until('both pages online', async () => (await online(a.page)) && (await online(b.page)), 30000);
    let mover = null;
    await until('a page with a legal house', async () => {
      for (const p of [a.page, b.page]) {
        await idle(p);
        if (await p.$('.house.legal')) {
          mover = p;
          return true;
        }
      }
      return false;
    });
    await playFirstLegal(mover);
    played += 1;
    try {
      for (const p of [a.page, b.page]) await until(`ply ${played} shown`, async () => (await plies(p)) === played, 30000);
    } catch (e) {
      // What each side had then: the pages' plies and the record's.
      const record = (await stateAt(cluster.url, id)).plies.length;
      const last = (f) => JSON.stringify(f.slice(-6).map((x) => (x.type === 'error' ? `error ${x.code} ${x.message}` : x.type)));
      e.message += ` (pages show ${await plies(a.page)} and ${await plies(b.page)}, the record has ${record}, the mover was ${mover === a.page ? 'a' : 'b'}; a's last frames ${last(frames[0])}, b's ${last(frames[1])})`;
      throw e;
    }
  };
  await playOne();
  for (const i of [1, 2, 3]) {
    const opened = frames.map((f) => f.filter((x) => x.type === '_open').length);
    cluster.kill(i);
    await playOne();
    await playOne();
    cluster.restart(i);
    await playOne();
    frames.forEach((f, k) => assert.ok(f.filter((x) => x.type === '_open').length >= opened[k], 'no connection lost for good'));
  }
  // Each page lost its instance at least once (three instances, each killed once).
  for (const [k, f] of frames.entries()) assert.ok(f.filter((x) => x.type === '_open').length >= 2, `page ${k} reconnected`);
  const state = await stateAt(cluster.url, id);
  assert.equal(state.plies.length, played, 'every move in the record, once');
  for (const p of [a.page, b.page]) {
    await idle(p);
    assert.deepEqual(await counts(p), pitsOf(state));
    assert.deepEqual(p.errors, []);
  }
  await a.context.close();
  await b.context.close();
  failed = false;
});
