// The leaderboard of one game (/top/<key>): established ratings only, and the first player's score.
import { tc } from './club-words';
import { el } from './dom';
import { games } from './games';
import { currentLang } from './i18n';
import { api } from './net';

interface Board {
  key: string;
  players: { rank: number; id: string; name: string; rating: number; games: number }[];
  first_player: { games: number; score: number } | null;
}

export async function topPage(root: HTMLElement, key: string, navigate: (url: string) => void): Promise<void> {
  const select = el('select', { 'aria-label': tc('leaderboard') }) as HTMLSelectElement;
  for (const g of games) select.append(el('option', { value: g.preset }, g.name[currentLang()]));
  select.value = key;
  select.addEventListener('change', () => navigate(`/top/${select.value}`));
  let board: Board;
  try {
    board = await api<Board>('GET', `/api/leaderboard/${key}`);
  } catch {
    root.replaceChildren(el('p', { class: 'note' }, tc('err.not_found')));
    return;
  }
  const rows = board.players.map((p) =>
    el('tr', {}, el('td', {}, String(p.rank)), el('td', {}, el('a', { href: `/p/${p.id}`, 'data-link': '' }, p.name)), el('td', {}, String(Math.round(p.rating))), el('td', {}, String(p.games))),
  );
  const fp = board.first_player;
  root.replaceChildren(
    el('div', { class: 'top' },
      el('h1', {}, tc('leaderboard')), select,
      el('p', { class: 'note' }, tc('established')),
      // No one yet: said, rather than an empty table.
      rows.length === 0
        ? el('p', { class: 'empty-board' }, tc('noRanked'))
        : el('table', { class: 'leaderboard' },
          el('tr', {}, el('th', { scope: 'col' }, tc('rank')), el('th', { scope: 'col' }, tc('player')), el('th', { scope: 'col' }, tc('rating')), el('th', { scope: 'col' }, tc('games'))),
          ...rows),
      fp && fp.games > 0 ? el('p', { class: 'first-player' }, tc('firstPlayer', { score: fp.score, games: fp.games, pct: Math.round((100 * fp.score) / fp.games) })) : ''),
  );
}
