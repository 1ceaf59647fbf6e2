// The page's own WebSocket, beside a game's: what reaches a player wherever he is on the site
// (an invitation, a pairing) and the lobby's live counts. It reconnects by itself.
import { el } from './dom';
import { tc } from './club-words';
import { gameTitle } from './game-title';

type Listener = (msg: Record<string, unknown>) => void;

class SiteSocket {
  private ws: WebSocket | null = null;
  private retry = 500;
  private readonly listeners = new Set<Listener>();
  private lobbyOn = false;

  start(): void {
    if (this.ws) return;
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      if (this.lobbyOn) this.send({ type: 'lobby', on: true });
    };
    ws.onmessage = (m) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(String(m.data));
      } catch {
        return;
      }
      for (const f of [...this.listeners]) f(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      setTimeout(() => this.start(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  // A new session (sign-in, sign-out): the socket must speak for the new cookie.
  restart(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.start();
  }

  send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  on(f: Listener): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  lobby(on: boolean): void {
    this.lobbyOn = on;
    this.send({ type: 'lobby', on });
  }
}

export const site = new SiteSocket();

// Invitations and refusals, as a toast on any page.
export function startToasts(navigate: (url: string) => void): void {
  const box = el('div', { class: 'toasts', 'aria-live': 'polite' });
  document.body.append(box);
  site.on((msg) => {
    if (msg.type === 'invited') {
      const from = (msg.from as { name?: string })?.name ?? '?';
      const game = String(msg.game);
      const toast = el('div', { class: 'toast', 'data-invite': game }, el('p', {}, tc('invitedBy', { name: from, game: gameTitle(String(msg.rules ?? '')) })));
      const accept = el('button', { type: 'button', class: 'accept' }, tc('accept'));
      const decline = el('button', { type: 'button', class: 'decline' }, tc('decline'));
      accept.addEventListener('click', () => {
        toast.remove();
        navigate(`/g/${game}`);
      });
      decline.addEventListener('click', () => {
        toast.remove();
        site.send({ type: 'decline', game });
      });
      toast.append(accept, decline);
      box.append(toast);
    }
    if (msg.type === 'aborted' && msg.why === 'no_show') {
      // The invitation (if still shown) is for a game that no longer waits for him.
      box.querySelector(`[data-invite="${String(msg.game)}"]`)?.remove();
      const toast = el('div', { class: 'toast', 'data-aborted': String(msg.game) }, el('p', {}, tc('noShow')));
      box.append(toast);
      setTimeout(() => toast.remove(), 12000);
    }
    if (msg.type === 'declined') {
      const by = (msg.by as { name?: string })?.name ?? '?';
      const toast = el('div', { class: 'toast' }, el('p', {}, tc('declinedBy', { name: by })));
      box.append(toast);
      setTimeout(() => toast.remove(), 8000);
    }
  });
}
