// The home page's club part (docs/club.md, "Matchmaking"): live counts, quick pairing by game and
// clock, the lobby's open seeks and a form to open one. Everything goes over the page's socket.
import { currentMe } from './account';
import { errorText, tc } from './club-words';
import { el } from './dom';
import { games } from './games';
import { currentLang, t } from './i18n';
import { gameTitle } from './game-title';
import type { ChosenRules } from './home';
import { site } from './site';

interface Seek {
  id: string;
  player: { id: string; name: string; rating: number };
  rules: string;
  clock: { seconds: number; increment: number } | null;
  rated: boolean;
  range: number;
}
interface Lobby {
  online: number;
  searching: number;
  counts: Record<string, { searching: number; playing: number }>;
  seeks: Seek[];
}

const CLOCKS: [string, { minutes: number; increment: number } | null][] = [
  ['3+2', { minutes: 3, increment: 2 }],
  ['5+3', { minutes: 5, increment: 3 }],
  ['10+5', { minutes: 10, increment: 5 }],
  ['∞', null],
];

function clockText(c: Seek['clock']): string {
  return c ? `${Math.round(c.seconds / 60)}+${c.increment}` : tc('untimed');
}

export function lobbySection(navigate: (url: string) => void, chosen: ChosenRules): { node: HTMLElement; stop: () => void } {
  const me = currentMe();
  const member = !!me?.username;
  const counts = el('p', { class: 'counts', 'data-testid': 'counts' });
  const status = el('p', { class: 'pairing-status', role: 'status', 'aria-live': 'polite' });
  const rated = el('input', { type: 'checkbox', id: 'rated' }) as HTMLInputElement;
  rated.checked = member;
  if (!member) rated.setAttribute('disabled', '');
  let mySeek: string | null = null;
  const cancel = el('button', { type: 'button', class: 'cancel-seek', hidden: '' }, tc('cancel'));
  cancel.addEventListener('click', () => {
    if (mySeek) site.send({ type: 'cancel_seek', seek: mySeek });
  });
  const grid = el('table', { class: 'quick' });
  const rows: HTMLElement[] = [];
  for (const g of games) {
    const cells = CLOCKS.map(([label, clock]) => {
      const b = el('button', { type: 'button', class: 'quick-seek', 'data-game': g.preset, 'data-clock': label }, label);
      b.addEventListener('click', () => {
        if (!site.send({ type: 'seek', rules: g.preset, clock, rated: rated.checked, quick: true })) status.textContent = errorText('busy');
      });
      return el('td', {}, b);
    });
    const count = el('td', { class: 'count', 'data-count': g.preset });
    rows.push(el('tr', {}, el('th', { scope: 'row' }, g.name[currentLang()]), ...cells, count));
  }
  grid.append(...rows);

  const seeksList = el('ul', { class: 'seeks' });
  const form = seekForm(member, chosen);
  const showLobby = (l: Lobby) => {
    counts.textContent = `${tc('online', { n: l.online })} · ${tc('searching', { n: l.searching })}`;
    for (const g of games) {
      const c = grid.querySelector(`[data-count="${g.preset}"]`);
      if (c) c.textContent = l.counts[g.preset]?.searching ? tc('searching', { n: l.counts[g.preset].searching }) : '';
    }
    seeksList.replaceChildren(
      ...(l.seeks.length === 0
        ? [el('li', {}, tc('noSeeks'))]
        : l.seeks.map((s) => {
            const li = el('li', { 'data-seek': s.id }, `${s.player.name} (${s.player.rating}) · ${gameTitle(s.rules)} · ${clockText(s.clock)} · ${s.rated ? tc('rated') : tc('casual')}`);
            if (s.player.id !== me?.id) {
              const b = el('button', { type: 'button', class: 'accept-seek' }, tc('accept'));
              b.addEventListener('click', () => site.send({ type: 'accept_seek', seek: s.id }));
              li.append(' ', b);
            } else if (s.id !== mySeek) {
              const b = el('button', { type: 'button' }, tc('cancel'));
              b.addEventListener('click', () => site.send({ type: 'cancel_seek', seek: s.id }));
              li.append(' ', b);
            }
            return li;
          })),
    );
  };

  const off = site.on((msg) => {
    if (msg.type === 'lobby') showLobby(msg as unknown as Lobby);
    if (msg.type === 'seeking') {
      mySeek = String(msg.seek);
      status.textContent = tc('waitingOpponent');
      cancel.hidden = false;
    }
    if (msg.type === 'seek_cancelled' && msg.seek === mySeek) {
      mySeek = null;
      status.textContent = '';
      cancel.hidden = true;
    }
    if (msg.type === 'paired') navigate(String(msg.link ?? `/g/${msg.game}`));
    if (msg.type === 'error' && typeof msg.code === 'string' && msg.id === undefined) status.textContent = errorText(msg.code);
  });
  site.lobby(true);
  const node = el(
    'section',
    { class: 'club-lobby' },
    el('h2', {}, tc('quickPairing')),
    counts,
    el('label', { class: 'field inline' }, rated, tc('rated')),
    member ? '' : el('p', { class: 'note' }, tc('signUpToRate')),
    grid,
    el('div', { class: 'pairing' }, status, cancel),
    el('h3', {}, tc('lobby')),
    seeksList,
    form,
  );
  return {
    node,
    stop: () => {
      off();
      site.lobby(false);
      if (mySeek) site.send({ type: 'cancel_seek', seek: mySeek });
    },
  };
}

// The form that opens a lobby seek. Its game is a preset, or the rules chosen on the home page
// above with their options: an entry of its own, named as the lobby lists it, chosen whenever the
// home page's choice changes (the form follows the game chosen there). A seek with options is
// casual, as the server rates only a preset at its standard options (it would refuse the seek with
// not_rated); rules the core refuses are not offered to the server, as on the home page.
function seekForm(member: boolean, chosen: ChosenRules): HTMLElement {
  const form = el('form', { class: 'seek-form' });
  const gameSel = el('select', { name: 'game', 'aria-label': tc('seekGame') }) as HTMLSelectElement;
  for (const g of games) gameSel.append(el('option', { value: g.preset }, g.name[currentLang()]));
  const withOptions = el('option', { class: 'with-options' }) as HTMLOptionElement;
  const clockSel = el('select', { name: 'clock', 'aria-label': t('clock') }) as HTMLSelectElement;
  CLOCKS.forEach(([label], i) => clockSel.append(el('option', { value: String(i) }, label === '∞' ? tc('untimed') : label)));
  const range = el('input', { type: 'number', name: 'range', min: '0', max: '1000', step: '50', value: '0' }) as HTMLInputElement;
  const seekRated = el('input', { type: 'checkbox', name: 'rated', 'aria-describedby': 'seek-note' }) as HTMLInputElement;
  const submit = el('button', { type: 'submit' }, tc('createSeek')) as HTMLButtonElement;
  const note = el('p', { class: 'note seek-note', id: 'seek-note', role: 'status', hidden: '' });
  // The member's own choice of the rated box, given back when he returns to a preset.
  let wantRated = false;
  seekRated.addEventListener('change', () => {
    wantRated = seekRated.checked;
  });
  const showGame = () => {
    const options = withOptions.selected && withOptions.parentNode === gameSel;
    const refused = options && chosen.current().refused;
    seekRated.checked = !options && wantRated;
    seekRated.disabled = !member || options;
    submit.disabled = refused;
    note.hidden = !options;
    note.textContent = refused ? t('optionsRefused') : options ? tc('casualOptions') : '';
  };
  const followHome = () => {
    const { game, rules } = chosen.current();
    if (games.some((g) => g.preset === rules)) {
      withOptions.remove();
      gameSel.value = rules;
    } else {
      withOptions.value = rules;
      withOptions.textContent = gameTitle(rules);
      [...gameSel.options].find((o) => o.value === game)?.after(withOptions);
      withOptions.selected = true;
    }
    showGame();
  };
  gameSel.addEventListener('change', showGame);
  followHome();
  chosen.onChange(followHome);
  form.append(
    el('label', { class: 'field' }, gameSel),
    el('label', { class: 'field' }, clockSel),
    el('label', { class: 'field inline' }, seekRated, tc('rated')),
    el('label', { class: 'field' }, tc('range'), range),
    submit,
    note,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (submit.disabled) return;
    site.send({ type: 'seek', rules: gameSel.value, clock: CLOCKS[Number(clockSel.value)][1], rated: seekRated.checked, quick: false, range: Number(range.value) || 0 });
  });
  return form;
}
