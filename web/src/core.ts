// The C++ rules core compiled to WebAssembly (web/wasm/SemisWasm.cpp): local games, previews, hints.
import createSemisCore from './gen/semis-core.js';
import type { GameState, MoveEvent, MoveSummary, MoveValue, ReviewData, ServerHint, WirePosition } from './types';

type Answer<T> = T & { error?: string };

let corePromise: Promise<Core> | null = null;

export interface RulesCatalog {
  presets: { name: string; options: Record<string, string> }[];
  options: { name: string; values: string; meaning: string }[];
}

export class Core {
  private constructor(private readonly m: Awaited<ReturnType<typeof createSemisCore>>) {}

  static load(): Promise<Core> {
    corePromise ??= createSemisCore().then((m) => new Core(m));
    return corePromise;
  }

  private call<T>(name: string, ...args: (string | number)[]): Answer<T> {
    const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
    return JSON.parse(this.m.ccall(name, 'string', types, args)) as Answer<T>;
  }

  rules(): RulesCatalog {
    return this.call<RulesCatalog>('sm_rules');
  }

  // A rules string the core plays (its canonical form), or why not.
  checkRules(rules: string): Answer<{ rules: string }> {
    return this.call('sm_check_rules', rules);
  }

  newGame(rules: string): LocalGame | string {
    const r = this.call<{ handle: number }>('sm_new', rules);
    if (r.error !== undefined) return r.error;
    return new LocalGame(this, r.handle);
  }

  // A game from a whole position string (the daily challenge's endgame).
  newGameAt(positionText: string): LocalGame | string {
    const r = this.call<{ handle: number }>('sm_new_at', positionText);
    if (r.error !== undefined) return r.error;
    return new LocalGame(this, r.handle);
  }

  // Every legal move's value for the side to move, searched towards the exact value within `nodes`.
  values(rules: string, pos: WirePosition, nodes: number): Answer<{ moves: MoveValue[] }> {
    return this.call('sm_values', rules, positionFields(pos), nodes);
  }

  // The review of moves played from the start (or from `start`, a whole position string).
  review(rules: string, start: string, moves: number[], nodes: number): Answer<ReviewData> {
    return this.call('sm_review', rules, start, moves.join(','), nodes);
  }

  // A pasted game record read back: its rules, start and moves.
  record(text: string): Answer<{ rules: string; start: string; moves: number[] }> {
    return this.call('sm_record', text);
  }

  state(handle: number): GameState {
    return this.call<GameState>('sm_state', handle);
  }

  play(handle: number, house: number): Answer<{ event: MoveEvent; state: GameState }> {
    return this.call('sm_play', handle, house);
  }

  swap(handle: number): Answer<{ state: GameState }> {
    return this.call('sm_swap', handle);
  }

  split(handle: number): Answer<{ state: GameState }> {
    return this.call('sm_split', handle);
  }

  preview(rules: string, pos: WirePosition, house: number): Answer<MoveSummary> {
    return this.call('sm_preview', rules, positionFields(pos), house);
  }

  best(rules: string, pos: WirePosition, depth: number): Answer<MoveSummary> {
    return this.call('sm_best', rules, positionFields(pos), depth);
  }

  // The engine's hint (src/engine/Hint.hpp) with the server's codes (docs/protocol.md, `hint`).
  hint(rules: string, pos: WirePosition, nodes: number): Answer<MoveSummary & ServerHint> {
    return this.call('sm_hint', rules, positionFields(pos), nodes);
  }

  // The engine's player at a level: easy, medium, hard or perfect.
  ai(rules: string, pos: WirePosition, level: string, seed: number): Answer<{ house: number }> {
    return this.call('sm_ai', rules, positionFields(pos), level, seed);
  }
}

// A game played entirely in the browser (two players on one device, or the local computer).
export class LocalGame {
  constructor(
    private readonly core: Core,
    readonly handle: number,
  ) {}
  state(): GameState {
    return this.core.state(this.handle);
  }
  play(house: number) {
    return this.core.play(this.handle, house);
  }
  swap() {
    return this.core.swap(this.handle);
  }
  split() {
    return this.core.split(this.handle);
  }
}

// The board fields of a position string ("4,4,.../4,4,.../0,0/S[/castle=n3,-][/burnt=n7]"), as
// parsePositionFor reads them.
export function positionFields(pos: WirePosition): string {
  const n = pos.houses.length / 2;
  const south = pos.houses.slice(0, n).join(',');
  const north = pos.houses.slice(n).join(',');
  let out = `${south}/${north}/${pos.stores[0]},${pos.stores[1]}/${pos.to_move ?? '-'}`;
  if (pos.castle && pos.castle.some((c) => c !== null && c !== '-')) {
    out += '/castle=' + pos.castle.map((c) => castleText(c, n)).join(',');
  }
  if (pos.burnt && pos.burnt.length > 0) out += '/burnt=' + pos.burnt.map((p) => castleText(p, n)).join(',');
  return out;
}

function castleText(c: number | string | null, n: number): string {
  if (c === null || c === '-') return '-';
  if (typeof c === 'string') return c;
  return c < n ? `s${c + 1}` : `n${c - n}`;
}

// The ring pit a castle entry names (the server may send "n3" or a pit number).
export function castlePit(c: number | string | null | undefined, n: number): number | null {
  if (c === null || c === undefined || c === '-') return null;
  if (typeof c === 'number') return c;
  const h = Number(c.slice(1));
  return c[0] === 's' ? h - 1 : n + h;
}
