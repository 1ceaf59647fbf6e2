// A player's profile (/p/<id>): each rating with its history as a small chart, the win/draw/loss
// counts, and the finished games, each a link to its page.
import { tc } from './club-words';
import { el } from './dom';
import { api } from './net';
import { gameName } from './site';

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

// A line through the rating points, scaled to the box; the newest on the right.
function chart(points: { rating: number }[]): Element {
  const w = 320, h = 90, pad = 6;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  if (points.length === 0) return svg;
  const lo = Math.min(...points.map((p) => p.rating)) - 10;
  const hi = Math.max(...points.map((p) => p.rating)) + 10;
  const x = (i: number) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (r: number) => h - pad - ((r - lo) * (h - 2 * pad)) / (hi - lo);
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  for (const [i, p] of points.entries()) {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', x(i).toFixed(1));
    dot.setAttribute('cy', y(p.rating).toFixed(1));
    dot.setAttribute('r', '2.5');
    svg.append(dot);
  }
  return svg;
}

function outcome(g: Played): string {
  if (!g.result) return '';
  if (g.result.reason === 'aborted') return '—';
  if (g.result.winner === 'draw') return '½';
  return g.result.winner === g.side ? '1' : '0';
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
      el('h3', {}, gameName(r.key)),
      el('p', { class: 'rating-value' }, `${Math.round(r.rating)}${r.provisional ? '?' : ''}`),
      el('p', {}, tc('winsDrawsLosses', { w: r.wins, d: r.draws, l: r.losses })));
    ratings.append(box);
    void api<{ points: { rating: number }[] }>('GET', `/api/players/${id}/history?key=${r.key}`).then((h) => box.append(chart(h.points)), () => undefined);
  }
  const list = el('ul', { class: 'played' });
  const more = el('button', { type: 'button', hidden: '' }, tc('more'));
  let before = '';
  const page = async () => {
    const r = await api<{ games: Played[]; more: boolean }>('GET', `/api/players/${id}/games${before ? `?before=${before}` : ''}`);
    if (r.games.length === 0 && !before) list.append(el('li', {}, tc('noGames')));
    for (const g of r.games) {
      const opp = g.opponent.ai ? tc('computerLevel', { level: g.opponent.ai }) : g.opponent.name ?? '?';
      const change = g.change === null ? '' : ` (${g.change > 0 ? '+' : ''}${Math.round(g.change)})`;
      list.append(el('li', { 'data-game': g.id },
        el('a', { href: `/g/${g.id}`, 'data-link': '' }, `${gameName(g.rules)} · ${tc('vs', { name: opp })}`),
        ` · ${outcome(g)}${g.rated ? ` · ${tc('rated')}${change}` : ''}`));
      before = String(g.ended);
    }
    more.hidden = !r.more;
  };
  more.addEventListener('click', () => void page());
  await page().catch(() => undefined);
  root.replaceChildren(
    el('div', { class: 'profile' },
      el('h1', {}, p.name, p.username ? el('span', { class: 'username' }, ` @${p.username}`) : ''),
      el('p', { class: 'presence' }, p.online ? tc('isOnline') : ''),
      el('h2', {}, tc('ratings')), ratings,
      el('h2', {}, tc('games')), list, more),
  );
}
