// Game review (/review/<id> for a game on the server, /review?local=RULES&m=1,2,... for one played
// in the page; docs/study.md): every move's value beside the best move's, the marks, the move that
// lost the game and a chart of the value along it. Values come from the C++ engine: the server's
// review, or the core's (sm_review) for a local game. Clicking a move shows its position.
import type { BoardView } from './board';
import { makeBoard } from './board-setup';
import { Core } from './core';
import { el } from './dom';
import { gameTitle } from './game-title';
import { labelled, t } from './i18n';
import { api } from './net';
import { serverNames } from './game-server';
import { ts, valueText, type StudyKey } from './study-words';
import type { GameState, PlyReview, ReviewData, SideLetter, WirePosition } from './types';

const SVG = 'http://www.w3.org/2000/svg';
// The core's budget a position for a local game's review (the server gives its own 80 ms).
const LOCAL_NODES = 80_000;

// South's view of the value before each ply (the mover's best, turned to South's side), then the end.
function southValues(plies: PlyReview[]): number[] {
  const out = plies.map((p) => (p.mover === 'S' ? p.best_value : -p.best_value));
  const last = plies[plies.length - 1];
  if (last) out.push(last.mover === 'S' ? last.played : -last.played);
  return out;
}

// One SVG element with its attributes.
function svgEl(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// The value along the game for South, with its axes named: the moves along the bottom (0, the
// middle, the last), the value on the left (+span, 0, -span seeds, "South ahead" above the line),
// and a legend for the mistake and blunder dots.
function chart(plies: PlyReview[], names: Record<SideLetter, string>, onPick: (i: number) => void): Element {
  const values = southValues(plies);
  const w = 480, h = 220, left = 48, right = 10, top = 52, bottom = 34;
  const span = Math.max(4, ...values.map((v) => Math.abs(v)));
  const last = Math.max(1, values.length - 1);
  const x = (i: number) => left + (i * (w - left - right)) / last;
  const y = (v: number) => top + ((span - v) * (h - top - bottom)) / (2 * span);
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, class: 'review-chart', role: 'img', 'aria-label': ts('reviewChart', { who: names.S }) });
  svg.append(
    svgEl('line', { x1: left, x2: w - right, y1: y(0), y2: y(0), class: 'axis' }),
    svgEl('line', { x1: left, x2: left, y1: top, y2: h - bottom, class: 'axis' }),
  );
  for (const v of [span, 0, -span]) svg.append(svgEl('text', { x: left - 6, y: y(v) + 5, 'text-anchor': 'end', class: 'tick' }, v > 0 ? `+${v}` : String(v)));
  // Two lines above the plot: whose lead is up, then the dots' legend.
  svg.append(svgEl('text', { x: left + 4, y: 18, class: 'legend' }, `↑ ${ts('reviewAhead', { who: names.S })}`));
  for (const i of [...new Set([0, Math.round(last / 2), last])]) {
    svg.append(svgEl('text', { x: x(i), y: h - bottom + 20, 'text-anchor': 'middle', class: 'tick' }, String(i)));
  }
  svg.append(svgEl('text', { x: w - right, y: h - 4, 'text-anchor': 'end', class: 'legend' }, ts('reviewAxisMoves')));
  let lx = left + 10;
  for (const mark of ['mistake', 'blunder'] as const) {
    svg.append(svgEl('circle', { cx: lx, cy: 37, r: mark === 'blunder' ? 6 : 4, class: `dot ${mark}` }),
      svgEl('text', { x: lx + 10, y: 42, class: 'legend' }, ts(mark === 'blunder' ? 'reviewLegendBlunder' : 'reviewLegendMistake')));
    lx += 110;
  }
  svg.append(svgEl('polyline', { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'value-line' }));
  plies.forEach((p, i) => {
    if (p.mark !== 'mistake' && p.mark !== 'blunder') return;
    const dot = svgEl('circle', { cx: x(i + 1).toFixed(1), cy: y(values[i + 1]).toFixed(1), r: p.mark === 'blunder' ? 6 : 4, class: `dot ${p.mark}` });
    dot.addEventListener('click', () => onPick(i));
    svg.append(dot);
  });
  return svg;
}

export async function reviewPage(root: HTMLElement, route: { id?: string; rules?: string; moves?: number[] }): Promise<void> {
  const core = await Core.load();
  const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, ts('reviewWorking'));
  const page = el('div', { class: 'review-page' },
    el('div', { class: 'game-head' }, el('a', { href: route.id ? `/g/${route.id}` : '/', class: 'back', 'data-link': '' }, '← ' + t('back')),
      el('h1', { class: 'game-title' }, ts('reviewTitle'))),
    el('p', { class: 'review-intro' }, ts('reviewIntro')),
    status);
  root.replaceChildren(page);
  document.title = `${ts('reviewTitle')} · Semis`;
  let rules = route.rules ?? 'kalah';
  let moves = route.moves ?? [];
  let names: Record<SideLetter, string> = { S: t('south'), N: t('north') };
  let review: ReviewData;
  try {
    if (route.id) {
      const state = await api<GameState>('GET', `/api/games/${route.id}`);
      rules = state.rules;
      moves = (state.plies ?? []).map((p) => p.move);
      names = serverNames(state); // the computer named in the page's language, with its level
      review = await api<ReviewData>('GET', `/api/games/${route.id}/review`);
    } else {
      await new Promise((r) => setTimeout(r, 0)); // the status first: the core works synchronously
      const r = core.review(rules, '', moves, LOCAL_NODES);
      if (r.error !== undefined) throw { message: r.error };
      review = r;
    }
  } catch (e) {
    const err = e as { code?: string; message?: string };
    status.textContent = err.code === 'not_over' ? ts('reviewNotOver') : ts('reviewError', { message: err.message ?? err.code ?? '' });
    return;
  }
  page.querySelector('h1')!.textContent = `${ts('reviewTitle')} · ${gameTitle(rules)}`;
  status.textContent = '';

  // The position before each ply, replayed by the core (a set's end shows the next set's start).
  const positions: WirePosition[] = [];
  const made = core.newGame(rules);
  if (typeof made !== 'string') {
    positions.push(made.state().position);
    for (const m of moves) {
      const r = made.play(m);
      if (r.error !== undefined) break;
      positions.push(r.state.position);
    }
  }
  const boardHolder = el('div', { class: 'board-holder' });
  const caption = el('p', { class: 'review-caption', 'aria-live': 'polite' });
  let board: BoardView | null = null;
  const rows: HTMLElement[] = [];
  const show = (i: number) => {
    const p = review.plies[i];
    const pos = positions[i];
    if (!p || !pos) return;
    if (!board) {
      board = makeBoard(core, rules, pos.houses.length / 2, 'S', names);
      boardHolder.replaceChildren(board.el);
    }
    board.setPosition(pos);
    board.setLegal(p.mover, [p.best]);
    board.highlightHint(p.best);
    board.setLegal(null, []);
    caption.textContent = `${ts('reviewMove')} ${i + 1} · ${names[p.mover]} · ${labelled(ts('reviewPlayed'), `${p.move} (${valueText(p.played, p.played_exact)})`)} · ${labelled(ts('reviewBest'), `${p.best} (${valueText(p.best_value, p.best_exact)})`)}`;
    rows.forEach((r, k) => r.classList.toggle('current', k === i));
  };

  const summary = el('div', { class: 'review-summary' });
  if (review.turning !== null && review.turning !== undefined) {
    const p = review.plies[review.turning];
    const link = el('button', { type: 'button', class: 'linkish' }, ts('reviewLost', {
      n: review.turning + 1, who: names[p.mover], move: p.move, played: valueText(p.played, p.played_exact), best: p.best, kept: valueText(p.best_value, p.best_exact),
    }));
    link.addEventListener('click', () => show(review.turning!));
    summary.append(link);
  } else summary.append(el('p', {}, ts('reviewNoTurn')));
  for (const side of ['S', 'N'] as const) {
    const mine = review.plies.filter((p) => p.mover === side);
    summary.append(el('p', {}, ts('reviewCounts', {
      who: names[side], mistakes: mine.filter((p) => p.mark === 'mistake').length, blunders: mine.filter((p) => p.mark === 'blunder').length,
    })));
  }

  const table = el('table', { class: 'review-table' },
    el('thead', {}, el('tr', {}, ...['#', '', ts('reviewPlayed'), ts('reviewBest'), ''].map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  review.plies.forEach((p, i) => {
    const button = el('button', { type: 'button', class: 'linkish' }, String(i + 1));
    button.addEventListener('click', () => show(i));
    const row = el('tr', { class: `mark-${p.mark}` },
      el('td', {}, button),
      el('td', {}, names[p.mover]),
      el('td', {}, `${p.move} (${valueText(p.played, p.played_exact)})`),
      el('td', {}, p.best === p.move ? '' : `${p.best} (${valueText(p.best_value, p.best_exact)})`),
      el('td', { class: 'mark' }, ts(`mark.${p.mark}` as StudyKey)));
    rows.push(row);
    body.append(row);
  });
  table.append(body);
  page.append(summary, el('figure', {}, chart(review.plies, names, show), el('figcaption', {}, ts('reviewChart', { who: names.S }))),
    boardHolder, caption, table);
  if (review.plies.length > 0) show(review.turning ?? 0);
}
