// Pieces of the game page kept out of game.ts: buttons that ask before they act, the words for a
// set's and a match's end, and the events that deserve a sentence (an offer declined, a rematch
// asked), and the legend of the board's rings.
import { el } from './dom';
import { t } from './i18n';
import { whyText } from './words';
import type { GameState, Result, SideLetter, WirePosition } from './types';

// A button that acts on a second press: the first turns it into "Confirm…" for a few seconds,
// with a Cancel beside it, so one stray tap never ends a game.
export function confirmButton(label: string, act: () => void): HTMLElement {
  const wrap = el('span', { class: 'confirm' });
  const first = el('button', { type: 'button' }, label) as HTMLButtonElement;
  let timer = 0;
  const reset = () => {
    clearTimeout(timer);
    wrap.replaceChildren(first);
  };
  first.addEventListener('click', () => {
    const yes = el('button', { type: 'button', class: 'danger' }, t('confirmAction', { action: label })) as HTMLButtonElement;
    const no = el('button', { type: 'button' }, t('cancel'));
    yes.addEventListener('click', () => {
      reset();
      act();
    });
    no.addEventListener('click', () => {
      reset();
      first.focus();
    });
    wrap.replaceChildren(yes, no);
    yes.focus();
    timer = window.setTimeout(reset, 6000);
  });
  wrap.append(first);
  return wrap;
}

// The result of a finished set from its last position: the higher store (or captured count) wins.
export function setResultOf(end: WirePosition): Result {
  const [a, b] = end.stores;
  return { winner: a > b ? 'S' : b > a ? 'N' : 'draw', score: [a, b] };
}

export function setOverText(k: number, r: Result, names: Record<SideLetter, string>, points?: number[]): string {
  const [a, b] = r.score ?? [0, 0];
  const head =
    r.winner === 'draw' ? t('setDrawn', { k, a, b }) : t('setWon', { k, who: names[r.winner], a: Math.max(a, b), b: Math.min(a, b) });
  return points ? `${head} · ${t('points', { a: points[0], b: points[1] })}` : head;
}

// A match's end: decided by its points; the last set's score beside them.
export function matchOverText(s: GameState, names: Record<SideLetter, string>): string {
  const [pa, pb] = s.points ?? [0, 0];
  const winner = s.result?.winner;
  const head = winner === 'S' || winner === 'N' ? t('matchWon', { who: names[winner], a: Math.max(pa, pb), b: Math.min(pa, pb) }) : t('matchDrawn', { a: pa, b: pb });
  const last = s.set_results?.[s.set_results.length - 1] ?? s.result;
  const why = whyText(s.result);
  if (!last?.score) return head + why;
  // The last set named by its winner, the winner's score first (as the match's).
  const [a, b] = last.score;
  const lastSet = last.winner === 'S' || last.winner === 'N'
    ? t('lastSetWon', { who: names[last.winner], a: Math.max(a, b), b: Math.min(a, b) })
    : t('lastSetDrawn', { a, b });
  return `${head}${why} · ${lastSet}`;
}

// A sentence for an event the board does not show, or null.
export function eventSentence(kind: string, side: SideLetter | undefined, you: string, names: Record<SideLetter, string>): string | null {
  if (!side) return null;
  if (kind === 'draw_declined' && side !== you) return t('drawDeclined', { who: names[side] });
  if (kind === 'rematch_offered' && side !== you) return t('rematchOffered', { who: names[side] });
  return null;
}

// A game on this device: take back a move (against the computer, back to the player's own last
// move), start again, or once it is over play a rematch with the sides swapped. The moves live in
// the URL (#m=), so each of these rewrites it and `restart` replays it.
export function localGameButtons(s: GameState, aiSide: SideLetter | null, humanSide: SideLetter, restart: () => void,
  rules: string, ai: string | undefined): HTMLElement[] {
  const plies = s.plies ?? [];
  const moves = plies.map((p) => p.move);
  const go = (kept: number[]) => {
    history.replaceState(null, '', `${location.pathname}${location.search}#m=${kept.join(',')}`);
    restart();
  };
  const out: HTMLElement[] = [];
  let back = plies.length - 1;
  if (aiSide) while (back >= 0 && plies[back].mover === aiSide) back -= 1;
  if (s.status === 'playing' && back >= 0) {
    const undo = el('button', { type: 'button', class: 'undo' }, t('undo'));
    undo.addEventListener('click', () => go(moves.slice(0, back)));
    out.push(undo);
  }
  if (plies.length > 0) out.push(confirmButton(t('newGame'), () => go([])));
  if (s.status === 'over') {
    const again = el('button', { type: 'button', class: 'rematch' }, t('rematch'));
    again.addEventListener('click', () => {
      const side = ai ? `&ai=${ai}&side=${humanSide === 'S' ? 'N' : 'S'}` : '';
      location.assign(`/?local=${encodeURIComponent(rules)}${side}#m=`);
    });
    out.push(again);
  }
  return out;
}

// What each ring on the board means (style.css draws the same rings on the swatches).
export function boardLegend(): HTMLElement {
  const item = (cls: string, key: 'legend.legal' | 'legend.last' | 'legend.lands' | 'legend.taken' | 'legend.hint') =>
    el('li', {}, el('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), t(key));
  return el('div', { class: 'legend' }, el('span', {}, t('legend.title')),
    el('ul', {}, item('legal', 'legend.legal'), item('last-sown', 'legend.last'), item('lands', 'legend.lands'), item('taken', 'legend.taken'), item('hint', 'legend.hint')));
}
