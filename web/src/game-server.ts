// A game on the server, fed to the game page: the WebSocket's events, the page's actions (resign,
// draws, rematch, hints) sent back, the clocks kept with the server's word.
import { el } from './dom';
import { confirmButton, eventSentence } from './game-extras';
import { showTakeBack, takeBackButton, takeBackRefusal, type TakeBackEvent } from './game-takeback';
import type { SourcePage } from './game-source';
import { HINT_WAIT_MS, hintErrorText, type HintAnswer } from './hints';
import { presetOf } from './games';
import { t, type Key } from './i18n';
import { api, Connection, type ServerEvent } from './net';
import { fairPlay, ratingSuffix } from './ranked';
import type { GameState, MoveEvent, Result, ServerHint, SideLetter } from './types';
import { serverHintText } from './words';

// The game as the server has it after the last event received. The page's own `state` is the one
// shown, which lags while moves are animated; every event is applied to this one, so the next state
// is never built from a copy that is still showing an earlier move (issue 22).
interface Feed {
  model: GameState | null;
}

export function startServerGame(page: SourcePage, id: string): void {
  const feed: Feed = { model: null };
  // At most one hint is asked at a time (the button is disabled meanwhile).
  let pendingHint: { resolve: (h: HintAnswer) => void; version: number; timer: number } | null = null;
  const answerHint = (h: HintAnswer) => {
    const p = pendingHint;
    if (!p) return;
    pendingHint = null;
    clearTimeout(p.timer);
    // A hint for a position that has changed since it was asked is no use any more.
    p.resolve(p.version === page.positionVersion ? h : null);
  };
  const conn = new Connection(id, {
    state: (g) => {
      feed.model = g;
      page.you = g.you ?? 'spectator';
      page.positionVersion += 1;
      // The clocks count from the moment the message arrived, not after the animations.
      page.clock.set(g.clock, g.position.to_move, g.status === 'playing');
      if (!page.board) page.setup(g, page.you === 'N' ? 'N' : 'S', serverNames(g));
      page.queue = page.queue.then(() => page.setState(g));
      page.drawClocks();
      void refreshRecord(page, id);
    },
    event: (e) => serverEvent(page, feed, e, id, conn),
    ack: () => {},
    error: (code, message, moveId) => {
      // An error that answers no move while a hint is asked is the hint's answer (busy,
      // not_a_player, game_over, rate_limited...): said beside the button, not as a banner.
      if (pendingHint && moveId === undefined) {
        answerHint({ error: hintErrorText(code, message) });
        return;
      }
      if (code === 'not_found') page.status.textContent = t('notFound');
      else page.flash(takeBackRefusal(code) ?? (message || code));
      // A refused move: show the authoritative state again (a rejoin sends it).
      if (page.state && page.board) page.setState(page.state);
    },
    status: (online) => {
      page.net.textContent = online ? '' : t('reconnecting');
      page.net.classList.toggle('offline', !online);
      document.body.dataset.online = online ? '1' : '0';
    },
    other: (msg) => {
      if (msg.type === 'presence' && msg.seats) {
        if (feed.model) feed.model = { ...feed.model, seats: keepRatings(msg.seats as GameState['seats'], feed.model) };
        page.queue = page.queue.then(() => {
          if (!page.state) return;
          page.setState({ ...page.state, seats: keepRatings(msg.seats as GameState['seats'], page.state) });
        });
      }
      // A rated result stored: both players are told at once (no polling), wherever they are.
      if (msg.type === 'ratings' && msg.game === id && msg.ratings) {
        const ratings = msg.ratings as GameState['ratings'];
        if (feed.model) feed.model = { ...feed.model, ratings };
        page.queue = page.queue.then(() => {
          if (page.state) page.setState({ ...page.state, ratings });
        });
      }
      // Events replayed after a reconnect carry the clocks of their time: ask for today's.
      if (msg.type === 'caught_up' && msg.game === id) void refetch(page, feed, id, conn);
      if (msg.type === 'hint' && msg.game === id && pendingHint) {
        const h = msg as unknown as ServerHint;
        // The server's house is lit only if the server's own legal list has it.
        const legal = page.state?.legal ?? [];
        answerHint(Number.isInteger(h.house) && legal.includes(h.house) ? { house: h.house, text: serverHintText(h) } : { error: hintErrorText('bad_answer', '') });
      }
    },
  });
  (window as unknown as { semisConnection: Connection }).semisConnection = conn;
  page.source = {
    kind: 'server',
    play: (house) => {
      if (conn.move(house) !== null) page.board?.setLegal(null, []);
    },
    hint: () =>
      new Promise((resolve) => {
        if (pendingHint) return resolve(null);
        if (!conn.send({ type: 'hint', game: id })) return resolve({ error: t('hintError.offline') });
        const timer = window.setTimeout(() => answerHint({ error: t('hintError.timeout') }), HINT_WAIT_MS);
        pendingHint = { resolve, version: page.positionVersion, timer };
      }),
    extra: () => {
      const s = page.state;
      if (!s || page.you === 'spectator' || page.you === 'both') return [];
      const out: HTMLElement[] = [];
      const action = (label: string, type: string) => {
        const b = el('button', { type: 'button', class: `act-${type}` }, label);
        b.addEventListener('click', () => conn.send({ type, game: id }));
        out.push(b);
      };
      out.push(...fairPlay(s, page.you as SideLetter, (type) => conn.send({ type, game: id })));
      const split = presetOf(s.rules) === 'al-manqala';
      if (s.status === 'playing' && s.draw_offer && s.draw_offer !== page.you) {
        const who = serverNames(s)[s.draw_offer];
        out.push(el('span', { class: 'offer', role: 'status' }, t(split ? 'splitOffered' : 'drawOffered', { who })));
        action(t('accept'), split ? 'accept_split' : 'accept_draw');
        action(t('decline'), 'decline_draw');
      }
      if (s.status === 'playing') {
        out.push(confirmButton(t('resign'), () => conn.send({ type: 'resign', game: id })));
        if (!s.draw_offer) action(split ? t('splitOffer') : t('offerDraw'), split ? 'offer_split' : 'offer_draw');
        if (s.can_swap) action(t('swap'), 'swap');
        out.push(...takeBackButton(s, page.you, () => conn.send({ type: 'takeback', game: id })));
      } else if (s.status === 'over') {
        const me = page.you === 'N' ? 1 : 0;
        const asked = s.rematch_asked ?? [false, false];
        if (asked[1 - me] && !asked[me]) {
          out.push(el('span', { class: 'offer', role: 'status' }, t('rematchOffered', { who: serverNames(s)[me === 0 ? 'N' : 'S'] })));
          action(t('acceptRematch'), 'rematch');
        } else if (!asked[me]) action(t('rematch'), 'rematch');
      }
      return out;
    },
    close: () => {
      conn.close();
      clearInterval(page.clockTimer);
      page.clockTimer = 0;
    },
  };
  // The side to move's clock is redrawn often enough that a second never shows late.
  page.clockTimer = window.setInterval(() => page.drawClocks(), 200);
}

export function serverNames(g: GameState): Record<SideLetter, string> {
  const name = (s: SideLetter) => {
    const seat = g.seats?.[s];
    const level = seat?.level && ['easy', 'medium', 'hard', 'perfect'].includes(seat.level) ? t(`level.${seat.level}` as Key) : seat?.level;
    const base = seat?.kind === 'ai' ? `${t('computer')}${level ? ` (${level})` : ''}` : seat?.name ?? (s === 'S' ? t('south') : t('north'));
    const rated = base + ratingSuffix(g, s);
    return g.you === s ? `${rated} (${t('you')})` : rated;
  };
  return { S: name('S'), N: name('N') };
}

// Presence says who is connected; the ratings beside the names stay the state's.
function keepRatings(seats: GameState['seats'], s: GameState): GameState['seats'] {
  const out = { ...seats };
  for (const side of ['S', 'N'] as const) {
    const was = s.seats?.[side]?.rating;
    if (was && out[side]) out[side] = { ...out[side], rating: was };
  }
  return out;
}

// The state after a move, from the state before it and what the event says (the server's word on
// the status, the set, the points and what each side may do now).
export function stateAfterMove(prev: GameState, m: MoveEvent, n: number): GameState {
  const over = m.status !== undefined ? m.status === 'over' : m.trace.some((x) => x.kind === 'game_end') && !m.set_end_position;
  const next: GameState = {
    ...prev,
    position: m.position,
    legal: over ? [] : m.legal,
    last_event: n,
    plies: [...(prev.plies ?? []), { mover: m.side, move: m.house, set: m.set }],
    status: over ? 'over' : prev.status,
    set: m.next_set ?? prev.set,
    points: m.points ?? prev.points,
    can_swap: m.can_swap ?? false,
    can_abort: over ? false : m.can_abort ?? prev.can_abort,
    draw_offer: null, // a move declines an offer (docs/protocol.md)
  };
  if (m.clock !== undefined) next.clock = m.clock;
  return next;
}

function serverEvent(page: SourcePage, feed: Feed, e: ServerEvent, id: string, conn: Connection): void {
  const ev = e.event;
  const prev = feed.model;
  if (ev.kind === 'move') {
    const m = ev as MoveEvent;
    if (!prev) return;
    page.positionVersion += 1;
    const next = stateAfterMove(prev, m, e.n);
    feed.model = next;
    const ends = next.status === 'over';
    // Both clocks as the server has them now; the animation does not delay them.
    if (m.clock !== undefined) page.clock.set(m.clock, m.position.to_move, !ends);
    else if (ends) page.clock.stop();
    page.drawClocks();
    void page.enqueueMove(m, next).then(() => refreshRecord(page, id));
    return;
  }
  if (ev.kind === 'set_over') {
    // The move before it has said the set, the points and the status already.
    if (prev) feed.model = { ...prev, set_results: [...(prev.set_results ?? []), ev.result as Result], last_event: e.n };
    return;
  }
  // The game is decided (a flag, a resignation, an agreement): the clocks stop now.
  if (ev.kind === 'game_over' || ev.kind === 'flag') {
    page.clock.stop();
    page.drawClocks();
  }
  if (ev.kind === 'game_over' && prev) {
    const next: GameState = { ...prev, status: 'over', result: ev.result as Result, legal: [], can_abort: false, can_swap: false, draw_offer: null, last_event: e.n };
    feed.model = next;
    page.queue = page.queue.then(() => page.setState(next));
  }
  if (ev.kind === 'takeback') {
    const tb = ev as unknown as TakeBackEvent;
    // The server's game too: the next move is played on the position taken back to.
    if (prev) feed.model = { ...prev, position: tb.position, legal: tb.legal, plies: (prev.plies ?? []).slice(0, Math.max(0, (prev.plies ?? []).length - tb.plies)), last_event: e.n };
    showTakeBack(page, tb, e.n);
  }
  const said = eventSentence(ev.kind, ev.side as SideLetter | undefined, page.you, page.names());
  if (said) page.flash(said);
  // Seats, offers, results: the whole state is cheap to fetch again.
  if (ev.kind === 'rematch' && typeof ev.new_game === 'string') {
    location.assign(`/g/${ev.new_game}`);
    return;
  }
  void refetch(page, feed, id, conn);
}

async function refetch(page: SourcePage, feed: Feed, id: string, conn: Connection): Promise<void> {
  let g: GameState;
  try {
    g = await api<GameState>('GET', `/api/games/${id}`);
  } catch {
    return; // the WebSocket resync covers it
  }
  const model = feed.model;
  if ((g.last_event ?? 0) >= conn.seen || !model) {
    // The newest word: the clocks as of this answer, and the state shown once the moves before it are.
    page.clock.set(g.clock, g.position.to_move, g.status === 'playing');
    page.drawClocks();
  } else {
    // Older than the events already received: only what events do not carry is taken from it.
    const { position, legal, plies, status, result, set, points, set_results, clock, can_swap, can_abort, draw_offer, last_event } = model;
    g = { ...g, position, legal, plies, status, result, set, points, set_results, clock, can_swap, can_abort, draw_offer, last_event };
  }
  // An answer read before the result was rated must not hide the `ratings` message's figures.
  if (!g.ratings && model?.ratings && g.status === 'over') g = { ...g, ratings: model.ratings };
  feed.model = g;
  page.queue = page.queue.then(() => page.setState(g));
}

async function refreshRecord(page: SourcePage, id: string): Promise<void> {
  try {
    const res = await fetch(`/api/games/${id}/record`, { credentials: 'same-origin' });
    if (res.ok) page.recordEl.textContent = await res.text();
  } catch {
    /* keep the last one */
  }
}

