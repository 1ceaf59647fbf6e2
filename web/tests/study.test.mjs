// Browser tests of issue 17's study features against a real server: Teach me in both languages,
// the daily challenge played to the end against the perfect player (every best move accepted, a
// value-losing move refused, the streak of a signed-in player), a finished game's review checked
// against the command line's, and the analysis board. Moves and values are checked against the
// `semis` binary's own answers (its solver), not against numbers written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { idle, newPage, shot, useSite, webDir } from './harness.mjs';
import { playDailyLine } from './play.mjs';

const site = useSite();

const semisBin = process.env.SEMIS_BIN ?? join(webDir, '..', 'build', 'release', 'src', 'app', 'semis');
const semis = (...args) => execFileSync(semisBin, args, { encoding: 'utf8' });

// `semis solve` on a position: {value, moves: {house: value}}.
function solve(position) {
  const out = semis('solve', '--position', position);
  const moves = {};
  for (const m of out.matchAll(/move (\d+) : ([+-]?\d+)/g)) moves[Number(m[1])] = Number(m[2]);
  return { value: Number(/value\s+: ([+-]?\d+)/.exec(out)[1]), moves };
}

const today = () => new Date().toISOString().slice(0, 10);

test('Teach me on Kalah’s first move lights house 3 and says why, in English and in French', async () => {
  for (const [locale, words] of [['en-GB', [/you play again/, /win by 8/]], ['fr-FR', [/vous rejouez/, /vous l’emportez de 8 graines/]]]) {
    const { context, page } = await newPage(site.browser, { locale });
    await page.goto(site.url + '/?local=kalah');
    await page.waitForSelector('.house.legal');
    await idle(page);
    await page.click('button.teach');
    await page.waitForSelector('.house.hint');
    const lit = await page.$eval('.house.hint', (h) => `${h.dataset.side}${h.dataset.house}`);
    assert.equal(lit, 'S3');
    const text = await page.textContent('.hint-text');
    for (const w of words) assert.match(text, w, text);
    assert.doesNotMatch(text, /not proven|non prouvé|\+\d/, 'no jargon');
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test('Perfect is offered in the level list', async () => {
  const { context, page } = await newPage(site.browser);
  await page.goto(site.url + '/');
  await page.waitForSelector('#level');
  const levels = await page.$$eval('#level option', (o) => o.map((x) => x.value));
  assert.deepEqual(levels, ['easy', 'medium', 'hard', 'perfect']);
  await context.close();
});

test('the daily challenge: the best line is accepted to the end, a wrong move is refused, the streak counts', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser);
  // A signed-in player, so the attempt is his day's.
  const username = `daily${Date.now() % 100000}`;
  const signed = await page.request.post(site.url + '/api/account/signup', { data: { username, password: 'correct horse' } });
  assert.equal(signed.status(), 200, await signed.text());
  const puzzle = JSON.parse(semis('daily', '--rules', 'kalah', '--date', today(), '--json'));
  await page.goto(site.url + '/daily/kalah');
  await page.waitForSelector('.daily-page[data-ready="1"]');
  assert.match(await page.textContent('.daily-intro'), new RegExp(puzzle.value > 0 ? `you win by ${puzzle.value} seeds?` : 'the game is drawn'));
  await playDailyLine(page, puzzle);
  assert.equal(Number(await page.getAttribute('.daily-page', 'data-plies')), puzzle.line.length, 'the perfect player followed the line');
  assert.match(await page.textContent('.status'), /Solved/);
  const share = await page.textContent('.share-text');
  assert.match(share, new RegExp(today()));
  assert.doesNotMatch(share, new RegExp(puzzle.line.join('.')), 'the share text gives nothing away');
  assert.match(await page.textContent('.daily-outcome .solution'), new RegExp(puzzle.line.join(' · ')));
  assert.match(await page.textContent('.daily-page .streak'), /1 day/);
  await shot(page, 'daily-solved');
  // Try again, with a move that gives value away: refused, naming a house that keeps it.
  await page.click('.try-again');
  await page.waitForSelector('.daily-page[data-ready="1"]');
  const values = solve(puzzle.position_text);
  const wrong = Object.entries(values.moves).find(([, v]) => v < values.value);
  assert.ok(wrong, 'the puzzle has a wrong move');
  await page.click(`.house[data-side="${puzzle.position.to_move}"][data-house="${wrong[0]}"]`);
  await page.waitForSelector('.daily-page[data-ready="done"]');
  const status = await page.textContent('.status');
  assert.match(status, new RegExp(`House ${wrong[0]} gives value away`));
  const named = Number(/house (\d+) kept/.exec(status)[1]);
  assert.equal(values.moves[named], values.value, 'the house named keeps the value');
  // The practice attempt did not change the day's result.
  const again = await (await page.request.get(site.url + '/api/daily/kalah')).json();
  assert.equal(again.result.solved, true);
  assert.equal(again.streak, 1);
  // Yesterday's solution and the archive are on the page.
  assert.ok(await page.$('.archive li a'), 'the archive lists past days');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('review: a finished game’s every move valued, as the command line values it, with the chart', async (t) => {
  if (!site.server) return t.skip('needs a server');
  const { context, page } = await newPage(site.browser);
  const rules = 'kalah,houses=4,seeds=3';
  const created = await page.request.post(site.url + '/api/games', { data: { rules, mode: 'ai', level: 'perfect', side: 'S' } });
  const { id } = await created.json();
  await page.goto(site.url + `/g/${id}`);
  // We play the first legal house each turn: far from best, so there are marks to show.
  for (let i = 0; i < 80; ++i) {
    await page.waitForSelector('body[data-status="over"], .house.legal[data-side="S"]');
    if ((await page.getAttribute('body', 'data-status')) === 'over') break;
    await page.click('.house.legal[data-side="S"]');
    await page.waitForFunction(() => !document.querySelector('.house.legal[data-side="S"]') || document.body.dataset.status === 'over');
  }
  await page.waitForSelector('.review-link');
  await page.click('.review-link');
  await page.waitForSelector('.review-table tbody tr');
  const rows = await page.$$eval('.review-table tbody tr', (r) => r.map((x) => ({ mark: x.className.replace('mark-', '').split(' ')[0], estimated: x.textContent.includes('≈') })));
  // The command line's review of the same record (2 s a position proves this board): wherever the
  // server's budget proved the values too, the same marks, move for move.
  const record = await (await page.request.get(site.url + `/api/games/${id}/record`)).text();
  const cli = JSON.parse(execFileSync(semisBin, ['review', '--json', '--seconds', '2'], { input: record, encoding: 'utf8' }));
  assert.equal(rows.length, cli.plies.length);
  let proven = 0;
  rows.forEach((row, i) => {
    if (row.estimated) return;
    proven += 1;
    assert.equal(row.mark, cli.plies[i].mark, `move ${i + 1}`);
  });
  assert.ok(proven > 0, 'the last moves are proven');
  assert.ok(await page.$('svg.review-chart polyline'), 'the chart is drawn');
  const summary = await page.textContent('.review-summary');
  if (rows.every((r) => !r.estimated)) {
    if (cli.turning !== null) assert.match(summary, new RegExp(`lost at move ${cli.turning + 1}`));
    else assert.match(summary, /No single move lost/);
  } else assert.match(summary, /lost at move \d+|No single move lost/);
  await shot(page, 'review');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('the analysis board values every move as the solver does, and steps through a pasted record', async () => {
  const { context, page } = await newPage(site.browser, { locale: 'fr-FR' });
  const start = 'kalah,houses=4,seeds=3/3,3,3,3/3,3,3,3/0,0/S';
  await page.goto(site.url + `/analysis?position=${encodeURIComponent(start)}`);
  await page.waitForSelector('.move-values button');
  const shown = await page.$$eval('.move-values button', (b) => b.map((x) => x.textContent));
  const solved = solve(start);
  assert.equal(shown.length, Object.keys(solved.moves).length);
  for (const [house, v] of Object.entries(solved.moves)) {
    const text = shown.find((s) => s.startsWith(`Case ${house}`));
    assert.ok(text, `house ${house} is listed`);
    assert.match(text, new RegExp(`${v > 0 ? '\\+' : ''}${v} graines?$`), text);
  }
  // A record: Forward and Back walk it.
  await page.fill('#analysis-record', '[Rules "kalah,houses=4,seeds=3"]\n\n1. 1 2. 1 *');
  await page.click('#analysis-record + button');
  await page.waitForSelector('.ply');
  assert.match(await page.textContent('.ply'), /Coup 0 sur 2/);
  await page.click('text=Avancer →');
  assert.match(await page.textContent('.ply'), /Coup 1 sur 2/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
