// The page's sentences about moves, hints, clocks and results, in the current language.
import type { BoardView } from './board';
import { currentLang, t, type Key } from './i18n';
import type { MoveSummary, Result, ServerHint, SideLetter } from './types';

export function describe(p: MoveSummary, board: BoardView): string {
  const parts = [t('previewLands', { pit: board.pitName(p.last) })];
  if (p.captured > 0) parts.push(t('previewCaptures', { count: p.captured }));
  if (p.castle) parts.push(t('previewCastle'));
  if (p.extra_turn) parts.push(t('previewExtra'));
  if (p.ends) parts.push(t('previewEnds'));
  return parts.join(' · ');
}

export function hintReason(p: MoveSummary, depth: number): string {
  if (p.ends) return t('hintEnds', { house: p.house });
  if (p.castle) return t('hintCastle', { house: p.house });
  if (p.captured > 0) return t('hintCapture', { house: p.house, count: p.captured });
  if (p.extra_turn) return t('hintExtra', { house: p.house });
  return t('hintQuiet', { house: p.house, depth });
}

export function resultText(r: Result, names: Record<SideLetter, string>, you?: string): string {
  if (r.reason === 'aborted') return t('aborted');
  let text: string;
  const mine = r.winner === you;
  if (r.score) {
    // The winner's score first: "North wins 16–8".
    const [a, b] = r.winner === 'N' ? [r.score[1], r.score[0]] : [r.score[0], r.score[1]];
    text = r.winner === 'draw' ? t('draw', { a, b }) : mine ? t('youWin', { a, b }) : t('wins', { who: names[r.winner], a, b });
  } else text = r.winner === 'draw' ? t('drawPlain') : mine ? t('youWinPlain') : t('winsPlain', { who: names[r.winner] });
  return text + whyText(r);
}

// Why a game ended, in words, from the codes the server or the core gives: an adjudication
// (resignation, time, agreement...) or a rule (a target reached, a position repeated...). An
// unknown code is left out.
export function whyText(r: Result | null | undefined): string {
  const reasons = ['resign', 'time', 'agreement', 'split', 'left', 'forfeit'];
  if (r?.reason && reasons.includes(r.reason)) return ` (${t(`reason.${r.reason}` as Key)})`;
  if (r?.end && ['target', 'repetition', 'idle_limit'].includes(r.end)) return ` (${t(`end.${r.end}` as Key, { n: r.target ?? 0 })})`;
  return '';
}

// The server's hint in words: every verdict and reason code has its sentence in both languages;
// a code this page does not know is left out rather than shown raw.
const verdictCodes = ['wins_by', 'draws', 'loses_by_at_most', 'estimate'];
const reasonCodes = [
  'extra_turn', 'captures', 'protects', 'stops_capture', 'no_extra_turn_for_opponent', 'feeds',
  'chain_captures', 'grand_slam_takes_nothing', 'grand_slam_avoided',
];

export function verdictWords(v: ServerHint['verdict']): string {
  if (!v || !verdictCodes.includes(v.code)) return '';
  const n = v.n ?? 0;
  // An estimate is said in words, with its direction: no signed number to decode.
  if (v.code === 'estimate') {
    if (n === 0) return t('hintVerdict.estimateEven');
    return t(n > 0 ? 'hintVerdict.estimate' : 'hintVerdict.estimateBehind', { n: Math.abs(n) });
  }
  return t(`hintVerdict.${v.code}` as Key, { n });
}

export function reasonWords(r: { code: string; n?: number; houses?: number; house?: number }): string {
  if (!reasonCodes.includes(r.code)) return '';
  return t(`hintReason.${r.code}` as Key, { n: r.n ?? 0, houses: r.houses ?? 0, house: r.house ?? 0 });
}

export function serverHintText(h: ServerHint): string {
  const reasons = (h.reasons ?? []).map(reasonWords).filter((x) => x !== '');
  if (reasons.length === 0) reasons.push(t('hintReason.best'));
  const verdict = verdictWords(h.verdict);
  const params = { house: h.house, reasons: reasons.join(currentLang() === 'fr' ? ' ; ' : '; '), verdict };
  return verdict ? t('hintEngine', params) : t('hintPlain', params);
}
