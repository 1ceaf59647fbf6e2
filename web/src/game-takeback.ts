// Take back against the computer in a server game (docs/protocol.md, `takeback`): the button, and
// the server's `takeback` event shown on the board. The server decides (a casual game against the
// computer, the player's turn, a move of his own in this set) and refuses anything else; the page
// only offers the button where it can be asked.
import { el } from './dom';
import type { SourcePage } from './game-source';
import { currentLang, t } from './i18n';
import type { GameState, SideLetter, WirePosition } from './types';

export function takeBackButton(s: GameState, you: string, send: () => void): HTMLElement[] {
  // Offered once a move has been played, on the player's turn; whether one of them is his to take
  // back in this set is the server's to say (`nothing_to_take_back`).
  const played = (s.plies ?? []).length > 0;
  if (s.mode !== 'ai' || s.rated || s.status !== 'playing' || s.position.to_move !== you || !played) return [];
  const b = el('button', { type: 'button', class: 'undo' }, t('undo')) as HTMLButtonElement;
  b.addEventListener('click', () => {
    b.disabled = true;
    send();
  });
  return [b];
}

// The position the server went back to, its legal houses, and the plies it undid.
export interface TakeBackEvent {
  side: SideLetter;
  plies: number;
  position: WirePosition;
  legal: number[];
}

export function showTakeBack(page: SourcePage, ev: TakeBackEvent, n: number): void {
  page.positionVersion += 1;
  page.lastMove = null;
  page.queue = page.queue.then(() => {
    const prev = page.state;
    if (!prev) return;
    const plies = (prev.plies ?? []).slice(0, Math.max(0, (prev.plies ?? []).length - ev.plies));
    page.board?.markLast(null);
    page.setState({ ...prev, position: ev.position, legal: ev.legal, plies, last_event: n });
  });
}

// The server's refusals of a take back, in the page's language (null: another error).
const refusals: Record<string, { en: string; fr: string }> = {
  nothing_to_take_back: {
    en: 'Nothing to take back yet.',
    fr: 'Rien à reprendre pour l’instant.',
  },
  not_allowed: {
    en: 'A move can be taken back only in an unrated game against the computer.',
    fr: 'On ne peut reprendre un coup que dans une partie non classée contre l’ordinateur.',
  },
};

export function takeBackRefusal(code: string): string | null {
  return refusals[code]?.[currentLang()] ?? null;
}
