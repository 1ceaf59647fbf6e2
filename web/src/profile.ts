// A player's profile (/p/<id>): each rating with its history as a small chart, the win/draw/loss
// counts, and the finished games, each a link to its page.
import { botLine } from './bots';
import { accuracyLine, type Accuracy } from './playbot';
import { tc } from './club-words';
import { el } from './dom';
import { api } from './net';
import { dateText, t, type Key } from './i18n';
import { gameTitle } from './game-title';

interface Rating {
  key: string;
  rating: number;
  deviation: number;
  provisional: boolean;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}
interface Profile {
  id: string;
  name: string;
  username: string | null;
  online: boolean;
  ratings: Rating[];
  bot?: boolean; // a member's bot (docs/bots.md), with its owner
  owner?: { id: string; name: string };
  revoked?: boolean;
  accuracy?: Accuracy; // a bot's play against the solver
}
interface Played {
  id: string;
  rules: string;
  rated: boolean;
  side: 'S' | 'N';
  opponent: { id?: string; name?: string; ai?: string };
  result: { winner: string; reason?: string } | null;
  change: number | null;
  ended: number;
}

const SVG = 'http://www.w3.org/2000/svg';

interface Point {
  at: number;
  rating: number;
}

// "at" is in seconds (the store's clock) or milliseconds: a day either way.
function dayOf(at: number): string {
  return new Date(at < 1e12 ? at * 1000 : at).toISOString().slice(0, 10);
}

function svgEl(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// The rating after each rated game, oldest on the left, with its axes: the lowest and highest
// rating on the left, the first and last day below. One game is said in words, not drawn as a dot.
function chart(points: Point[]): Element {
  if (points.length === 0) return el('p', { class: 'note' }, tc('noGames'));
  if (points.length === 1) {
    return el('p', { class: 'rating-history' }, tc('historyOne', { rating: Math.round(points[0].rating), date: dateText(dayOf(points[0].at)) }));
  }
  const w = 340, h = 130, left = 44, right = 10, top = 10, bottom = 26;
  const lo = Math.floor(Math.min(...points.map((p) => p.rating)) / 10) * 10 - 10;
  const hi = Math.ceil(Math.max(...points.map((p) => p.rating)) / 10) * 10 + 10;
  const x = (i: number) => left + (i * (w - left - right)) / (points.length - 1);
  const y = (r: number) => h - bottom - ((r - lo) * (h - top - bottom)) / (hi - lo);
  const from = dateText(dayOf(points[0].at));
  const to = dateText(dayOf(points[points.length - 1].at));
  const title = from === to ? tc('historyAxisDay', { date: from }) : tc('historyAxis', { from, to });
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, class: 'rating-chart', role: 'img', 'aria-label': title });
  svg.append(
    svgEl('line', { x1: left, x2: left, y1: top, y2: h - bottom, class: 'axis' }),
    svgEl('line', { x1: left, x2: w - right, y1: h - bottom, y2: h - bottom, class: 'axis' }),
    svgEl('text', { x: left - 4, y: y(hi) + 4, 'text-anchor': 'end', class: 'tick' }, String(hi)),
    svgEl('text', { x: left - 4, y: y(lo) + 4, 'text-anchor': 'end', class: 'tick' }, String(lo)),
    // The period below: its first and last day, or the one day in the middle.
    ...(from === to
      ? [svgEl('text', { x: (left + w - right) / 2, y: h - 6, 'text-anchor': 'middle', class: 'tick' }, from)]
      : [svgEl('text', { x: left, y: h - 6, class: 'tick' }, from), svgEl('text', { x: w - right, y: h - 6, 'text-anchor': 'end', class: 'tick' }, to)]),
    svgEl('polyline', { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
  );
  for (const [i, p] of points.entries()) svg.append(svgEl('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5, fill: 'currentColor' }));
  return el('figure', { class: 'rating-figure' }, svg, el('figcaption', {}, title));
}

// The game's outcome for this player, in words.
function outcome(g: Played): string {
  if (!g.result) return '';
  if (g.result.reason === 'aborted') return tc('outcomeAborted');
  if (g.result.winner === 'draw') return tc('outcomeDrawn');
  return g.result.winner === g.side ? tc('outcomeWon') : tc('outcomeLost');
}

export async function profilePage(root: HTMLElement, id: string): Promise<void> {
  let p: Profile;
  try {
    p = await api<Profile>('GET', `/api/players/${id}`);
  } catch {
    root.replaceChildren(el('p', { class: 'note' }, tc('err.not_found')));
    return;
  }
  document.title = `${p.name} · Semis`;
  const ratings = el('div', { class: 'ratings' });
  for (const r of p.ratings) {
    const box = el('div', { class: 'rating-card', 'data-key': r.key },
      el('h3', {}, gameTitle(r.key)),
      el('p', { class: 'rating-value' }, `${Math.round(r.rating)}${r.provisional ? '?' : ''}`),
      el('p', {}, tc('winsDrawsLosses', { w: r.wins, d: r.draws, l: r.losses })));
    ratings.append(box);
    void api<{ points: Point[] }>('GET', `/api/players/${id}/history?key=${r.key}`).then((h) => box.append(chart(h.points)), () => undefined);
  }
  const list = el('ul', { class: 'played' });
  const more = el('button', { type: 'button', hidden: '' }, tc('more'));
  let before = '';
  const page = async () => {
    const r = await api<{ games: Played[]; more: boolean }>('GET', `/api/players/${id}/games${before ? `?before=${before}` : ''}`);
    if (r.games.length === 0 && !before) list.append(el('li', {}, tc('noGames')));
    for (const g of r.games) {
      const level = g.opponent.ai && ['easy', 'medium', 'hard', 'perfect'].includes(g.opponent.ai) ? t(`level.${g.opponent.ai}` as Key) : g.opponent.ai;
      const opp = level ? tc('computerLevel', { level }) : g.opponent.name ?? '?';
      const change = g.change === null ? '' : ` (${g.change > 0 ? '+' : ''}${Math.round(g.change)})`;
      list.append(el('li', { 'data-game': g.id },
        el('a', { href: `/g/${g.id}`, 'data-link': '' }, `${gameTitle(g.rules)} · ${tc('vs', { name: opp })}`),
        ` · ${outcome(g)}${g.rated ? ` · ${tc('rated')}${change}` : ''} · ${dateText(dayOf(g.ended))}`));
      before = String(g.ended);
    }
    more.hidden = !r.more;
  };
  more.addEventListener('click', () => void page());
  await page().catch(() => undefined);
  root.replaceChildren(
    el('div', { class: 'profile' },
      el('h1', {}, p.name, p.username ? el('span', { class: 'username' }, ` @${p.username}`) : ''),
      p.bot && p.owner ? botLine(p.owner, p.revoked === true) : '',
      p.bot && p.accuracy ? accuracyLine(p.accuracy) : '',
      el('p', { class: 'presence' }, p.online ? tc('isOnline') : ''),
      el('h2', {}, tc('ratings')), ratings,
      el('h2', {}, tc('games')), list, more),
  );
}
