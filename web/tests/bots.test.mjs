// A member's bots on the page (docs/bots.md), against the real server: he opens "Your bots" from his
// menu, creates a bot and sees its token once (with how to connect), no more after a reload;
// renames it, revokes it in two clicks; the bot's profile says it is a bot and whose, in English
// and in French.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, signUp, useSite } from './harness.mjs';

const site = useSite();

const unique = (stem) => `${stem}${Math.floor(Math.random() * 1e6)}`;
const noServer = () => (process.env.SEMIS_PREVIEW ? 'no server' : false);

test('a member creates a bot, sees its token once, renames and revokes it; its profile names him', { skip: noServer() }, async () => {
  const { context, page } = await newPage(site.browser);
  const owner = unique('owner');
  await signUp(page, site.url, owner);
  await page.click('#account summary.who');
  await page.click('#account .bots');
  await page.waitForSelector('.bots-page h1:text("Your bots")');
  await page.waitForSelector('.bots .note:text("No bot yet.")');

  const name = unique('Sower ');
  await page.fill('.new-bot input[name=name]', name);
  await page.click('.new-bot button[type=submit]');
  const token = (await page.textContent('.token-box .bot-token', { timeout: 5000 })).trim();
  assert.match(token, /^[0-9a-f]{64}$/);
  const box = await page.textContent('.token-box');
  assert.match(box, /will not be shown again/);
  assert.match(box, /port 2671/);
  assert.ok(box.includes(`set auth:token ${token}`), box);
  assert.ok(box.includes('/kgp'), box);
  await page.waitForSelector(`.bots .bot-name:text("${name}")`);
  await shot(page, 'bots-token');

  // Once: a reload lists the bot, never its token.
  await page.reload();
  await page.waitForSelector(`.bots .bot-name:text("${name}")`);
  assert.equal(await page.$('.token-box'), null);
  assert.ok(!(await page.content()).includes(token), 'the token is not shown again');

  // A taken name is refused in words, and changes nothing.
  await page.fill('.new-bot input[name=name]', owner);
  await page.click('.new-bot button[type=submit]');
  await page.waitForSelector('.bots-page .status:text("This name is taken.")');
  assert.equal(await page.locator('.bots .bot').count(), 1);

  const renamed = unique('Reaper ');
  await page.click('.bots .rename-bot');
  await page.fill('.bots .rename-form input[name=name]', renamed);
  await page.click('.bots .rename-form button[type=submit]');
  await page.waitForSelector(`.bots .bot-name:text("${renamed}")`);

  // Revoked in two clicks: the list says so, its actions are gone.
  await page.click('.bots .revoke-bot');
  await page.waitForSelector('.bots .revoke-bot:text("Revoke for good?")');
  await page.click('.bots .revoke-bot');
  await page.waitForSelector('.bots .bot.revoked .bot-revoked');
  assert.equal(await page.$('.bots .revoke-bot'), null);
  const id = await page.getAttribute('.bots .bot.revoked', 'data-bot');

  // Its profile: a bot, whose, revoked; in French too.
  await page.click(`.bots .bot-name:text("${renamed}")`);
  await page.waitForSelector(`.profile h1:has-text("${renamed}")`);
  assert.equal((await page.textContent('.profile .bot-of')).trim(), `A bot of ${owner}.`);
  await page.click(`.profile .bot-of a:text("${owner}")`);
  await page.waitForSelector(`.profile h1:has-text("${owner}")`);
  assert.equal(await page.$('.profile .bot-of'), null, 'a person is no bot');
  assert.deepEqual(page.errors, []);
  await context.close();

  const fr = await newPage(site.browser, { locale: 'fr-FR' });
  await fr.page.goto(`${site.url}/p/${id}`);
  await fr.page.waitForSelector('.profile .bot-of');
  const line = (await fr.page.textContent('.profile .bot-of')).trim();
  assert.ok(line === `Un robot d’${owner}.`, line);
  assert.match(await fr.page.textContent('.profile'), /Ce robot a été révoqué\./);
  assert.deepEqual(fr.page.errors, []);
  await fr.context.close();
});
