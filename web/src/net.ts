// The server: JSON over HTTP and one WebSocket (docs/protocol.md). The connection reconnects by
// itself with backoff and rejoins with the last event it saw, so a dropped network resyncs
// without a reload.
import type { GameState, MoveEvent } from './types';

export interface ApiError {
  code: string;
  message: string;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw { code: 'bad_answer', message: `${res.status} ${text.slice(0, 80)}` } as ApiError;
  }
  if (!res.ok) throw ((data as { error?: ApiError }).error ?? { code: String(res.status), message: text }) as ApiError;
  return data as T;
}

export interface ServerEvent {
  type: 'event';
  game: string;
  n: number;
  event: MoveEvent | { kind: string; [k: string]: unknown };
}

export interface Handlers {
  state(s: GameState): void;
  event(e: ServerEvent): void;
  error(code: string, message: string, id?: string): void;
  ack(id: string, n: number): void;
  status(online: boolean): void;
  other?(msg: Record<string, unknown>): void;
}

export class Connection {
  private ws: WebSocket | null = null;
  private lastEvent = 0;
  private haveState = false;
  private retry = 300;
  private pingTimer = 0;
  private lastPong = 0;
  private closed = false;
  private nextId = 1;
  // Move ids are unique across reloads: the server remembers ids it has played (idempotent resends).
  private readonly nonce = Math.random().toString(36).slice(2, 10);
  // The last move sent and not yet answered. A socket can die with it unread (its server killed,
  // the network cut) while the page still thought it open, or be closing already when the player
  // clicks: the move is sent (again), same id and `after`, on the next connection, after the join.
  // Played already, it is answered `stale` with its event; otherwise it is played once. Either
  // way its answer clears it.
  private unanswered: { id: string; house: number; after: number; resent: boolean } | null = null;

  constructor(
    readonly game: string,
    private readonly h: Handlers,
  ) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 300;
      this.lastPong = Date.now();
      this.join();
      if (this.unanswered) {
        const m = this.unanswered;
        m.resent = true;
        this.send({ type: 'move', game: this.game, id: m.id, house: m.house, after: m.after });
      }
      this.h.status(true);
      clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.ping(), 10000);
    };
    ws.onmessage = (m) => this.receive(String(m.data));
    ws.onclose = () => this.dropped(ws);
    ws.onerror = () => ws.close();
  }

  private dropped(ws: WebSocket, delay?: number): void {
    if (this.ws !== ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    this.h.status(false);
    if (this.closed) return;
    const wait = delay ?? this.retry;
    this.retry = Math.min(this.retry * 2, 5000);
    setTimeout(() => this.open(), wait);
  }

  private ping(): void {
    // A connection that stopped answering is closed so the reconnect logic takes over.
    if (Date.now() - this.lastPong > 25000) {
      this.ws?.close();
      return;
    }
    this.send({ type: 'ping', t: Date.now() });
  }

  private join(): void {
    const msg: Record<string, unknown> = { type: 'join', game: this.game };
    if (this.haveState) msg.last_event = this.lastEvent;
    this.send(msg);
  }

  private receive(text: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    switch (msg.type) {
      case 'state': {
        const g = msg.game as GameState;
        this.lastEvent = g.last_event ?? 0;
        this.haveState = true;
        this.h.state(g);
        break;
      }
      case 'event': {
        const e = msg as unknown as ServerEvent;
        if (e.n <= this.lastEvent) return; // already seen (a resync may repeat it)
        if (e.n > this.lastEvent + 1) {
          this.join(); // a gap: ask for what was missed
          return;
        }
        this.lastEvent = e.n;
        this.h.event(e);
        break;
      }
      case 'ack':
        if (this.unanswered?.id === String(msg.id)) this.unanswered = null;
        this.h.ack(String(msg.id), Number(msg.n));
        break;
      case 'error': {
        // A refused move may mean this page is behind: ask for what it missed.
        if (msg.code === 'stale' || msg.code === 'not_your_turn' || msg.code === 'illegal_move') this.join();
        const id = msg.id === undefined || msg.id === null ? undefined : String(msg.id);
        const answered = id !== undefined && this.unanswered?.id === id ? this.unanswered : null;
        if (answered) this.unanswered = null;
        // A move sent again is refused when the first one was played, or the game went on without
        // it: the join above brings what happened; there is nothing to tell the player.
        if (answered?.resent) break;
        this.h.error(String(msg.code), String(msg.message ?? ''), id);
        break;
      }
      case 'pong':
        this.lastPong = Date.now();
        break;
      case 'shutdown': {
        const ws = this.ws;
        if (ws) {
          ws.onclose = null;
          ws.close();
          this.dropped(ws, Number(msg.retry_ms ?? 1000));
        }
        break;
      }
      default:
        this.h.other?.(msg);
    }
  }

  get seen(): number {
    return this.lastEvent;
  }

  send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  move(house: number): string | null {
    if (this.closed) return null;
    const id = `${this.nonce}-${this.nextId++}`;
    // A click while the socket is closing or reconnecting is not dropped: it goes after the join.
    const sent = this.send({ type: 'move', game: this.game, id, house, after: this.lastEvent });
    this.unanswered = { id, house, after: this.lastEvent, resent: !sent };
    return id;
  }

  // For tests and the "offline" switch: drop the socket as a network failure would.
  drop(): void {
    this.ws?.close();
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
  }
}
