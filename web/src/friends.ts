// Friends (/friends): add by username, who is online, invite to a game, remove, block.
import { errorText, tc } from './club-words';
import { el } from './dom';
import { games } from './games';
import { currentLang } from './i18n';
import { api, type ApiError } from './net';
import { site } from './site';

interface Card {
  id: string;
  name: string;
  username: string | null;
  online?: boolean;
  playing?: string | null;
}

export async function friendsPage(root: HTMLElement, navigate: (url: string) => void): Promise<void> {
  const note = el('p', { class: 'note', role: 'status', 'aria-live': 'polite' });
  const list = el('ul', { class: 'friends' });
  const blockedList = el('ul', { class: 'blocked' });
  const load = async () => {
    const f = await api<{ friends: Card[]; blocked: Card[] }>('GET', '/api/friends');
    const gameSel = () => {
      const s = el('select', { class: 'invite-game' }) as HTMLSelectElement;
      for (const g of games) s.append(el('option', { value: g.preset }, g.name[currentLang()]));
      return s;
    };
    list.replaceChildren(
      ...(f.friends.length === 0
        ? [el('li', {}, tc('noFriends'))]
        : f.friends.map((c) => {
            const sel = gameSel();
            const rated = el('input', { type: 'checkbox', class: 'invite-rated' }) as HTMLInputElement;
            const invite = el('button', { type: 'button', class: 'invite' }, tc('invite'));
            invite.addEventListener('click', () => site.send({ type: 'invite', friend: c.id, spec: { rules: sel.value, side: 'random', rated: rated.checked } }));
            const remove = el('button', { type: 'button', class: 'remove' }, tc('remove'));
            remove.addEventListener('click', () => void api('DELETE', `/api/friends/${c.id}`).then(load));
            const block = el('button', { type: 'button', class: 'block' }, tc('block'));
            block.addEventListener('click', () => void api('POST', '/api/blocks', { username: c.username }).then(load));
            return el('li', { 'data-friend': c.id },
              el('a', { href: `/p/${c.id}`, 'data-link': '' }, c.name), ` ${c.username ? `@${c.username}` : ''} · ${c.online ? tc('isOnline') : tc('isOffline')} `,
              c.playing ? el('a', { href: `/g/${c.playing}`, 'data-link': '', class: 'watch' }, tc('watchGame')) : '', ' ',
              sel, el('label', { class: 'inline' }, rated, tc('rated')), invite, remove, block);
          })),
    );
    blockedList.replaceChildren(
      ...f.blocked.map((c) => {
        const b = el('button', { type: 'button' }, tc('unblock'));
        b.addEventListener('click', () => void api('DELETE', `/api/blocks/${c.id}`).then(load));
        return el('li', {}, c.name, ' ', b);
      }),
    );
  };
  const input = el('input', { name: 'username', autocomplete: 'off', 'aria-label': tc('addFriend') }) as HTMLInputElement;
  const form = el('form', { class: 'add-friend' }, el('label', { class: 'field' }, tc('addFriend'), input), el('button', { type: 'submit' }, tc('add')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api('POST', '/api/friends', { username: input.value });
      input.value = '';
      note.textContent = '';
      await load();
    } catch (err) {
      note.textContent = errorText((err as ApiError).code ?? 'other');
    }
  });
  const off = site.on((msg) => {
    if (msg.type === 'invitation_sent') {
      note.textContent = tc('invitationSent');
      navigate(String(msg.link));
    }
    if (msg.type === 'error' && typeof msg.code === 'string') note.textContent = errorText(msg.code);
  });
  window.addEventListener('popstate', off, { once: true });
  await load().catch(() => undefined);
  root.replaceChildren(el('div', { class: 'friends-page' }, el('h1', {}, tc('friends')), form, note, list, el('h2', {}, tc('blocked')), blockedList));
}
