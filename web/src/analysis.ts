// The analysis board (/analysis[?position=TEXT], docs/study.md): set up a position (its text, as
// `semis` prints it) or paste a game record, then see every legal move's value from the C++ engine
// (sm_values: exact where the budget proves it). A move clicked is played; Back and Forward walk
// the line.
import type { BoardView } from './board';
import { makeBoard } from './board-setup';
import { Core, type LocalGame } from './core';
import { el } from './dom';
import { t } from './i18n';
import { ts, valueText } from './study-words';
import type { SideLetter, WirePosition } from './types';

const NODES = 400_000;

export async function analysisPage(root: HTMLElement, positionText: string | null): Promise<void> {
  const core = await Core.load();
  document.title = `${ts('analysis')} · Semis`;
  const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const positionInput = el('input', { id: 'analysis-position', class: 'position-text', value: positionText ?? 'kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S', spellcheck: 'false' }) as HTMLInputElement;
  const recordInput = el('textarea', { id: 'analysis-record', rows: '4', spellcheck: 'false' }) as HTMLTextAreaElement;
  const showPosition = el('button', { type: 'button' }, ts('analysisLoad'));
  const showRecord = el('button', { type: 'button' }, ts('analysisLoad'));
  const holder = el('div', { class: 'board-holder' });
  const values = el('ul', { class: 'move-values' });
  const valuesTitle = el('h2', {});
  const back = el('button', { type: 'button' }, ts('analysisPrev')) as HTMLButtonElement;
  const forward = el('button', { type: 'button' }, ts('analysisNext')) as HTMLButtonElement;
  const where = el('span', { class: 'ply' });
  root.replaceChildren(el('div', { class: 'analysis-page' },
    el('div', { class: 'game-head' }, el('a', { href: '/', class: 'back', 'data-link': '' }, '← ' + t('back')), el('h1', { class: 'game-title' }, ts('analysis'))),
    el('p', {}, ts('analysisIntro')),
    el('div', { class: 'field' }, el('label', { for: 'analysis-position' }, ts('analysisPosition')), positionInput, showPosition),
    el('div', { class: 'field' }, el('label', { for: 'analysis-record' }, ts('analysisRecord')), recordInput, showRecord),
    status, holder, el('div', { class: 'controls' }, back, where, forward), valuesTitle, values));

  // The line: a start and the moves from it; `at` moves of it are on the board.
  let rules = 'kalah';
  let start = '';
  let line: number[] = [];
  let at = 0;
  let board: BoardView | null = null;

  const gameAt = (n: number): LocalGame | null => {
    const g = core.newGameAt(start);
    if (typeof g === 'string') {
      status.textContent = ts('analysisBad', { message: g });
      return null;
    }
    for (const m of line.slice(0, n)) if (g.play(m).error !== undefined) return null;
    return g;
  };

  const render = () => {
    const g = gameAt(at);
    if (!g) return;
    const s = g.state();
    const pos: WirePosition = s.position;
    if (!board) {
      const names: Record<SideLetter, string> = { S: t('south'), N: t('north') };
      board = makeBoard(core, rules, pos.houses.length / 2, 'S', names);
      board.onPlay = (h) => {
        line = [...line.slice(0, at), h];
        at += 1;
        render();
      };
      holder.replaceChildren(board.el);
    }
    board.setPosition(pos);
    back.disabled = at === 0;
    forward.disabled = at >= line.length;
    where.textContent = line.length > 0 ? ts('analysisPly', { n: at, total: line.length }) : '';
    values.replaceChildren();
    if (s.status !== 'playing' || !pos.to_move) {
      board.setLegal(null, []);
      valuesTitle.textContent = ts('analysisOver');
      return;
    }
    board.setLegal(pos.to_move, s.legal);
    valuesTitle.textContent = ts('analysisValues', { who: pos.to_move === 'S' ? t('south') : t('north') });
    status.textContent = '';
    const v = core.values(rules, pos, NODES);
    if (v.error !== undefined) {
      status.textContent = ts('analysisBad', { message: v.error });
      return;
    }
    const best = Math.max(...v.moves.map((m) => m.value));
    for (const m of v.moves) {
      const b = el('button', { type: 'button', class: m.value === best ? 'best' : '' }, ts('analysisHouse', { house: m.house, value: valueText(m.value, m.exact) }));
      b.addEventListener('click', () => board?.onPlay(m.house));
      values.append(el('li', {}, b));
    }
  };

  const load = (newStart: string, moves: number[]) => {
    const g = core.newGameAt(newStart);
    if (typeof g === 'string') {
      status.textContent = ts('analysisBad', { message: g });
      return;
    }
    start = newStart;
    rules = g.state().rules;
    line = moves;
    at = 0;
    board = null;
    render();
  };

  showPosition.addEventListener('click', () => load(positionInput.value.trim(), []));
  showRecord.addEventListener('click', () => {
    const r = core.record(recordInput.value);
    if (r.error !== undefined) {
      status.textContent = ts('analysisBad', { message: r.error });
      return;
    }
    positionInput.value = r.start;
    load(r.start, r.moves);
  });
  back.addEventListener('click', () => {
    if (at > 0) at -= 1;
    render();
  });
  forward.addEventListener('click', () => {
    if (at < line.length) at += 1;
    render();
  });
  load(positionInput.value.trim(), []);
}
