// Congkak's traditional rounds on the game page: the round's number, its burnt houses, and the
// words for a round's and the match's end. The core and the server decide the rounds and burn the
// houses (docs/rules.md, `congkak`); the page only words what the state carries: a position with a
// `burnt` list is a match of rounds.
import { t } from './i18n';
import type { GameState, Result, SideLetter } from './types';

export function isRoundsMatch(s: GameState): boolean {
  return Array.isArray(s.position?.burnt);
}

// "Round 2 · burnt: Ada 6, 7; Bao 7"
export function roundStatus(s: GameState, names: Record<SideLetter, string>): string {
  const n = s.position.houses.length / 2;
  const burnt = s.position.burnt ?? [];
  const rows: string[] = [];
  for (const side of ['S', 'N'] as SideLetter[]) {
    // Ring pits: South's houses are 0..n-1, North's n+1..2n (each numbered 1..n by its owner).
    const houses = burnt.filter((p) => (side === 'S' ? p < n : p > n)).map((p) => (side === 'S' ? p + 1 : p - n));
    if (houses.length > 0) rows.push(`${names[side]} ${houses.sort((a, b) => a - b).join(', ')}`);
  }
  const round = t('round', { k: s.set ?? 1 });
  return rows.length > 0 ? `${round} · ${t('burntHouses', { list: rows.join('; ') })}` : round;
}

// A round ended and the next begins: its result, then the next round and its burnt houses.
export function roundOverText(k: number, r: Result, next: GameState, names: Record<SideLetter, string>): string {
  const [a, b] = r.score ?? [0, 0];
  const head =
    r.winner === 'draw' ? t('roundDrawn', { k, a, b }) : t('roundWon', { k, who: names[r.winner], a: Math.max(a, b), b: Math.min(a, b) });
  return `${head} · ${roundStatus(next, names)}`;
}

// The match's end: the last round's winner holds more seeds (the other could not fill a house, or
// the last round allowed was played).
export function roundsOverText(s: GameState, names: Record<SideLetter, string>): string {
  const [a, b] = s.result?.score ?? [0, 0];
  const k = s.set ?? 1;
  const winner = s.result?.winner;
  return winner === 'S' || winner === 'N'
    ? t('roundsMatchWon', { who: names[winner], k, a: Math.max(a, b), b: Math.min(a, b) })
    : t('roundsMatchDrawn', { k, a, b });
}
