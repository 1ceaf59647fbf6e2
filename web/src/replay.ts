// A game stepped through move by move, during play or after it: the positions are recomputed from
// the plies by the rules core (WASM), never by this page's own logic.
import type { Core } from './core';
import { el } from './dom';
import { t, type Key } from './i18n';
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
    label.setAttribute('aria-label', t('replayAt', { k, n: positions.length - 1 }));
    show(positions[k], k, positions.length - 1);
  };
  // Drawn icons (no glyph a font may lack), each button named for screen readers.
  const button = (icon: string, cls: string, name: Key, to: () => number) => {
    const b = el('button', { type: 'button', class: cls, 'aria-label': t(name), title: t(name) });
    b.append(drawnIcon(icon));
    b.addEventListener('click', () => go(to()));
    return b;
  };
  label.textContent = `${k} / ${positions.length - 1}`;
  return el('div', { class: 'replay', role: 'group', 'aria-label': t('record') },
    button('first', 'replay-first', 'replayFirst', () => 0),
    button('back', 'replay-back', 'replayBack', () => k - 1),
    label,
    button('next', 'replay-next', 'replayNext', () => k + 1),
    button('last', 'replay-last', 'replayLast', () => positions.length - 1));
}

// A 16x16 icon in the button's colour: a bar and a triangle to the first or last move, a triangle
// a move back or on.
const iconPaths: Record<string, string> = {
  first: 'M3 2h2v12H3zM14 2v12L6 8z',
  back: 'M12 2v12L4 8z',
  next: 'M4 2v12l8-6z',
  last: 'M11 2h2v12h-2zM2 2v12l8-6z',
};

function drawnIcon(name: string): SVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', iconPaths[name]);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}
