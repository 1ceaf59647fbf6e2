// The two clocks of a server game. The server is the only timekeeper: every message that carries
// clocks (the `state`, a `move` event) sets both, and between messages the page counts down only
// the side to move, from the moment that message arrived. Nothing here decides who flags: the
// server's `flag` and `game_over` do, and stop() freezes the display then.
import type { SideLetter } from './types';

export interface WireClock {
  S: number;
  N: number;
  running?: boolean;
  seconds?: number;
  increment?: number;
}

function isClock(c: unknown): c is WireClock {
  if (!c || typeof c !== 'object') return false;
  const o = c as Record<string, unknown>;
  return typeof o.S === 'number' && typeof o.N === 'number';
}

export class ClockModel {
  private left: Record<SideLetter, number> | null = null;
  private side: SideLetter | null = null; // the side whose time runs, null when none does
  private at = 0; // performance.now() when the last server clock arrived

  // `clock` as the server sent it (null: a game without clock); `toMove` the position's side to
  // move; `live` false once the game is over or not started.
  set(clock: unknown, toMove: SideLetter | null, live: boolean): void {
    if (!isClock(clock)) {
      this.left = null;
      this.side = null;
      return;
    }
    this.left = { S: Math.max(0, clock.S), N: Math.max(0, clock.N) };
    this.side = live && clock.running !== false && toMove ? toMove : null;
    this.at = performance.now();
  }

  // The game is over (or the clocks stopped): keep what is shown now and count no further.
  stop(): void {
    if (!this.left) return;
    if (this.side) this.left[this.side] = this.ms(this.side) ?? 0;
    this.side = null;
  }

  get enabled(): boolean {
    return this.left !== null;
  }

  get running(): SideLetter | null {
    return this.side;
  }

  // Milliseconds left for a side now, or null without a clock.
  ms(side: SideLetter): number | null {
    if (!this.left) return null;
    const elapsed = side === this.side ? performance.now() - this.at : 0;
    return Math.max(0, Math.round(this.left[side] - elapsed));
  }
}

// m:ss, rounded up as a chess clock shows it (0:00 only when the time is really gone).
export function clockText(ms: number | null): string {
  if (ms === null) return '';
  const total = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
