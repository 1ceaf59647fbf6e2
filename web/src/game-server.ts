// A game on the server, fed to the game page: the WebSocket's events, the page's actions (resign,
// draws, rematch, hints) sent back, the clocks kept with the server's word.
import { el } from './dom';
import { confirmButton, eventSentence } from './game-extras';
import { showTakeBack, takeBackButton, takeBackRefusal, type TakeBackEvent } from './game-takeback';
import { HINT_WAIT_MS, hintErrorText, type GamePage, type HintAnswer } from './game';
import { presetOf } from './games';
import { t, type Key } from './i18n';
import { api, Connection, type ServerEvent } from './net';
import { fairPlay, ratingSuffix } from './ranked';
import type { GameState, MoveEvent, ServerHint, SideLetter } from './types';
import { serverHintText } from './words';

export function startServerGame(page: GamePage, id: string): void {
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
      page.you = g.you ?? 'spectator';
      page.positionVersion += 1;
      // The clocks count from the moment the message arrived, not after the animations.
      page.clock.set(g.clock, g.position.to_move, g.status === 'playing');
      if (!page.board) page.setup(g, page.you === 'N' ? 'N' : 'S', serverNames(g));
      page.queue = page.queue.then(() => page.setState(g));
      page.drawClocks();
      void refreshRecord(page, id);
    },
    event: (e) => serverEvent(page, e, id, conn),
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
        page.queue = page.queue.then(() => {
          if (!page.state) return;
          // Presence says who is connected; the ratings beside the names stay the state's.
          const seats = { ...(msg.seats as GameState['seats']) };
          for (const side of ['S', 'N'] as const) {
            const was = page.state.seats?.[side]?.rating;
            if (was && seats[side]) seats[side] = { ...seats[side], rating: was };
          }
          page.setState({ ...page.state, seats });
        });
      }
      // Events replayed after a reconnect carry the clocks of their time: ask for today's.
      if (msg.type === 'caught_up' && msg.game === id) void refetch(page, id, conn);
      if (msg.type === 'hint' && msg.game === id && pendingHint) {
        const h = msg as unknown as ServerHint;
        // The server's house is lit only if the server's own legal list has it.
        const legal = page.state?.legal ?? [];
        answerHint(Number.isInteger(h.house) && legal.includes(h.house) ? { house: h.house, text: serverHintText(h) } : { error: hintErrorText('bad_answer', '') });
      }
    },
  });
  (window as unknown as { semisConnection: Connection }).semisConnection = conn;
  page.askRatings = () => void refetch(page, id, conn);
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
        const b = el('button', { type: 'button' }, label);
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

function serverEvent(page: GamePage, e: ServerEvent, id: string, conn: Connection): void {
  const ev = e.event;
  if (ev.kind === 'move') {
    const m = ev as MoveEvent;
    const prev = page.state;
    if (!prev) return;
    page.positionVersion += 1;
    const ends = m.trace.some((x) => x.kind === 'game_end');
    // Both clocks as the server has them now; the animation does not delay them.
    if (m.clock !== undefined) page.clock.set(m.clock, m.position.to_move, !ends);
    else if (ends) page.clock.stop();
    page.drawClocks();
    const next: GameState = { ...prev, position: m.position, legal: m.legal, last_event: e.n, plies: [...(prev.plies ?? []), { mover: m.side, move: m.house }] };
    if (m.clock !== undefined) next.clock = m.clock;
    if (ends) next.status = 'over';
    void page.enqueueMove(m, next).then(() => refreshRecord(page, id));
    if (next.status === 'over') void refetch(page, id, conn);
    return;
  }
  // The game is decided (a flag, a resignation, an agreement): the clocks stop now.
  if (ev.kind === 'game_over' || ev.kind === 'flag') {
    page.clock.stop();
    page.drawClocks();
  }
  if (ev.kind === 'takeback') showTakeBack(page, ev as unknown as TakeBackEvent, e.n);
  const said = eventSentence(ev.kind, ev.side as SideLetter | undefined, page.you, page.names());
  if (said) page.flash(said);
  // Seats, offers, results: the whole state is cheap to fetch again.
  if (ev.kind === 'rematch' && typeof ev.new_game === 'string') {
    location.assign(`/g/${ev.new_game}`);
    return;
  }
  void refetch(page, id, conn);
}

async function refetch(page: GamePage, id: string, conn: Connection): Promise<void> {
  try {
    const g = await api<GameState>('GET', `/api/games/${id}`);
    // The clocks as of this answer, unless a newer event has come over the WebSocket meanwhile.
    if ((g.last_event ?? 0) >= conn.seen) {
      page.clock.set(g.clock, g.position.to_move, g.status === 'playing');
      page.drawClocks();
    }
    page.queue = page.queue.then(() => {
      if (page.state) g.position = page.state.position;
      page.setState({ ...g, position: g.position });
    });
  } catch {
    /* the WebSocket resync covers it */
  }
}

async function refreshRecord(page: GamePage, id: string): Promise<void> {
  try {
    const res = await fetch(`/api/games/${id}/record`, { credentials: 'same-origin' });
    if (res.ok) page.recordEl.textContent = await res.text();
  } catch {
    /* keep the last one */
  }
}

