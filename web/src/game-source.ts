// What feeds the game page (the server's game in game-server.ts; the local games in game.ts) and
// what a feed may use of the page. The page (GamePage, game.ts) implements SourcePage; the feeds
// know only this module, so the page and its feeds do not import each other.
import type { BoardView } from './board';
import type { ClockModel } from './clock';
import type { HintAnswer } from './hints';
import type { GameState, MoveEvent, SideLetter } from './types';

export interface GameSource {
  kind: 'server' | 'local' | 'ai';
  play(house: number): void;
  hint(): Promise<HintAnswer>;
  extra(): HTMLElement[]; // resign, draw, swap... buttons
  close(): void;
}

export interface SourcePage {
  board: BoardView | null;
  state: GameState | null; // the state shown (it lags the feed's while moves are animated)
  source: GameSource | null;
  you: SideLetter | 'both' | 'spectator';
  lastMove: { side: SideLetter; house: number } | null;
  queue: Promise<void>; // the page's animations, one after the other
  positionVersion: number; // counts the messages that change the position (a stale hint is dropped)
  clockTimer: number;
  readonly clock: ClockModel;
  readonly status: HTMLElement;
  readonly net: HTMLElement;
  readonly recordEl: HTMLElement;
  setup(s: GameState, bottom: SideLetter, names: Record<SideLetter, string>): void;
  setState(s: GameState): void;
  enqueueMove(e: MoveEvent, next: GameState): Promise<void>;
  drawClocks(): void;
  names(): Record<SideLetter, string>;
  flash(text: string, tone?: string): void;
}
