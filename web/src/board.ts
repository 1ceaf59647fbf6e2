// The board as a player sees it: two rows of houses, the stores (or the captured piles beside the
// board), counts always shown, and the seed-by-seed animation of an event trace.
import { castlePit } from './core';
import { t } from './i18n';
import { playSound } from './sound';
import type { MoveSummary, SideLetter, TraceEvent, WirePosition } from './types';

export interface BoardOptions {
  houses: number;
  stores: boolean; // false: Al-manqala, the two "store" pits are captured piles beside the board
  clockwise: boolean; // Congkak: stores on the players' left, sowing clockwise
  bottom: SideLetter; // the viewer's own row
  names: Record<SideLetter, string>;
}

type Banner = (text: string, tone?: string) => void;

const MAX_DRAWN_SEEDS = 24;
const BASE_STEP_MS = 280; // one seed's flight at speed 1
const MAX_MOVE_MS = 5000; // a move's animation at speed 1, however long its sowing
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

// How long a trace takes at BASE_STEP_MS a seed (animate's waits and flights, summed).
export function traceMs(trace: TraceEvent[]): number {
  let steps = 0;
  for (const e of trace) {
    if (e.kind === 'lift' || e.kind === 'relay') steps += 0.5;
    else if (e.kind === 'drop') steps += e.to !== undefined && e.to !== e.pit ? 1.5 : 1;
    else if (e.kind === 'capture' || e.kind === 'sweep' || e.kind === 'split') steps += 2.1;
    else if (e.kind === 'castle' || e.kind === 'extra_turn' || e.kind === 'pass') steps += 2;
    else if (e.kind === 'must_feed' || e.kind === 'relay_cut') steps += 1;
  }
  return Math.max(1, steps * BASE_STEP_MS);
}

export class BoardView {
  readonly el: HTMLElement;
  private readonly n: number;
  private pits: number[];
  private castles: (number | null)[] = [null, null];
  private burnt = new Set<number>();  // houses burnt for the round (Congkak's traditional rounds)
  private readonly cells: HTMLElement[] = [];
  private readonly overlay: HTMLElement;
  private legal = new Set<number>();
  private active: SideLetter | null = null; // the side whose houses can be clicked now
  private hintPit: number | null = null; // the house "Teach me" recommends, lit until the next move
  private skipping = false;
  private still = false; // this animation shows no motion (prefers-reduced-motion)
  private animating = false;
  speed = 1;
  onPlay: (house: number) => void = () => {};
  onPreview: (house: number | null) => void = () => {};
  banner: Banner = () => {};

  constructor(private readonly opt: BoardOptions) {
    this.n = opt.houses;
    this.pits = new Array<number>(2 * this.n + 2).fill(0);
    this.el = document.createElement('div');
    this.el.className = `board${opt.stores ? '' : ' no-stores'}${opt.clockwise ? ' cw' : ''}`;
    this.el.style.setProperty('--houses', String(this.n));
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', t('boardLabel', { top: opt.names[opt.bottom === 'S' ? 'N' : 'S'], bottom: opt.names[opt.bottom] }));
    this.overlay = document.createElement('div');
    this.overlay.className = 'flight';
    this.overlay.setAttribute('aria-hidden', 'true');
    for (let pit = 0; pit < 2 * this.n + 2; ++pit) this.cells.push(this.makeCell(pit));
    for (const c of this.cells) this.el.append(c);
    this.el.append(this.overlay);
  }

  // Which side a pit belongs to, and its house number for its owner (0 for a store).
  side(pit: number): SideLetter {
    return pit <= this.n ? 'S' : 'N';
  }
  private isStore(pit: number): boolean {
    return pit === this.n || pit === 2 * this.n + 1;
  }
  houseNumber(pit: number): number {
    return pit < this.n ? pit + 1 : pit - this.n;
  }
  housePit(side: SideLetter, house: number): number {
    return side === 'S' ? house - 1 : this.n + house;
  }

  private makeCell(pit: number): HTMLElement {
    const store = this.isStore(pit);
    const side = this.side(pit);
    const bottom = side === this.opt.bottom;
    const cell = document.createElement(store ? 'div' : 'button');
    cell.className = `pit ${store ? (this.opt.stores ? 'store' : 'tray') : 'house'} ${bottom ? 'mine' : 'theirs'}`;
    cell.dataset.pit = String(pit);
    cell.dataset.side = side;
    if (!store) cell.dataset.house = String(this.houseNumber(pit));
    // Grid placement, across (columns 1 and N+2 the stores, houses in 2..N+1; the viewer's row
    // below) and, on a narrow portrait screen, the same picture turned a quarter (style.css: the
    // stores at the top and the bottom, two columns of houses).
    const n = this.n;
    let col: number;
    let row: string;
    if (store) {
      const right = bottom !== this.opt.clockwise;
      col = right ? n + 2 : 1;
      row = '1 / span 2';
    } else {
      const h = this.houseNumber(pit);
      const leftToRight = bottom !== this.opt.clockwise;
      col = 1 + (leftToRight ? h : n + 1 - h);
      row = bottom ? '2' : '1';
    }
    cell.style.setProperty('--col', String(col));
    cell.style.setProperty('--row', row);
    // Turned so the viewer's store ends at the bottom: clockwise when it is on the right (column c
    // becomes row c, the viewer's row the left column), the other way when it is on the left (Congkak).
    const turnRight = !this.opt.clockwise;
    cell.style.setProperty('--vrow', String(turnRight ? col : n + 3 - col));
    cell.style.setProperty('--vcol', store ? '1 / span 2' : bottom === turnRight ? '1' : '2');
    // The left column's counts go on its outer side (style.css).
    if (!store && bottom === turnRight) cell.classList.add('outer-left');
    const seeds = document.createElement('span');
    seeds.className = 'seeds';
    seeds.setAttribute('aria-hidden', 'true');
    const count = document.createElement('span');
    count.className = 'count';
    count.setAttribute('aria-hidden', 'true');
    cell.append(seeds, count);
    if (store) {
      cell.setAttribute('role', 'img');
      const label = document.createElement('span');
      label.className = 'store-name';
      label.setAttribute('aria-hidden', 'true');
      cell.append(label);
    } else {
      const b = cell as HTMLButtonElement;
      b.type = 'button';
      b.addEventListener('click', () => this.tryPlay(pit));
      // The preview follows a mouse, or the keyboard's focus: a tap (a finger, or the focus the
      // page moves after a move) shows no ring that could be read as advice.
      b.addEventListener('pointerenter', (e) => {
        if (e.pointerType === 'mouse') this.preview(pit);
      });
      b.addEventListener('pointerleave', () => this.preview(null));
      b.addEventListener('focus', () => {
        if (b.matches(':focus-visible')) this.preview(pit);
      });
      b.addEventListener('blur', () => this.preview(null));
      b.addEventListener('keydown', (e) => this.key(e, pit));
    }
    return cell;
  }

  private playable(pit: number): boolean {
    return (
      !this.animating &&
      this.active !== null &&
      !this.isStore(pit) &&
      this.side(pit) === this.active &&
      this.legal.has(this.houseNumber(pit))
    );
  }

  // An illegal click (wrong side, empty house, during an animation) sends nothing.
  private tryPlay(pit: number): void {
    if (!this.playable(pit)) return;
    this.preview(null);
    this.onPlay(this.houseNumber(pit));
  }

  private preview(pit: number | null): void {
    this.clearPreview();
    if (pit === null || !this.playable(pit)) {
      this.onPreview(null);
      return;
    }
    this.onPreview(this.houseNumber(pit));
  }

  showPreview(p: MoveSummary | null): void {
    this.clearPreview();
    if (p === null) return;
    if (p.last >= 0) this.cells[p.last].classList.add('lands');
    for (const c of p.captures) this.cells[c.pit].classList.add('taken');
  }

  private clearPreview(): void {
    for (const c of this.cells) c.classList.remove('lands', 'taken');
  }

  // The recommended house: an outline and a "Tip" badge that stay without animation (reduced
  // motion), and its label says so for screen readers.
  highlightHint(house: number | null): void {
    const old = this.hintPit;
    this.hintPit = house !== null && this.active && house >= 1 && house <= this.n ? this.housePit(this.active, house) : null;
    for (const c of this.cells) {
      c.classList.remove('hint');
      c.querySelector('.hint-badge')?.remove();
    }
    if (old !== null) this.label(old);
    if (this.hintPit === null) return;
    const cell = this.cells[this.hintPit];
    cell.classList.add('hint');
    const badge = document.createElement('span');
    badge.className = 'hint-badge';
    badge.setAttribute('aria-hidden', 'true');
    badge.textContent = t('hintBadge');
    cell.append(badge);
    this.label(this.hintPit);
  }

  // Arrow keys walk the active row in screen order; digits play a house directly.
  private key(e: KeyboardEvent, pit: number): void {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const row = this.rowInScreenOrder(this.side(pit));
      const i = row.indexOf(pit);
      const next = row[i + (e.key === 'ArrowRight' ? 1 : -1)];
      if (next !== undefined) this.cells[next].focus();
      e.preventDefault();
    }
  }

  rowInScreenOrder(side: SideLetter): number[] {
    const pits = Array.from({ length: this.n }, (_, i) => this.housePit(side, i + 1));
    return pits.sort((a, b) => Number(this.cells[a].style.gridColumn) - Number(this.cells[b].style.gridColumn));
  }

  focusActive(): void {
    if (!this.active) return;
    const pits = this.rowInScreenOrder(this.active).filter((p) => this.playable(p));
    if (pits.length > 0) this.cells[pits[0]].focus();
  }

  playHouseKey(house: number): void {
    if (this.active && house >= 1 && house <= this.n) this.tryPlay(this.housePit(this.active, house));
  }

  setLegal(active: SideLetter | null, legal: number[]): void {
    this.active = active;
    this.legal = new Set(legal);
    this.refreshInteractivity();
  }

  private refreshInteractivity(): void {
    for (let pit = 0; pit < this.cells.length; ++pit) {
      if (this.isStore(pit)) continue;
      const ok = this.playable(pit);
      const cell = this.cells[pit] as HTMLButtonElement;
      cell.classList.toggle('legal', ok);
      cell.setAttribute('aria-disabled', ok ? 'false' : 'true');
      // Only the active row takes the Tab key; the rest stays readable to screen readers.
      cell.tabIndex = this.active !== null && this.side(pit) === this.active ? 0 : -1;
      this.label(pit);
    }
  }

  setPosition(pos: WirePosition): void {
    const n = this.n;
    for (let h = 0; h < n; ++h) {
      this.pits[h] = pos.houses[h];
      this.pits[n + 1 + h] = pos.houses[n + h];
    }
    this.pits[n] = pos.stores[0];
    this.pits[2 * n + 1] = pos.stores[1];
    this.castles = (pos.castle ?? [null, null]).map((c) => castlePit(c, n));
    this.burnt = new Set(pos.burnt ?? []);
    for (let pit = 0; pit < this.pits.length; ++pit) this.draw(pit);
  }

  // The players' names changed (a friend joined): stores and labels follow.
  setNames(names: Record<SideLetter, string>): void {
    if (names.S === this.opt.names.S && names.N === this.opt.names.N) return;
    this.opt.names = names;
    this.el.setAttribute('aria-label', t('boardLabel', { top: names[this.opt.bottom === 'S' ? 'N' : 'S'], bottom: names[this.opt.bottom] }));
    for (let pit = 0; pit < this.pits.length; ++pit) this.draw(pit);
  }

  // The house the last move was sown from, marked until the next move (null: none).
  markLast(side: SideLetter | null, house = 0): void {
    for (const c of this.cells) c.classList.remove('last-sown');
    if (side && house >= 1 && house <= this.n) this.cells[this.housePit(side, house)].classList.add('last-sown');
  }

  // False on boards without stores (Al-manqala, Awalé): the two piles are captured seeds.
  get hasStores(): boolean {
    return this.opt.stores;
  }

  counts(): number[] {
    return [...this.pits];
  }

  private draw(pit: number): void {
    const cell = this.cells[pit];
    const count = this.pits[pit];
    (cell.querySelector('.count') as HTMLElement).textContent = String(count);
    const seeds = cell.querySelector('.seeds') as HTMLElement;
    const shown = Math.min(count, MAX_DRAWN_SEEDS);
    while (seeds.childElementCount > shown) seeds.lastElementChild!.remove();
    while (seeds.childElementCount < shown) seeds.append(seedAt(seeds.childElementCount, this.isStore(pit)));
    const owner = this.castles.findIndex((c) => c === pit);
    cell.classList.toggle('castle', owner >= 0);
    // Each side's castle in its own colour (style.css), and its owner in the label.
    cell.classList.toggle('castle-S', owner === 0);
    cell.classList.toggle('castle-N', owner === 1);
    cell.classList.toggle('burnt', this.burnt.has(pit));
    if (this.isStore(pit)) {
      (cell.querySelector('.store-name') as HTMLElement).textContent = this.opt.names[this.side(pit)];
    }
    this.label(pit);
  }

  private label(pit: number): void {
    const owner = this.opt.names[this.side(pit)];
    const count = this.pits[pit];
    let text: string;
    if (this.isStore(pit)) text = t(this.opt.stores ? 'storeLabel' : 'capturedLabel', { owner, count });
    else text = t('houseLabel', { owner, n: this.houseNumber(pit), count }) + (this.playable(pit) ? t('legalSuffix') : '') + (pit === this.hintPit ? t('hintSuggested') : '');
    const castleOwner = this.castles.findIndex((c) => c === pit);
    if (castleOwner >= 0) text += t('castleSuffix', { owner: this.opt.names[castleOwner === 0 ? 'S' : 'N'] });
    if (this.burnt.has(pit)) text += t('burntSuffix');
    this.cells[pit].setAttribute('aria-label', text);
  }

  pitName(pit: number): string {
    const owner = this.opt.names[this.side(pit)];
    if (this.isStore(pit)) return t(this.opt.stores ? 'pitStore' : 'pitCaptured', { owner });
    return t('pitHouse', { owner, n: this.houseNumber(pit) });
  }

  skip(): void {
    this.skipping = true;
  }

  get busy(): boolean {
    return this.animating;
  }

  private wait(ms: number): Promise<void> {
    if (this.skipping || this.still) return Promise.resolve();
    return new Promise((r) => setTimeout(r, ms / this.speed));
  }

  private fly(from: number, to: number, ms: number, cluster = 1): Promise<void> {
    if (this.skipping || this.still || document.hidden) return Promise.resolve();
    const box = this.el.getBoundingClientRect();
    const a = this.cells[from].getBoundingClientRect();
    const b = this.cells[to].getBoundingClientRect();
    const seed = document.createElement('span');
    seed.className = cluster > 1 ? 'seed flying cluster' : 'seed flying';
    if (cluster > 1) seed.textContent = String(cluster);
    this.overlay.append(seed);
    const x0 = a.left + a.width / 2 - box.left;
    const y0 = a.top + a.height / 2 - box.top;
    const x1 = b.left + b.width / 2 - box.left;
    const y1 = b.top + b.height / 2 - box.top;
    const anim = seed.animate(
      [
        { transform: `translate(${x0}px, ${y0}px) scale(1)` },
        { transform: `translate(${(x0 + x1) / 2}px, ${(y0 + y1) / 2 - 18}px) scale(1.25)` },
        { transform: `translate(${x1}px, ${y1}px) scale(1)` },
      ],
      { duration: ms / this.speed, easing: 'ease-in-out' },
    );
    return anim.finished.then(
      () => seed.remove(),
      () => seed.remove(),
    );
  }

  private pulse(pit: number, cls: string): void {
    const cell = this.cells[pit];
    cell.classList.remove(cls);
    void cell.offsetWidth;
    cell.classList.add(cls);
    setTimeout(() => cell.classList.remove(cls), 900);
  }

  // Plays a trace seed by seed, then shows the authoritative position the server (or core) sent.
  // `setOnly`: the trace ends a set of a match that goes on (its end is "set over", not "game over").
  async animate(trace: TraceEvent[], final: WirePosition, setOnly = false): Promise<void> {
    this.animating = true;
    this.skipping = false;
    // Reduced motion: no seed flies; the counts change at once and the banners still say what happened.
    this.still = reducedMotion.matches;
    this.refreshInteractivity();
    // A long sowing (Congkak's relay chains) is played faster, so that no move takes much longer
    // than MAX_MOVE_MS at the chosen speed; past twice that, the rest is shown at once.
    const step = BASE_STEP_MS * Math.min(1, MAX_MOVE_MS / traceMs(trace));
    const cutAt = performance.now() + (2 * MAX_MOVE_MS) / this.speed;
    let hand = -1;
    let sweepShown = false;
    try {
      for (const e of trace) {
        if (!this.skipping && performance.now() > cutAt) this.skipping = true;
        const pit = e.pit ?? 0;
        const who = e.side ? this.opt.names[e.side] : '';
        switch (e.kind) {
          case 'lift':
          case 'relay':
            if (e.kind === 'relay') this.banner(t('relay', { count: e.count ?? 0 }), 'relay');
            this.pits[pit] = 0;
            this.draw(pit);
            this.pulse(pit, 'lifted');
            hand = pit;
            await this.wait(step / 2);
            break;
          case 'drop': {
            const target = e.to ?? pit;
            await this.fly(hand < 0 ? pit : hand, pit, step);
            if (target !== pit) await this.fly(pit, target, step / 2);
            this.pits[target] += 1;
            this.draw(target);
            if (!this.skipping && !this.still) playSound('drop');
            hand = pit;
            break;
          }
          case 'capture':
          case 'sweep':
          case 'split': {
            if (e.kind === 'capture') {
              this.banner(t('captureBanner', { count: e.count ?? 0 }), 'capture');
              if (!this.skipping) playSound('capture');
            }
            if (e.kind === 'sweep' && !sweepShown) {
              this.banner(t('sweep'), 'sweep');
              sweepShown = true;
            }
            if (e.kind === 'split') this.banner(t('split'), 'sweep');
            const count = e.count ?? this.pits[pit];
            const target = e.to ?? pit;
            this.pulse(pit, 'capturing');
            await this.wait(step / 2);
            this.pits[pit] = Math.max(0, this.pits[pit] - count);
            this.draw(pit);
            await this.fly(pit, target, step * 1.6, count);
            this.pits[target] += count;
            this.draw(target);
            break;
          }
          case 'castle': {
            const owner = e.side === 'N' ? 1 : 0;
            this.castles[owner] = pit;
            this.banner(t('castleBanner', { who }), 'castle');
            this.draw(pit);
            this.pulse(pit, 'capturing');
            await this.wait(step * 2);
            break;
          }
          case 'extra_turn':
            this.banner(t('extraTurn', { who }), 'extra');
            await this.wait(step * 2);
            break;
          case 'pass':
            this.banner(t('passBanner', { who }));
            await this.wait(step * 2);
            break;
          case 'must_feed':
            this.banner(t('mustFeed', { who }));
            await this.wait(step);
            break;
          case 'relay_cut':
            this.banner(t('relayCut'));
            await this.wait(step);
            break;
          case 'game_end':
            // A match of rounds (its positions list burnt houses) says "round", not "set".
            this.banner(t(setOnly ? (final.burnt ? 'roundEnd' : 'setEnd') : 'gameEnd'), 'end');
            break;
          default:
            break;
        }
      }
    } finally {
      this.animating = false;
      this.skipping = false;
      this.still = false;
      this.overlay.replaceChildren();
      this.setPosition(final);
      this.refreshInteractivity();
    }
  }
}

// Seeds lie in a loose heap: a fixed pseudo-random spot for the i-th seed, so redraws do not jump.
function seedAt(i: number, store: boolean): HTMLElement {
  const s = document.createElement('span');
  s.className = 'seed';
  const golden = 2.39996;
  const r = Math.min(0.9, Math.sqrt((i + 0.5) / 11)) * (store ? 0.7 : 0.78);
  const a = i * golden;
  s.style.left = `${50 + Math.cos(a) * r * 50}%`;
  s.style.top = `${50 + Math.sin(a) * r * (store ? 85 : 50)}%`;
  s.style.setProperty('--hue', String((i * 47) % 360));
  return s;
}
