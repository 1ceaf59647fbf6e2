// The game page: one controller for the three ways a board is fed: the server (a game id in the
// URL, events over the WebSocket), two players on this device, or the local computer (both run
// the C++ core in WebAssembly).
import type { BoardView } from './board';
import { makeBoard } from './board-setup';
import { Core, type LocalGame } from './core';
import { gameInfo, presetOf } from './games';
import { gameTitle } from './game-title';
import { t } from './i18n';
import { showRules } from './rules-dialog';
import { describe, hintReason, resultText, serverHintText } from './words';
import { ClockModel, clockText } from './clock';
import type { GameState, MoveEvent, SideLetter, WirePosition } from './types';
import { el } from './dom';
import { ratedLine } from './ranked';
import { replayStepper } from './replay';
import { serverNames, startServerGame } from './game-server';
import { setSound, soundOn } from './sound';
import { ts } from './study-words';
import { boardLegend, confirmButton, localGameButtons, matchOverText, setOverText, setResultOf } from './game-extras';
import type { GameSource, SourcePage } from './game-source';
import { isRoundsMatch, roundOverText, roundStatus, roundsOverText } from './rounds';
import type { HintAnswer } from './hints';

let activePage: GamePage | null = null;
document.addEventListener('keydown', (e) => GamePage.onKey(e));
window.addEventListener('resize', () => activePage?.fitBoard());
// A phone held upright: the board turned a quarter (style.css), sized to the height left for it.
const upright = window.matchMedia('(max-width: 560px) and (orientation: portrait)');

const levelDepth: Record<string, number> = { easy: 1, medium: 4, hard: 10 };

export async function gamePage(root: HTMLElement, route: { server?: string; rules?: string; ai?: string; side?: string }): Promise<void> {
  const core = await Core.load();
  const page = new GamePage(root, core);
  if (route.server) page.startServer(route.server);
  else page.startLocal(route.rules ?? 'kalah', route.ai, (route.side as SideLetter) ?? 'S');
}

// What game-server.ts, which feeds it a server's game, may use of it is SourcePage (game-source.ts).
export class GamePage implements SourcePage {
  board: BoardView | null = null;
  state: GameState | null = null;
  source: GameSource | null = null;
  you: SideLetter | 'both' | 'spectator' = 'both';
  lastMove: { side: SideLetter; house: number } | null = null;
  queue: Promise<void> = Promise.resolve();
  readonly status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  readonly bannerEl = el('p', { class: 'banner', 'aria-live': 'polite' });
  readonly setOverEl = el('div', { class: 'set-over', role: 'status', hidden: '' });
  readonly previewEl = el('p', { class: 'preview' });
  readonly hintEl = el('p', { class: 'hint-text', 'aria-live': 'polite' });
  // Polite live region: a screen reader hears each move, the opponent's included.
  readonly lastEl = el('p', { class: 'last-move', 'aria-live': 'polite' });
  readonly viewingEl = el('p', { class: 'viewing', role: 'status' });
  readonly recordEl = el('pre', { class: 'record-text' });
  readonly net = el('p', { class: 'net' });
  readonly share = el('div', { class: 'share', hidden: '' });
  readonly topBar = el('div', { class: 'player top' });
  readonly bottomBar = el('div', { class: 'player bottom' });
  readonly boardHolder = el('div', { class: 'board-holder' });
  readonly extras = el('div', { class: 'extras' });
  readonly title = el('h1', { class: 'game-title' });
  readonly ratedEl = el('div', { class: 'rated' });
  replayEl: HTMLElement | null = null;
  readonly rulesButton = el('button', { type: 'button', class: 'rules-link' }, t('rulesOf'));
  readonly teachButton = el('button', { type: 'button', class: 'teach' }, t('teach')) as HTMLButtonElement;
  bannerTimer = 0;
  readonly clock = new ClockModel();
  clockTimer = 0;
  hintPending = false;
  // Counts the messages that change the position, so a hint asked before one is dropped.
  positionVersion = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly core: Core,
  ) {
    const speed = el('input', { type: 'range', min: '0.25', max: '4', step: '0.25', id: 'speed', value: localStorage.getItem('semis.speed') ?? '1' }) as HTMLInputElement;
    speed.addEventListener('input', () => {
      localStorage.setItem('semis.speed', speed.value);
      if (this.board) this.board.speed = Number(speed.value);
    });
    const skip = el('button', { type: 'button', class: 'skip' }, t('skip'));
    skip.addEventListener('click', () => this.board?.skip());
    const sound = el('button', { type: 'button', class: 'sound', 'aria-pressed': String(soundOn()) }, t(soundOn() ? 'soundOn' : 'soundOff'));
    sound.addEventListener('click', () => {
      setSound(!soundOn());
      sound.setAttribute('aria-pressed', String(soundOn()));
      sound.textContent = t(soundOn() ? 'soundOn' : 'soundOff');
    });
    const teach = this.teachButton;
    teach.addEventListener('click', () => void this.teach());
    const recordBox = el('details', { class: 'record' }, el('summary', {}, t('record')), el('p', { class: 'record-help' }, t('recordHelp')), this.recordEl);
    root.replaceChildren(
      el('div', { class: 'game-page' },
        el('div', { class: 'game-head' }, el('a', { href: '/', class: 'back', 'data-link': '' }, '← ' + t('back')), this.title, this.rulesButton, this.net),
        this.share,
        this.status,
        this.ratedEl,
        this.topBar,
        this.setOverEl,
        this.boardHolder,
        this.bottomBar,
        this.bannerEl,
        this.previewEl,
        el('div', { class: 'controls' },
          el('label', { for: 'speed' }, t('speed')), speed, skip, sound, teach, this.extras),
        this.hintEl,
        this.lastEl,
        boardLegend(),
        el('p', { class: 'keys' }, ''),
        recordBox,
      ),
    );
    activePage?.source?.close();
    activePage = this;
  }

  static onKey(e: KeyboardEvent): void {
    activePage?.key(e);
  }

  key(e: KeyboardEvent): void {
    if (!this.board || !this.root.contains(this.bannerEl) || e.target instanceof HTMLInputElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[1-9]$/.test(e.key)) this.board.playHouseKey(Number(e.key));
    else if (e.key === 'h' || e.key === 'H') void this.teach();
    else if (e.key === 's' || e.key === 'S') this.board.skip();
  }

  // ---- sources ----

  startLocal(rules: string, ai: string | undefined, humanSide: SideLetter): void {
    const made = this.core.newGame(rules);
    if (typeof made === 'string') {
      this.status.textContent = made;
      return;
    }
    const game: LocalGame = made;
    const aiSide: SideLetter | null = ai ? (humanSide === 'S' ? 'N' : 'S') : null;
    this.you = ai ? humanSide : 'both';
    // The moves so far live in the URL, so a reload replays them.
    const moves = (new URLSearchParams(location.hash.slice(1)).get('m') ?? '').split(',').filter(Boolean).map(Number);
    for (const m of moves) if (game.play(m).error !== undefined) break;
    const played: number[] = game.state().plies?.map((p) => p.move) ?? [];
    const remember = () => history.replaceState(null, '', `${location.pathname}${location.search}#m=${played.join(',')}`);
    const think = () => {
      const s = this.state;
      if (!aiSide || !s || s.status !== 'playing' || s.position.to_move !== aiSide) return;
      this.status.textContent = t('opponentThinking');
      setTimeout(() => {
        // The engine's player at the chosen level; the binding's small search if it refuses.
        const move = this.core.ai(s.rules, s.position, ai ?? 'medium', played.length + 1);
        const house = move.error === undefined ? move.house : this.core.best(s.rules, s.position, levelDepth[ai ?? 'medium'] ?? 4).house;
        if (house) this.source?.play(house);
      }, 350);
    };
    this.source = {
      kind: ai ? 'ai' : 'local',
      play: (house) => {
        const r = game.play(house);
        if (r.error !== undefined) return;
        played.push(house);
        remember();
        this.enqueueMove(r.event, r.state).then(think);
      },
      hint: async () => this.localHint(),
      extra: () => {
        const out: HTMLElement[] = [];
        if (this.state?.can_swap) {
          const b = el('button', { type: 'button' }, t('swap'));
          b.addEventListener('click', () => {
            const r = game.swap();
            if (r.error === undefined) this.setState(r.state);
          });
          out.push(b);
        }
        out.push(...localGameButtons(game.state(), aiSide, humanSide, () => this.startLocal(rules, ai, humanSide), rules, ai));
        if (presetOf(rules) === 'al-manqala' && this.state?.status === 'playing') {
          out.push(confirmButton(t('splitOffer'), () => {
            const r = game.split();
            if (r.error === undefined) this.setState(r.state);
          }));
        }
        return out;
      },
      close: () => {},
    };
    const s = game.state();
    const names = this.localNames(aiSide);
    this.setup(s, humanSide, names);
    this.setState(s);
    think();
  }

  // "Review" once the game is over: the server's review of its game, or the core's of a local one.
  reviewLink(s: GameState): HTMLElement[] {
    if (s.status !== 'over' || !this.source) return [];
    const moves = (s.plies ?? []).map((p) => p.move).join(',');
    const href = this.source.kind === 'server' ? `/review/${s.id ?? ''}` : `/review?local=${encodeURIComponent(s.rules)}&m=${moves}`;
    return [el('a', { href, class: 'review-link button', 'data-link': '' }, ts('review'))];
  }

  localNames(aiSide: SideLetter | null): Record<SideLetter, string> {
    return {
      S: aiSide === 'S' ? t('computer') : aiSide ? `${t('south')} (${t('you')})` : t('south'),
      N: aiSide === 'N' ? t('computer') : aiSide ? `${t('north')} (${t('you')})` : t('north'),
    };
  }

  startServer(id: string): void {
    startServerGame(this, id);
  }

  // ---- board ----

  setup(s: GameState, bottom: SideLetter, names: Record<SideLetter, string>): void {
    const info = gameInfo(presetOf(s.rules));
    this.title.textContent = gameTitle(s.rules);
    this.rulesButton.onclick = () => void showRules(info.preset);
    document.title = `${this.title.textContent} · Semis`;
    const board = makeBoard(this.core, s.rules, s.position.houses.length / 2, bottom, names);
    board.onPlay = (h) => this.source?.play(h);
    board.onPreview = (h) => this.preview(h);
    board.banner = (text, tone) => this.flash(text, tone);
    this.board = board;
    this.boardHolder.replaceChildren(board.el);
    this.topBar.dataset.side = bottom === 'S' ? 'N' : 'S';
    this.bottomBar.dataset.side = bottom;
    // Digit keys reach houses 1 to 9; on bigger boards the arrows reach the rest.
    this.root.querySelector('.keys')!.textContent = t('keyboardHelp', { n: Math.min(9, s.position.houses.length / 2) });
    (window as unknown as { semisBoard: BoardView }).semisBoard = board;
  }

  names(): Record<SideLetter, string> {
    if (this.source?.kind === 'server' && this.state) return serverNames(this.state);
    return this.localNames(this.source?.kind === 'ai' ? (this.you === 'S' ? 'N' : 'S') : null);
  }

  enqueueMove(e: MoveEvent, next: GameState): Promise<void> {
    this.hintEl.textContent = '';
    this.board?.highlightHint(null);
    this.queue = this.queue.then(async () => {
      if (!this.board) return;
      // The state shown now is the one this move was played on (earlier moves have been shown).
      const setBefore = e.set ?? this.state?.set ?? 1;
      this.lastMove = { side: e.side, house: e.house };
      this.board.setLegal(null, []);
      // A set of a match ends and the next begins: the server sends the set's last position
      // beside the next set's start; the core's event is the last position itself.
      const goesOn = next.status !== 'over';
      const end = e.set_end_position ?? (goesOn && (next.set ?? 1) !== setBefore ? e.position : undefined);
      this.board.markLast(null);
      await this.board.animate(e.trace, end ?? e.position, Boolean(end) && goesOn);
      if (end && goesOn) await this.setInterlude(setBefore, end, next);
      this.setState(next);
    });
    return this.queue;
  }

  // A past position from the move list; the last one is the game itself again.
  view(pos: WirePosition, k: number, last: number): void {
    if (!this.board || !this.state) return;
    if (k === last) {
      this.setState(this.state);
      return;
    }
    this.board.setPosition(pos);
    this.board.setLegal(null, []);
    this.board.markLast(null);
    this.viewingEl.textContent = t('viewingMove', { k, n: last });
  }

  // Between two sets: the set's result and the match points over its last position, until the
  // player goes on (or a few seconds pass).
  setInterlude(k: number, end: WirePosition, next: GameState): Promise<void> {
    const rounds = isRoundsMatch(next);
    const text = rounds ? roundOverText(k, setResultOf(end), next, this.names()) : setOverText(k, setResultOf(end), this.names(), next.points);
    const go = el('button', { type: 'button', class: 'next-set' }, t(rounds ? 'nextRound' : 'nextSet')) as HTMLButtonElement;
    this.setOverEl.replaceChildren(el('p', {}, text), go);
    this.setOverEl.hidden = false;
    go.focus();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.setOverEl.hidden = true;
        this.setOverEl.replaceChildren();
        resolve();
      };
      const timer = window.setTimeout(done, 6000);
      go.addEventListener('click', done);
    });
  }

  // On a phone held upright the whole board, its stores and both players' bars fit the screen: the
  // board gets the height between its top and the bottom bar (a set's result shown above it is
  // left out: it goes away).
  fitBoard(): void {
    if (!upright.matches || !this.board) {
      this.boardHolder.style.removeProperty('--fit');
      return;
    }
    const interlude = this.setOverEl.hidden ? 0 : this.setOverEl.offsetHeight;
    const top = this.boardHolder.getBoundingClientRect().top + window.scrollY - interlude;
    const below = this.bottomBar.offsetHeight + 12;
    this.boardHolder.style.setProperty('--fit', `${Math.max(320, Math.floor(window.innerHeight - top - below))}px`);
  }

  // Both clocks as the clock model has them now (the server's last word, counted down).
  drawClocks(): void {
    for (const side of ['S', 'N'] as const) {
      const span = this.root.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
      if (!span) continue;
      const ms = this.clock.ms(side);
      span.textContent = clockText(ms);
      if (ms === null) delete span.dataset.ms;
      else span.dataset.ms = String(ms);
      span.classList.toggle('running', this.clock.running === side);
    }
  }

  setState(s: GameState): void {
    this.state = s;
    const board = this.board;
    if (!board) return;
    if (!board.busy) board.setPosition(s.position);
    const toMove = s.status === 'playing' ? s.position.to_move : null;
    const mine = toMove !== null && (this.you === 'both' || this.you === toMove);
    board.setLegal(mine ? toMove : null, mine ? s.legal : []);
    // Teach me only for a player of a game going on: what the state says is possible.
    this.teachButton.hidden = s.status !== 'playing' || this.you === 'spectator';
    document.body.dataset.toMove = toMove ?? '-';
    document.body.dataset.status = s.status;
    document.body.dataset.plies = String(s.plies?.length ?? 0);
    const names = this.names();
    for (const bar of [this.topBar, this.bottomBar]) {
      const side = bar.dataset.side as SideLetter;
      const seat = s.seats?.[side];
      bar.replaceChildren(
        el('span', { class: 'name' }, names[side]),
        // No stores on the ring (Awalé): each player's captured seeds are said beside his name.
        board.hasStores ? '' : el('span', { class: 'captured', 'data-side': side }, t('capturedCount', { count: s.position.stores[side === 'S' ? 0 : 1] })),
        seat && seat.connected === false && seat.kind === 'human' ? el('span', { class: 'away' }, t('away')) : '',
        el('span', { class: 'clock', 'data-side': side }),
      );
      bar.classList.toggle('to-move', toMove === side);
    }
    this.drawClocks();
    // Whose turn, or the result.
    if (s.status === 'over' && s.result) {
      const text = isRoundsMatch(s) ? roundsOverText(s, names) : (s.sets ?? 1) > 1 ? matchOverText(s, names) : resultText(s.result, names, this.you);
      this.status.textContent = t('resultLine', { text });
      this.status.className = 'status over';
    } else if (s.status === 'waiting') {
      this.status.textContent = t('waitingShort');
      this.status.className = 'status';
    } else if (toMove) {
      this.status.textContent = this.you === toMove ? t('yourTurn') : t('turn', { who: names[toMove] });
      this.status.className = `status turn-${toMove}`;
    }
    if (this.you === 'spectator') this.status.textContent += ` — ${t('spectator')}`;
    if (isRoundsMatch(s) && s.status !== 'over') this.status.textContent += ` · ${roundStatus(s, names)}`;
    else if ((s.sets ?? 1) > 1 && s.status !== 'over') this.status.textContent += ` · ${t('set', { k: s.set ?? 1, n: s.sets ?? 1 })} · ${t('points', { a: s.points?.[0] ?? 0, b: s.points?.[1] ?? 0 })}`;
    // The share link while the friend has not come.
    if (s.status === 'waiting' && this.source?.kind === 'server') {
      const link = `${location.origin}/g/${s.id ?? ''}`;
      const input = el('input', { readonly: '', value: link, class: 'link', 'aria-label': t('copyLink') }) as HTMLInputElement;
      const copy = el('button', { type: 'button' }, t('copyLink'));
      copy.addEventListener('click', async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          document.execCommand('copy');
        }
        copy.textContent = t('copied');
      });
      this.share.replaceChildren(el('p', {}, t('waitingFriend')), input, copy);
      this.share.hidden = false;
    } else this.share.hidden = true;
    const last = this.lastMove ?? lastPly(s);
    this.lastEl.textContent = last ? t('lastMoveBoth', { who: names[last.side], house: last.house }) : '';
    board.setNames(names);
    const myTurn = toMove !== null && (this.you === 'both' || this.you === toMove);
    if (myTurn && s.status === 'playing' && board.el.contains(document.activeElement) && !(document.activeElement as HTMLElement).classList.contains('legal')) {
      board.focusActive();
    }
    // The last move's house is marked, unless a new set's board has replaced its own.
    const lastSet = (s.plies?.[s.plies.length - 1] as { set?: number } | undefined)?.set;
    board.markLast(last && s.status !== 'waiting' && (lastSet === undefined || lastSet === s.set) ? last.side : null, last?.house ?? 0);
    if (s.record !== undefined) this.recordEl.textContent = s.record;
    else if (!this.recordEl.textContent) this.recordEl.textContent = (s.plies ?? []).map((p, i) => `${i + 1}. ${p.mover}${p.move}`).join(' ');
    this.extras.replaceChildren(...(this.source?.extra() ?? []), ...this.reviewLink(s));
    this.ratedEl.replaceChildren(ratedLine(s, names));
    // A finished game on the server: step through it (once the last move's animation is done).
    // The moves so far, to step through during the game or after it (back to the game at the end).
    if (!board.busy) {
      this.replayEl?.remove();
      this.viewingEl.textContent = '';
      this.replayEl = replayStepper(this.core, s, (pos, k, last) => this.view(pos, k, last));
      if (this.replayEl) this.extras.after(this.replayEl, this.viewingEl);
    }
    this.fitBoard();
  }

  preview(house: number | null): void {
    const s = this.state;
    if (!this.board || !s || house === null || s.position.to_move === null) {
      this.previewEl.textContent = '';
      this.board?.showPreview(null);
      return;
    }
    const p = this.core.preview(s.rules, s.position, house);
    if (p.error !== undefined) return;
    this.board.showPreview(p);
    this.previewEl.textContent = describe(p, this.board);
  }

  localHint(): HintAnswer {
    const s = this.state;
    if (!s || s.status !== 'playing' || !s.position.to_move) return null;
    // The engine's hint, with its reasons; the small search of the binding if the engine refuses.
    const h = this.core.hint(s.rules, s.position, 60000);
    if (h.error === undefined) return { house: h.house, text: serverHintText(h) };
    const depth = 6;
    const b = this.core.best(s.rules, s.position, depth);
    if (b.error !== undefined) return null;
    return { house: b.house, text: hintReason(b, depth) };
  }

  async teach(): Promise<void> {
    if (!this.board || !this.state || this.board.busy || this.hintPending) return;
    const toMove = this.state.status === 'playing' ? this.state.position.to_move : null;
    if (!toMove || !(this.you === 'both' || this.you === toMove)) {
      this.hintEl.textContent = t('hintNone');
      return;
    }
    this.hintPending = true;
    this.teachButton.disabled = true;
    this.teachButton.setAttribute('aria-busy', 'true');
    this.hintEl.textContent = t('hintWaiting');
    const version = this.positionVersion;
    let h: HintAnswer = null;
    try {
      h = (await this.source?.hint()) ?? null;
    } finally {
      this.hintPending = false;
      this.teachButton.disabled = false;
      this.teachButton.removeAttribute('aria-busy');
    }
    if (version !== this.positionVersion || this.board.busy) {
      this.hintEl.textContent = '';
      return;
    }
    if (!h) {
      this.hintEl.textContent = t('hintNone');
      return;
    }
    if ('error' in h) {
      this.board.highlightHint(null);
      this.hintEl.textContent = h.error;
      return;
    }
    this.board.highlightHint(h.house);
    this.hintEl.textContent = h.text;
  }

  flash(text: string, tone = ''): void {
    this.bannerEl.textContent = text;
    this.bannerEl.className = `banner show ${tone}`;
    clearTimeout(this.bannerTimer);
    this.bannerTimer = window.setTimeout(() => (this.bannerEl.className = 'banner'), 1800);
  }
}

function lastPly(s: GameState): { side: SideLetter; house: number } | null {
  const p = s.plies?.[s.plies.length - 1];
  return p ? { side: p.mover, house: p.move } : null;
}

