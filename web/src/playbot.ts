// Playing the bots (docs/bots.md): on the home page, beside the computer and a friend, the bots
// connected now (GET /api/bots/online, read again while the page is open), each with its owner;
// a board size, and one tap starts a game against the chosen bot (POST /api/games, mode bot) and
// opens it. With no bot online, a few words on how to connect one. And what a bot's profile says of
// its play against the solver (its `accuracy`).
import { errorText } from './club-words';
import { el } from './dom';
import { currentLang, format } from './i18n';
import { api, type ApiError } from './net';

const en = {
  botsHeading: 'Bots',
  botsIntro: 'Programs written by members, connected now. Pick a board, then the bot to play.',
  board: 'Board (houses × seeds)',
  playBot: 'Play {name}',
  byOwner: 'by {owner}',
  noBotOnline: 'No bot is connected right now.',
  howToConnect: 'Write your own: create a bot in “Your bots” to get its token, then connect your program with the Kalah Game Protocol (TCP port 2671, or a WebSocket at /kgp) and send “set auth:token” with the token.',
  yourBots: 'Your bots',
  botGone: '{name} has just left. Pick another bot.',
  botsUnknown: 'The list of bots could not be read.',
  accuracy: 'Perfect play on {pct} of {proven} proven moves, over {games}.',
  accuracyOne: 'Perfect play on {pct} of 1 proven move, over {games}.',
  gamesOne: '1 game reviewed',
  gamesMany: '{n} games reviewed',
  noProven: 'The solver has not proven any of its moves yet.',
};
type PlayBotKey = keyof typeof en;

const fr: Record<PlayBotKey, string> = {
  botsHeading: 'Robots',
  botsIntro: 'Des programmes écrits par des membres, connectés en ce moment. Choisissez un plateau, puis le robot à affronter.',
  board: 'Plateau (cases × graines)',
  playBot: 'Jouer contre {name}',
  byOwner: 'par {owner}',
  noBotOnline: 'Aucun robot n’est connecté en ce moment.',
  howToConnect: 'Écrivez le vôtre : créez un robot dans « Vos robots » pour obtenir son jeton, puis connectez votre programme par le protocole Kalah Game Protocol (port TCP 2671, ou WebSocket à l’adresse /kgp) et envoyez « set auth:token » suivi du jeton.',
  yourBots: 'Vos robots',
  botGone: '{name} vient de partir. Choisissez un autre robot.',
  botsUnknown: 'La liste des robots n’a pas pu être lue.',
  accuracy: 'Jeu parfait sur {pct} de {proven} coups prouvés, en {games}.',
  accuracyOne: 'Jeu parfait sur {pct} de 1 coup prouvé, en {games}.',
  gamesOne: '1 partie analysée',
  gamesMany: '{n} parties analysées',
  noProven: 'Le solveur n’a encore prouvé aucun de ses coups.',
};

function tp(key: PlayBotKey, params: Record<string, string | number> = {}): string {
  return format((currentLang() === 'fr' ? fr : en)[key], params);
}

// The board sizes bots' tournaments use: houses × seeds, Kalah's own first.
const boards: [number, number][] = [[6, 4], [6, 6], [8, 8], [10, 10], [12, 12]];
const rulesOf = (houses: number, seeds: number) => (houses === 6 && seeds === 4 ? 'kalah' : `kalah,houses=${houses},seeds=${seeds}`);

interface OnlineBot {
  id: string;
  name: string;
  owner: { id: string; name: string };
}

const kRefreshMs = 10000;

// The home page's "Bots" box. `online`: whether the server answers (without one there are no bots).
export function playBotBox(navigate: (url: string) => void, online: boolean): HTMLElement {
  const size = el('select', { id: 'bot-board' }) as HTMLSelectElement;
  for (const [h, s] of boards) size.append(el('option', { value: `${h}x${s}` }, `${h} × ${s}`));
  const list = el('ul', { class: 'bots-online' });
  const status = el('p', { class: 'note bot-status', role: 'status' });
  const box = el('div', { class: 'mode-box bots-box' },
    el('h3', {}, tp('botsHeading')),
    el('p', { class: 'note' }, tp('botsIntro')),
    el('label', { class: 'field', for: 'bot-board' }, tp('board'), size),
    list, status);

  const none = () => [
    el('li', { class: 'no-bot' },
      el('p', {}, tp('noBotOnline')),
      el('p', { class: 'note' }, tp('howToConnect')),
      el('a', { href: '/bots', 'data-link': '', class: 'bots-doc' }, tp('yourBots'))),
  ];

  const start = async (bot: OnlineBot, button: HTMLButtonElement) => {
    const [houses, seeds] = size.value.split('x').map(Number);
    status.textContent = '';
    button.disabled = true;
    try {
      const g = await api<{ id: string; link?: string }>('POST', '/api/games', { rules: rulesOf(houses, seeds), mode: 'bot', bot: bot.name, side: 'random' });
      navigate(g.link ?? `/g/${g.id}`);
    } catch (e) {
      const code = (e as ApiError)?.code ?? '';
      status.textContent = code === 'unavailable' ? tp('botGone', { name: bot.name }) : errorText(code);
      button.disabled = false;
      void load();
    }
  };

  const row = (bot: OnlineBot) => {
    const play = el('button', { type: 'button', class: 'mode play-bot', 'data-bot': bot.name }, tp('playBot', { name: bot.name })) as HTMLButtonElement;
    play.addEventListener('click', () => void start(bot, play));
    return el('li', { class: 'bot-online' }, play, ' ',
      el('a', { href: `/p/${bot.owner.id}`, 'data-link': '', class: 'bot-owner' }, tp('byOwner', { owner: bot.owner.name })));
  };

  let shown = '';
  async function load(): Promise<void> {
    if (!online) {
      list.replaceChildren(...none());
      return;
    }
    try {
      const bots = (await api<{ bots: OnlineBot[] }>('GET', '/api/bots/online')).bots;
      // Redrawn only when it changed, so a refresh never moves the focus away from a bot's button.
      const now = JSON.stringify(bots);
      if (now === shown) return;
      shown = now;
      list.replaceChildren(...(bots.length === 0 ? none() : bots.map(row)));
    } catch {
      shown = '';
      list.replaceChildren(el('li', { class: 'note' }, tp('botsUnknown')));
    }
  }
  void load();
  // Read again while the box is on the page; the timer ends with it.
  const timer = window.setInterval(() => {
    if (!box.isConnected) window.clearInterval(timer);
    else if (document.visibilityState === 'visible') void load();
  }, kRefreshMs);
  return box;
}

export interface Accuracy {
  perfect: number;
  proven: number;
  games: number;
}

// "Perfect play on 87% of 240 proven moves, over 12 games reviewed." (French: "87 %").
export function accuracyLine(a: Accuracy): HTMLElement {
  if (a.proven <= 0) return el('p', { class: 'bot-accuracy' }, tp('noProven'));
  const pct = new Intl.NumberFormat(currentLang() === 'fr' ? 'fr-FR' : 'en-GB', { style: 'percent', maximumFractionDigits: 0 }).format(Math.floor((100 * a.perfect) / a.proven) / 100);  // 99.6% is not 100%
  const games = a.games === 1 ? tp('gamesOne') : tp('gamesMany', { n: a.games });
  return el('p', { class: 'bot-accuracy' }, tp(a.proven === 1 ? 'accuracyOne' : 'accuracy', { pct, proven: a.proven, games }));
}
