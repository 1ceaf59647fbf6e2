// What a rated game adds to the game page (docs/club.md): its badge and the rating changes once
// stored, the players' ratings beside their names, and fair play: abort before both sides have
// moved, and the countdown then the claim when the opponent has left.
import { tc } from './club-words';
import { el } from './dom';
import type { GameState, SideLetter } from './types';

// "1500?" for a provisional rating.
export function ratingSuffix(g: GameState, side: SideLetter): string {
  const r = g.seats?.[side]?.rating;
  return r ? ` (${Math.round(r.rating)}${r.provisional ? '?' : ''})` : '';
}

// The rated line: "Rated", then each player's change once the server has stored it.
export function ratedLine(g: GameState, names: Record<SideLetter, string>): HTMLElement | string {
  if (!g.rated) return '';
  const parts: (HTMLElement | string)[] = [el('span', { class: 'badge' }, tc('rated'))];
  if (g.ratings) {
    for (const side of ['S', 'N'] as const) {
      const r = g.ratings[side];
      const change = `${r.change > 0 ? '+' : ''}${Math.round(r.change)}`;
      parts.push(el('span', { class: 'rating-change', 'data-side': side }, tc('ratingChange', { name: names[side], before: Math.round(r.before), after: Math.round(r.after), change })));
    }
  }
  return el('p', { class: 'rated-line' }, ...parts);
}

// Abort and claim buttons, and the countdown to the claim (redrawn every second while shown).
export function fairPlay(g: GameState, you: SideLetter, send: (type: string) => void): HTMLElement[] {
  if (g.status !== 'playing') return [];
  const out: HTMLElement[] = [];
  if (g.can_abort) {
    const b = el('button', { type: 'button', class: 'abort' }, tc('abort'));
    b.addEventListener('click', () => send('abort'));
    out.push(b);
  }
  const other: SideLetter = you === 'S' ? 'N' : 'S';
  const at = g.seats?.[other]?.claim_at;
  if (typeof at === 'number') {
    const text = el('span', { class: 'claim-countdown', role: 'status' });
    const claim = el('button', { type: 'button', class: 'claim-win', hidden: '' }, tc('claim'));
    claim.addEventListener('click', () => send('claim'));
    // Redrawn until the claim is open, or until a newer state has replaced these elements.
    let shown = false;
    const draw = () => {
      const left = Math.ceil((at - Date.now()) / 1000);
      text.textContent = left > 0 ? tc('opponentLeft', { s: left }) : tc('opponentGone');
      claim.hidden = left > 0;
      shown = shown || text.isConnected;
      if (left > 0 && (!shown || text.isConnected)) setTimeout(draw, 500);
    };
    draw();
    out.push(text, claim);
  }
  return out;
}
