// Bots' contests (docs/bots.md, "Matches and tournaments"): the bots' leaderboard of a board
// (/bots/top/<key>, key bots-kalah-HxS), the recent tournaments (/bots/tournaments) and a
// tournament's or match's results table (/bots/tournaments/<id>, /bots/matches/<id>), read from
// the server's API; the table is the server's, the page only shows it.
import './contests.css';
import { errorText } from './club-words';
import { el } from './dom';
import { currentLang, format } from './i18n';
import { api, type ApiError } from './net';

const en = {
  botsBoard: 'Bots’ leaderboard',
  botsBoardAbout: 'Games between bots are rated in a pool of their own for each board, apart from people’s ratings.',
  houses: 'Houses',
  seeds: 'Seeds',
  noRatedBots: 'No bot has played a rated game on this board yet.',
  rank: 'Rank',
  bot: 'Bot',
  owner: 'Owner',
  rating: 'Rating',
  games: 'Games',
  tournaments: 'Bots’ tournaments',
  noTournaments: 'No tournament yet.',
  tournament: 'Tournament',
  match: 'Match',
  running: 'In progress',
  over: 'Finished',
  board: 'Kalah, {h} houses, {s} seeds',
  leader: 'Leader: {name}',
  table: 'Table',
  points: 'Points',
  wins: 'Won',
  draws: 'Drawn',
  losses: 'Lost',
  seedsFor: 'Seeds for',
  seedsAgainst: 'Seeds against',
  gamesTitle: 'Games',
  round: 'Round {n}',
  south: 'South',
  north: 'North',
  result: 'Result',
  pending: 'to come',
  playing: 'playing',
  watch: 'watch',
  draw: 'draw',
  wins1: '{name} wins',
  'why.absent': 'not connected',
  'why.forfeit': 'forfeit',
  'why.resign': 'resigned',
  'why.time': 'on time',
  'why.abandoned': 'abandoned',
  score: 'Score: {a} – {b}',
  toBoard: 'Bots’ leaderboard',
  toTournaments: 'Tournaments',
};
type ContestKey = keyof typeof en;

const fr: Record<ContestKey, string> = {
  botsBoard: 'Classement des robots',
  botsBoardAbout: 'Les parties entre robots sont classées à part pour chaque plateau, sans jamais se mêler au classement des joueurs.',
  houses: 'Cases',
  seeds: 'Graines',
  noRatedBots: 'Aucun robot n’a encore joué de partie classée sur ce plateau.',
  rank: 'Rang',
  bot: 'Robot',
  owner: 'Propriétaire',
  rating: 'Classement',
  games: 'Parties',
  tournaments: 'Tournois de robots',
  noTournaments: 'Pas encore de tournoi.',
  tournament: 'Tournoi',
  match: 'Match',
  running: 'En cours',
  over: 'Terminé',
  board: 'Kalah, {h} cases, {s} graines',
  leader: 'En tête : {name}',
  table: 'Classement',
  points: 'Points',
  wins: 'Gagnées',
  draws: 'Nulles',
  losses: 'Perdues',
  seedsFor: 'Graines pour',
  seedsAgainst: 'Graines contre',
  gamesTitle: 'Parties',
  round: 'Tour {n}',
  south: 'Sud',
  north: 'Nord',
  result: 'Résultat',
  pending: 'à venir',
  playing: 'en cours',
  watch: 'regarder',
  draw: 'nulle',
  wins1: '{name} gagne',
  'why.absent': 'non connecté',
  'why.forfeit': 'forfait',
  'why.resign': 'abandon',
  'why.time': 'au temps',
  'why.abandoned': 'délaissée',
  score: 'Score : {a} – {b}',
  toBoard: 'Classement des robots',
  toTournaments: 'Tournois',
};

export function tk(key: ContestKey, params: Record<string, string | number> = {}): string {
  return format((currentLang() === 'fr' ? fr : en)[key], params);
}

function problem(e: unknown): string {
  return errorText((e as ApiError)?.code ?? '');
}

interface BoardLine { rank: number; id: string; name: string; owner: string; rating: number; provisional: boolean; games: number }
interface ContestGame {
  round: number; south: string; north: string; state: 'pending' | 'playing' | 'over'; game: string | null;
  winner?: 'S' | 'N' | 'draw'; seeds?: [number, number]; reason?: string;
}
interface TableLine {
  rank: number; id: string; name: string; points: number; games: number; wins: number; draws: number; losses: number;
  seeds_for: number; seeds_against: number;
}
interface Contest {
  id: string; kind: 'match' | 'tournament'; name: string; rules: string; key: string | null; status: 'running' | 'over';
  games: ContestGame[]; table: TableLine[]; score?: [number, number];
}
interface ContestLine { id: string; kind: string; name: string; rules: string; status: 'running' | 'over'; bots: string[]; leader: string | null }

// "kalah,houses=4,seeds=3" or a key "bots-kalah-4x3": the board's words.
function boardWords(text: string): string {
  const h = /houses=(\d+)/.exec(text)?.[1] ?? /-(\d+)x/.exec(text)?.[1] ?? '6';
  const s = /seeds=(\d+)/.exec(text)?.[1] ?? /x(\d+)$/.exec(text)?.[1] ?? '4';
  return tk('board', { h, s });
}

export function nav(): HTMLElement {
  return el('p', { class: 'contest-nav' },
    el('a', { href: '/bots/top/bots-kalah-6x4', 'data-link': '' }, tk('toBoard')), ' · ',
    el('a', { href: '/bots/tournaments', 'data-link': '' }, tk('toTournaments')));
}

function numberSelect(label: string, from: number, to: number, value: number): HTMLSelectElement {
  const s = el('select', { 'aria-label': label }) as HTMLSelectElement;
  for (let n = from; n <= to; ++n) s.append(el('option', { value: String(n) }, String(n)));
  s.value = String(value);
  return s;
}

export async function botsBoardPage(root: HTMLElement, key: string, navigate: (url: string) => void): Promise<void> {
  document.title = `${tk('botsBoard')} · Semis`;
  const size = /^bots-kalah-(\d+)x(\d+)$/.exec(key);
  const houses = numberSelect(tk('houses'), 4, 12, Number(size?.[1] ?? 6));
  const seeds = numberSelect(tk('seeds'), 3, 12, Number(size?.[2] ?? 4));
  const go = () => navigate(`/bots/top/bots-kalah-${houses.value}x${seeds.value}`);
  houses.addEventListener('change', go);
  seeds.addEventListener('change', go);
  const body = el('div', {});
  root.replaceChildren(el('section', { class: 'contest-page' },
    el('h1', {}, tk('botsBoard')), nav(), el('p', { class: 'note' }, tk('botsBoardAbout')),
    el('p', { class: 'board-size' }, el('label', {}, tk('houses'), ' ', houses), ' ', el('label', {}, tk('seeds'), ' ', seeds)),
    body));
  try {
    const board = await api<{ key: string; bots: BoardLine[] }>('GET', `/api/bots/leaderboard/${key}`);
    body.replaceChildren(board.bots.length === 0
      ? el('p', { class: 'empty-board' }, tk('noRatedBots'))
      : el('div', { class: 'table-scroll' }, el('table', { class: 'leaderboard bots-board' },
        el('tr', {}, ...[tk('rank'), tk('bot'), tk('owner'), tk('rating'), tk('games')].map((h) => el('th', { scope: 'col' }, h))),
        ...board.bots.map((b) => el('tr', {},
          el('td', {}, String(b.rank)),
          el('td', {}, el('a', { href: `/p/${b.id}`, 'data-link': '' }, b.name)),
          el('td', {}, b.owner),
          el('td', {}, `${Math.round(b.rating)}${b.provisional ? '?' : ''}`),
          el('td', {}, String(b.games)))))));
  } catch (e) {
    body.replaceChildren(el('p', { class: 'status' }, problem(e)));
  }
}

export async function tournamentsPage(root: HTMLElement): Promise<void> {
  document.title = `${tk('tournaments')} · Semis`;
  const list = el('ul', { class: 'contests' });
  root.replaceChildren(el('section', { class: 'contest-page' }, el('h1', {}, tk('tournaments')), nav(), list));
  try {
    const { tournaments } = await api<{ tournaments: ContestLine[] }>('GET', '/api/bots/tournaments');
    list.replaceChildren(...(tournaments.length === 0
      ? [el('li', { class: 'note' }, tk('noTournaments'))]
      : tournaments.map((c) => el('li', { class: 'contest-line' },
        el('a', { href: `/bots/tournaments/${c.id}`, 'data-link': '' }, c.name), ' ',
        el('span', { class: `contest-status ${c.status}` }, tk(c.status)),
        el('p', { class: 'note' }, `${boardWords(c.rules)} · ${c.bots.join(', ')}`),
        c.leader ? el('p', { class: 'note' }, tk('leader', { name: c.leader })) : ''))));
  } catch (e) {
    list.replaceChildren(el('li', { class: 'status' }, problem(e)));
  }
}

function resultText(g: ContestGame): string {
  if (g.state !== 'over') return tk(g.state);
  const who = g.winner === 'draw' ? tk('draw') : tk('wins1', { name: g.winner === 'S' ? g.south : g.north });
  const seeds = g.seeds ? ` ${g.seeds[0]}–${g.seeds[1]}` : '';
  const why = g.reason && `why.${g.reason}` in en ? ` (${tk(`why.${g.reason}` as ContestKey)})` : '';
  return who + seeds + why;
}

// A tournament's or a match's page: its table, then its games round by round (refreshed while it runs).
export async function contestPage(root: HTMLElement, kind: 'match' | 'tournament', id: string): Promise<() => void> {
  let timer = 0;
  const render = async (): Promise<void> => {
    let c: Contest;
    try {
      c = await api<Contest>('GET', `/api/bots/${kind === 'match' ? 'matches' : 'tournaments'}/${id}`);
    } catch (e) {
      root.replaceChildren(el('section', { class: 'contest-page' }, nav(), el('p', { class: 'status' }, problem(e))));
      return;
    }
    const title = c.kind === 'match' ? `${tk('match')}: ${c.table.map((l) => l.name).join(' – ')}` : c.name;
    document.title = `${title} · Semis`;
    const heads = [tk('rank'), tk('bot'), tk('points'), tk('games'), tk('wins'), tk('draws'), tk('losses'), tk('seedsFor'), tk('seedsAgainst')];
    const table = el('div', { class: 'table-scroll' }, el('table', { class: 'contest-table' },
      el('tr', {}, ...heads.map((h) => el('th', { scope: 'col' }, h))),
      ...c.table.map((l) => el('tr', {},
        el('td', {}, String(l.rank)),
        el('td', {}, el('a', { href: `/p/${l.id}`, 'data-link': '' }, l.name)),
        el('td', { class: 'points' }, String(l.points).replace('.5', currentLang() === 'fr' ? ',5' : '.5')),
        ...[l.games, l.wins, l.draws, l.losses, l.seeds_for, l.seeds_against].map((n) => el('td', {}, String(n)))))));
    const games = el('ol', { class: 'contest-games' }, ...c.games.map((g) => el('li', { class: `contest-game ${g.state}` },
      el('span', { class: 'round' }, tk('round', { n: g.round })), ' ',
      el('span', { class: 'pair' }, `${g.south} (${tk('south')}) – ${g.north} (${tk('north')})`), ' ',
      el('span', { class: 'result' }, resultText(g)),
      g.game ? el('span', {}, ' ', el('a', { href: `/g/${g.game}`, 'data-link': '' }, tk('watch'))) : '')));
    root.replaceChildren(el('section', { class: 'contest-page' },
      el('h1', {}, title), nav(),
      el('p', { class: 'note' }, `${boardWords(c.rules)} · `, el('span', { class: `contest-status ${c.status}` }, tk(c.status))),
      c.score ? el('p', { class: 'match-score' }, tk('score', { a: c.score[0], b: c.score[1] })) : '',
      el('h2', {}, tk('table')), table,
      el('h2', {}, tk('gamesTitle')), games));
    if (c.status === 'running') timer = window.setTimeout(() => void render(), 2000);
  };
  await render();
  return () => window.clearTimeout(timer);
}
