// A board for a rule set: the BoardView options the rules imply (stores or captured piles, the
// sowing direction), read from the core's preset catalogue and the rules string's own options.
import { BoardView } from './board';
import type { Core } from './core';
import type { SideLetter } from './types';

export function presetOptions(core: Core, rules: string): Record<string, string> {
  const preset = core.rules().presets.find((p) => p.name === rules.split(',')[0]);
  const opts = { ...(preset?.options ?? {}) };
  for (const kv of rules.split(',').slice(1)) {
    const [k, v] = kv.split('=');
    opts[k] = v;
  }
  return opts;
}

export function makeBoard(core: Core, rules: string, houses: number, bottom: SideLetter, names: Record<SideLetter, string>): BoardView {
  const opts = presetOptions(core, rules);
  const board = new BoardView({ houses, stores: opts.stores !== 'false', clockwise: opts.direction === 'cw', bottom, names });
  board.speed = Number(localStorage.getItem('semis.speed') ?? '1');
  return board;
}
