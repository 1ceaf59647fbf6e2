// The daily challenge (/daily/<game>[?date=YYYY-MM-DD], docs/study.md): the day's proven endgame,
// played here against the perfect player. Both the judge and the perfect player are the C++ core
// (sm_values: every move's exact value); the server checks the finished attempt again and keeps
// the first attempt of the day of a signed-in player (his streak).
import type { BoardView } from './board';
import { makeBoard } from './board-setup';
import { Core, type LocalGame } from './core';
import { el } from './dom';
import { gameTitle } from './game-title';
import { presetOf } from './games';
import { dateText, labelled, t } from './i18n';
import { api } from './net';
import { ts, valueText } from './study-words';
import type { MoveValue, Puzzle, SideLetter } from './types';

// Enough for any daily endgame to be proven (they are generated with far fewer seeds).
const JUDGE_NODES = 4_000_000;

interface AttemptAnswer {
  solved: boolean;
  value: number;
  line: number[];
  recorded: boolean;
  result?: number;
  failed_at?: number;
  best?: number;
  streak: number | null;
}

function goalText(value: number): string {
  return value > 0 ? ts('goalWin', { n: value }) : ts('goalDraw');
}

function streakText(n: number | null | undefined): string {
  if (n === null || n === undefined) return ts('streakNone');
  return n === 0 ? ts('streak0') : ts('streak', { n });
}

function bestOf(moves: MoveValue[]): MoveValue {
  // The lowest house among the best values: the perfect player's choice, as the server's line.
  return moves.reduce((a, b) => (b.value > a.value || (b.value === a.value && b.house < a.house) ? b : a));
}

export async function dailyPage(root: HTMLElement, key: string | null, date: string | null): Promise<void> {
  const core = await Core.load();
  const page = el('div', { class: 'daily-page' });
  root.replaceChildren(page);
  let index: { games: string[]; today: string; first: string };
  let puzzle: Puzzle;
  try {
    index = await api('GET', '/api/daily');
    const game = key && index.games.includes(key) ? key : index.games[0];
    puzzle = await api('GET', `/api/daily/${game}${date ? `?date=${encodeURIComponent(date)}` : ''}`);
  } catch (e) {
    const message = (e as { message?: string }).message ?? '';
    page.replaceChildren(el('h1', {}, ts('daily')), el('p', { class: 'status', role: 'status' }, message || ts('dailyNone')));
    return;
  }
  const gameKey = presetOf(puzzle.rules);
  document.title = `${ts('daily')} · ${gameTitle(puzzle.rules)} · Semis`;
  const player = puzzle.position.to_move as SideLetter;
  const opponent: SideLetter = player === 'S' ? 'N' : 'S';
  const sideName = player === 'S' ? t('south') : t('north');

  const others = el('nav', { class: 'daily-games', 'aria-label': ts('dailyOther') },
    ...index.games.map((g) => el('a', { href: `/daily/${g}`, 'data-link': '', 'aria-current': g === gameKey ? 'page' : 'false' }, gameTitle(g))));
  const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const outcome = el('div', { class: 'daily-outcome', hidden: '' });
  const holder = el('div', { class: 'board-holder' });
  const streakLine = el('p', { class: 'streak', 'aria-live': 'polite' }, streakText(puzzle.streak));
  page.replaceChildren(
    el('div', { class: 'game-head' }, el('a', { href: '/', class: 'back', 'data-link': '' }, '← ' + t('back')),
      el('h1', { class: 'game-title' }, `${ts('daily')} · ${gameTitle(puzzle.rules)} · ${dateText(puzzle.date)}`)),
    others,
    el('p', { class: 'daily-intro' }, ts('dailyIntro', { side: sideName, goal: goalText(puzzle.value) })),
    streakLine,
    puzzle.result ? el('p', { class: 'already' }, ts('alreadyDone', { what: puzzle.result.solved ? ts('archiveSolved') : ts('archiveMissed') })) : '',
    holder,
    status,
    outcome,
  );

  let practice = Boolean(puzzle.result);
  let board: BoardView | null = null;
  let game: LocalGame | null = null;
  let moves: number[] = [];
  let playerMoves = 0; // the player's own sowings, for the share text
  let busy = false;

  const names: Record<SideLetter, string> = { S: '', N: '' };
  names[player] = `${sideName} (${t('you')})`;
  names[opponent] = t('computer');

  const start = () => {
    const made = core.newGameAt(puzzle.position_text);
    if (typeof made === 'string') {
      status.textContent = made;
      return;
    }
    game = made;
    moves = [];
    playerMoves = 0;
    page.dataset.plies = '0';
    busy = false;
    outcome.hidden = true;
    outcome.replaceChildren();
    board = makeBoard(core, puzzle.rules, puzzle.position.houses.length / 2, player, names);
    board.onPlay = (h) => void play(h);
    holder.replaceChildren(board.el);
    const s = game.state();
    board.setPosition(s.position);
    board.setLegal(player, s.legal);
    status.textContent = ts('dailyYourTurn');
    page.dataset.ready = '1';
  };

  const valuesNow = (): MoveValue[] | null => {
    if (!game) return null;
    const s = game.state();
    const v = core.values(puzzle.rules, s.position, JUDGE_NODES);
    return v.error === undefined ? v.moves : null;
  };

  // One sowing, animated; false when the core refuses it.
  const sow = async (house: number): Promise<boolean> => {
    if (!game || !board) return false;
    const r = game.play(house);
    if (r.error !== undefined) return false;
    moves.push(house);
    page.dataset.plies = String(moves.length);
    board.setLegal(null, []);
    await board.animate(r.event.trace, r.event.position);
    return true;
  };

  const play = async (house: number) => {
    if (busy || !game || !board) return;
    busy = true;
    page.dataset.ready = '0';
    board.setLegal(null, []);
    status.textContent = ts('dailyChecking');
    await new Promise((r) => setTimeout(r, 0)); // let the status show before the judge works
    const before = valuesNow();
    playerMoves += 1;
    if (!before || !(await sow(house))) {
      busy = false;
      start();
      return;
    }
    const best = bestOf(before);
    const mine = before.find((m) => m.house === house);
    if (mine && mine.value < best.value) return finish(moves.length - 1, house, mine.value, best);
    // The perfect player answers, as long as it is his turn.
    while (game.state().status === 'playing' && game.state().position.to_move === opponent) {
      status.textContent = ts('dailyThinking');
      await new Promise((r) => setTimeout(r, 250));
      const reply = valuesNow();
      if (!reply || !(await sow(bestOf(reply).house))) break;
    }
    const s = game.state();
    if (s.status !== 'playing') return finish(-1, 0, 0, null);
    board.setLegal(player, s.legal);
    status.textContent = ts('dailyYourTurn');
    page.dataset.ready = '1';
    busy = false;
  };

  const finish = async (failedAt: number, move: number, got: number, best: MoveValue | null) => {
    board?.setLegal(null, []);
    let answer: AttemptAnswer | null = null;
    try {
      answer = await api<AttemptAnswer>('POST', `/api/daily/${gameKey}/${puzzle.date}/attempt`, { moves });
    } catch (e) {
      status.textContent = (e as { message?: string }).message ?? '';
    }
    // Under a repetition rule (Awalé) moves that each kept the value can still go round until the
    // rule splits the seeds below it: the server's check (study::checkAttempt) says where.
    const wentRound = failedAt < 0 && answer !== null && !answer.solved && answer.failed_at !== undefined;
    const missedAt = wentRound ? answer!.failed_at! : failedAt;
    const solved = missedAt < 0;
    const parts: (HTMLElement | string)[] = [];
    if (solved) {
      status.textContent = ts('dailySolved', { result: valueText(answer?.result ?? puzzle.value, true) });
    } else if (wentRound) {
      status.textContent = ts('dailyWentRound', { move: moves[missedAt] });
    } else if (best) {
      status.textContent = ts('dailyFailed', { move, got: valueText(got, true), best: best.house, want: valueText(best.value, true) });
    }
    const share = solved
      ? ts('shareSolved', { game: gameTitle(puzzle.rules), date: puzzle.date, moves: playerMoves })
      : ts('shareFailed', { game: gameTitle(puzzle.rules), date: puzzle.date, at: missedAt + 1 });
    const copy = el('button', { type: 'button', class: 'share-copy' }, ts('dailyShare'));
    const shareText = el('p', { class: 'share-text' }, share);
    copy.addEventListener('click', () => {
      void navigator.clipboard?.writeText(share).then(() => (copy.textContent = ts('dailyCopied')), () => {});
    });
    const again = el('button', { type: 'button', class: 'try-again' }, ts('dailyTryAgain'));
    again.addEventListener('click', () => {
      practice = true;
      start();
      status.textContent = `${ts('notRecorded')} ${ts('dailyYourTurn')}`;
    });
    parts.push(shareText, copy);
    if (answer) {
      parts.push(el('p', { class: 'solution' }, labelled(ts('dailyLine'), answer.line.join(' · '))));
      // The streak after this attempt replaces the one shown above: one streak line on the page.
      streakLine.textContent = streakText(answer.streak);
    }
    parts.push(again);
    if (!practice) parts.push(el('p', { class: 'note' }, ts('dailyRetryNote')));
    outcome.replaceChildren(...parts);
    outcome.hidden = false;
    page.dataset.ready = 'done';
    again.focus();
  };

  start();

  // Yesterday's solution, and the days before.
  if (puzzle.yesterday?.line) {
    const y = puzzle.yesterday;
    page.append(el('section', { class: 'yesterday' },
      el('h2', {}, ts('yesterday')),
      el('p', {}, el('a', { href: `/daily/${gameKey}?date=${y.date}`, 'data-link': '' }, dateText(y.date)), ` · ${goalText(y.value)} · ${labelled(ts('dailyLine'), y.line!.join(' · '))}`)));
  }
  try {
    const archive = await api<{ days: { date: string; result?: { solved: boolean } }[] }>('GET', `/api/daily/${gameKey}/archive`);
    if (archive.days.length > 0) {
      page.append(el('section', { class: 'archive' }, el('h2', {}, ts('archive')),
        el('ul', {}, ...archive.days.map((d) => el('li', {},
          el('a', { href: `/daily/${gameKey}?date=${d.date}`, 'data-link': '' }, dateText(d.date)),
          d.result ? ` · ${d.result.solved ? ts('archiveSolved') : ts('archiveMissed')}` : '')))));
    }
  } catch {
    // The archive is a convenience: the puzzle stands without it.
  }
}
