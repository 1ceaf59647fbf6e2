// "Learn to play" (/learn/<preset>): the steps of lesson-data.ts played on the real board. Each
// step starts the WebAssembly core at its position, lets the learner play only the step's house,
// has the core play it, and checks what the core reports (an extra turn, a capture, a castle, the
// end) before explaining it. The page never decides a rule itself: a step whose answer differs from
// what the lesson expects says so instead of explaining.
import './lesson.css';
import { makeBoard } from './board-setup';
import { Core, type LocalGame } from './core';
import { el } from './dom';
import { gameInfo } from './games';
import { currentLang } from './i18n';
import { type Expect, type LessonStep, lessonWords, lessons } from './lesson-data';
import { showRules } from './rules-dialog';
import type { MoveEvent, SideLetter } from './types';

type WordKey = keyof typeof lessonWords;

function w(key: WordKey, params: Record<string, string | number> = {}): string {
  return lessonWords[key][currentLang()].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
}

// The core's own report of one move meets the step's expectation.
export function reportShows(expect: Expect, events: MoveEvent[]): boolean {
  const kinds = events.flatMap((e) => e.trace.map((x) => x.kind));
  const last = events[events.length - 1];
  switch (expect) {
    case 'chain':
      return events.some((e) => e.trace.filter((x) => x.kind === 'capture').length >= 2);
    case 'turn_passes':
      return !kinds.includes('game_end') && last?.position.to_move === 'N';
    default:
      return kinds.includes(expect);
  }
}

export async function lessonPage(root: HTMLElement, preset: string): Promise<void> {
  const steps = lessons[preset];
  const back = el('a', { href: '/', 'data-link': '', class: 'back' }, '← ' + w('back'));
  if (!steps) {
    root.replaceChildren(el('div', { class: 'lesson' }, back, el('p', { class: 'status' }, w('unknown'))));
    return;
  }
  const core = await Core.load();
  const name = gameInfo(preset).name[currentLang()];
  document.title = `${w('title', { name })} · Semis`;
  const counter = el('p', { class: 'lesson-counter' });
  const heading = el('h2', { class: 'lesson-step-title' });
  const say = el('p', { class: 'lesson-say', 'aria-live': 'polite' });
  const check = el('p', { class: 'lesson-check', role: 'status', 'aria-live': 'polite' });
  const holder = el('div', { class: 'board-holder' });
  const actions = el('div', { class: 'lesson-actions' });
  root.replaceChildren(
    el('div', { class: 'lesson game-page' },
      el('div', { class: 'game-head' }, back, el('h1', { class: 'game-title' }, w('title', { name }))),
      // What happened and the way on sit above the board, so that on a phone they show where
      // the step's words were.
      counter, heading, say, check, actions, holder),
  );

  const show = (k: number) => {
    if (k >= steps.length) return finish();
    const step = steps[k];
    document.body.dataset.lessonStep = String(k + 1);
    document.body.dataset.lessonDone = '0';
    counter.textContent = w('step', { k: k + 1, n: steps.length });
    heading.textContent = step.title[currentLang()];
    say.textContent = `${step.before[currentLang()]} ${w('playThis')}`;
    check.textContent = '';
    say.hidden = false;
    check.hidden = false;
    delete check.dataset.ok;
    actions.replaceChildren();
    void playStep(core, step, holder, say, (ok, events) => {
      check.dataset.ok = ok ? '1' : '0';
      check.dataset.expect = step.expect;
      check.dataset.trace = events.flatMap((e) => e.trace.map((x) => x.kind)).join(' ');
      check.textContent = ok ? step.after[currentLang()] : w('mismatch', { expect: step.expect });
      const retry = el('button', { type: 'button', class: 'lesson-retry' }, w('retry'));
      retry.addEventListener('click', () => show(k));
      const next = el('button', { type: 'button', class: 'lesson-next' }, w('next'));
      next.addEventListener('click', () => show(k + 1));
      actions.replaceChildren(retry, ...(ok ? [next] : []));
      (ok ? next : retry).focus({ preventScroll: true });
      check.scrollIntoView({ block: 'nearest' });
    });
  };

  const finish = () => {
    document.body.dataset.lessonDone = '1';
    counter.textContent = '';
    heading.textContent = w('done', { name });
    say.hidden = true;
    check.hidden = true;
    const play = el('a', { href: `/?local=${encodeURIComponent(preset)}&ai=easy&side=S`, 'data-link': '', class: 'button lesson-play' }, w('playComputer'));
    const rules = el('button', { type: 'button', class: 'rules-link' }, w('rules'));
    rules.addEventListener('click', () => void showRules(preset));
    actions.replaceChildren(play, rules);
    play.focus();
  };

  show(0);
}

// One step: the position, the step's houses lit one after the other, each sown by the core and
// animated; `done` gets whether the core's answer shows what the step teaches.
async function playStep(core: Core, step: LessonStep, holder: HTMLElement, say: HTMLElement,
  done: (ok: boolean, events: MoveEvent[]) => void): Promise<void> {
  const made = core.newGameAt(step.position);
  if (typeof made === 'string') {
    say.textContent = made;
    return;
  }
  const game: LocalGame = made;
  const start = game.state();
  const you = w('you');
  const names: Record<SideLetter, string> = { S: you, N: w('opponent') };
  const board = makeBoard(core, start.rules, start.position.houses.length / 2, 'S', names);
  holder.replaceChildren(board.el);
  board.setPosition(start.position);
  const events: MoveEvent[] = [];
  let next = 0;
  const offer = () => {
    const house = step.play[next];
    board.setLegal('S', [house]);
    board.highlightHint(house);
  };
  board.onPlay = (house) => {
    if (house !== step.play[next]) return;
    board.setLegal(null, []);
    board.highlightHint(null);
    const r = game.play(house);
    if (r.error !== undefined) {
      done(false, events);
      return;
    }
    events.push(r.event);
    next += 1;
    void board.animate(r.event.trace, r.event.position).then(() => {
      board.setPosition(r.event.position);
      if (next < step.play.length && r.event.position.to_move === 'S') {
        say.textContent = w('again', { h: step.play[next] });
        offer();
        return;
      }
      done(reportShows(step.expect, events), events);
    });
  };
  offer();
}
