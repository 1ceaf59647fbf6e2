// The shapes of docs/protocol.md (v1) that the client reads.

export type SideLetter = 'S' | 'N';

export interface TraceEvent {
  kind: string; // lift, drop, relay, relay_cut, capture, castle, extra_turn, pass, must_feed, sweep, split, game_end
  pit?: number;
  count?: number;
  to?: number;
  side?: SideLetter;
}

export interface WirePosition {
  houses: number[];
  stores: number[];
  to_move: SideLetter | null;
  castle?: (number | string | null)[];
  // Congkak's traditional rounds: the ring pits of the houses burnt for this round (absent otherwise).
  burnt?: number[];
}

export interface MoveEvent {
  kind: 'move';
  side: SideLetter;
  house: number;
  trace: TraceEvent[];
  position: WirePosition;
  legal: number[];
  clock?: unknown; // both clocks right after the move (server games with a clock)
  set_end_position?: WirePosition; // the server's: the set's last position when the move ended a set
  // The server's: what its state says after this move (docs/protocol.md), so the page never builds
  // the next state from a copy that is still showing an earlier move.
  set?: number; // the set the move was played in
  status?: GameState['status'];
  next_set?: number;
  points?: number[];
  can_swap?: boolean;
  can_abort?: boolean;
}

export interface Seat {
  name?: string;
  kind?: 'human' | 'ai';
  level?: string;
  connected?: boolean;
  id?: string;
  rating?: { rating: number; provisional: boolean };
  claim_at?: number | null; // rated games: from when this player (gone) may be claimed against
}

export interface Result {
  winner: SideLetter | 'draw';
  score?: number[];
  reason?: string;
  end?: string; // why the rules ended it, when not an empty row: target, repetition, idle_limit
  target?: number; // with end "target": the count that wins
}

export interface GameState {
  id?: string;
  rules: string;
  mode?: string;
  seats?: Partial<Record<SideLetter, Seat>>;
  you?: SideLetter | 'both' | 'spectator';
  position: WirePosition;
  legal: number[];
  status: 'waiting' | 'playing' | 'over';
  result?: Result | null;
  set?: number;
  sets?: number;
  points?: number[];
  clock?: unknown;
  plies?: { mover: SideLetter; move: number; set?: number }[];
  last_event?: number;
  record?: string;
  can_swap?: boolean;
  draw_offer?: SideLetter | null;
  rematch_asked?: boolean[]; // South, North: who asked for a rematch
  set_results?: Result[]; // each finished set of a match
  // The club's (docs/club.md).
  rated?: boolean;
  key?: string | null;
  can_abort?: boolean;
  ratings?: Record<SideLetter, { before: number; after: number; change: number }>;
}

// What one sowing would do, as the WASM core previews it.
export interface MoveSummary {
  house: number;
  last: number;
  captured: number;
  captures: { pit: number; count: number }[];
  extra_turn: boolean;
  castle: boolean;
  relay_cut: boolean;
  ends: boolean;
  trace: TraceEvent[];
}

// The server's answer to `hint` (docs/protocol.md): the recommended house, its verdict and the
// reasons as codes the page words in its own language.
export interface ServerHint {
  type: 'hint';
  game: string;
  house: number;
  exact?: boolean;
  value?: number;
  verdict?: { code: string; n?: number };
  reasons?: { code: string; n?: number; houses?: number; house?: number }[];
  moves?: { house: number; value: number; exact: boolean }[];
}

// A move's value for the player to move (docs/study.md).
export interface MoveValue {
  house: number;
  value: number;
  exact: boolean;
}

// A game's review (views/Study.hpp, reviewJson).
export interface PlyReview {
  set: number;
  mover: SideLetter;
  move: number;
  best: number;
  best_value: number;
  best_exact: boolean;
  played: number;
  played_exact: boolean;
  loss: number;
  mark: 'forced' | 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';
  moves: MoveValue[];
}
export interface ReviewData {
  plies: PlyReview[];
  turning: number | null;
  game?: string;
  rules?: string;
}

// The daily challenge (docs/study.md, HTTP API).
export interface Puzzle {
  rules: string;
  date: string;
  position: WirePosition;
  position_text: string;
  value: number;
  decisions: number;
  line?: number[];
  today?: boolean;
  streak?: number | null;
  signed_in?: boolean;
  result?: { date: string; solved: boolean; result: number } | null;
  yesterday?: Puzzle;
}
