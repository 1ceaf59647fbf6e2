// A game stepped through move by move, during play or after it: the positions are recomputed from
// the plies by the rules core (WASM), never by this page's own logic.
import type { Core } from './core';
import { el } from './dom';
import type { GameState, WirePosition } from './types';

export function replayStepper(core: Core, s: GameState, show: (pos: WirePosition, k: number, last: number) => void): HTMLElement | null {
  const made = core.newGame(s.rules);
  if (typeof made === 'string') return null;
  const positions: WirePosition[] = [made.state().position];
  for (const p of s.plies ?? []) {
    const r = made.play(p.move);
    if (r.error !== undefined) break; // (a swap or a split is not a ply: the replay stops there)
    positions.push(r.state.position);
  }
  if (positions.length < 2) return null;
  let k = positions.length - 1;
  const label = el('span', { class: 'replay-at' });
  const go = (to: number) => {
    k = Math.max(0, Math.min(positions.length - 1, to));
    label.textContent = `${k} / ${positions.length - 1}`;
    show(positions[k], k, positions.length - 1);
  };
  const button = (text: string, cls: string, to: () => number) => {
    const b = el('button', { type: 'button', class: cls, 'aria-label': cls }, text);
    b.addEventListener('click', () => go(to()));
    return b;
  };
  label.textContent = `${k} / ${positions.length - 1}`;
  return el('div', { class: 'replay' },
    button('⏮', 'replay-first', () => 0),
    button('◀', 'replay-back', () => k - 1),
    label,
    button('▶', 'replay-next', () => k + 1),
    button('⏭', 'replay-last', () => positions.length - 1));
}
