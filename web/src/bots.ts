// A member's bots (docs/bots.md): the "Your bots" page (/bots) where he creates, lists, renames,
// gives a new token to and revokes his bots, and the line a bot's profile shows (whose bot it is).
// A token is shown once, when it is made, with how to connect with it.
import { errorText } from './club-words';
import { el } from './dom';
import { currentLang, format } from './i18n';
import { api, type ApiError } from './net';

const en = {
  botsTitle: 'Your bots',
  botsAbout: 'A bot is a program of yours that plays on Semis under its own name, with its own rating. It connects with a secret token.',
  botName: 'Bot name',
  createBot: 'Create a bot',
  noBots: 'No bot yet.',
  tokenOnce: 'The token of {name}. Copy it now: it will not be shown again.',
  copy: 'Copy',
  copied: 'Copied',
  connectHow: 'Connect it with the Kalah Game Protocol (kgp): TCP port 2671 of {host}, or a WebSocket at {ws}. Then send:',
  rename: 'Rename',
  save: 'Save',
  newToken: 'New token',
  revoke: 'Revoke',
  revokeSure: 'Revoke for good?',
  revoked: 'Revoked: its token no longer works.',
  createdOn: 'Created on {date}',
  botOf: 'A bot of {owner}.',
  retired: 'This bot has been revoked.',
  'err.bot_limit': 'You have as many bots as you may: revoke one first.',
  'err.name_taken': 'This name is taken.',
  'err.sign_in_needed': 'Sign in to have bots.',
};
type BotKey = keyof typeof en;

const fr: Record<BotKey, string> = {
  botsTitle: 'Vos robots',
  botsAbout: 'Un robot est l’un de vos programmes, qui joue sur Semis sous son propre nom et avec son propre classement. Il se connecte avec un jeton secret.',
  botName: 'Nom du robot',
  createBot: 'Créer un robot',
  noBots: 'Pas encore de robot.',
  tokenOnce: 'Le jeton de {name}. Copiez-le maintenant : il ne sera plus jamais affiché.',
  copy: 'Copier',
  copied: 'Copié',
  connectHow: 'Connectez-le avec le Kalah Game Protocol (kgp) : port TCP 2671 de {host}, ou WebSocket à l’adresse {ws}. Envoyez ensuite :',
  rename: 'Renommer',
  save: 'Enregistrer',
  newToken: 'Nouveau jeton',
  revoke: 'Révoquer',
  revokeSure: 'Révoquer définitivement ?',
  revoked: 'Révoqué : son jeton ne fonctionne plus.',
  createdOn: 'Créé le {date}',
  botOf: 'Un robot {owner:de}.',
  retired: 'Ce robot a été révoqué.',
  'err.bot_limit': 'Vous avez déjà autant de robots que permis : révoquez-en un d’abord.',
  'err.name_taken': 'Ce nom est déjà pris.',
  'err.sign_in_needed': 'Connectez-vous pour avoir des robots.',
};

export function tb(key: BotKey, params: Record<string, string | number> = {}): string {
  return format((currentLang() === 'fr' ? fr : en)[key], params);
}

function problem(e: unknown): string {
  const code = (e as ApiError)?.code ?? '';
  const key = `err.${code}` as BotKey;
  return key in en ? tb(key) : errorText(code);
}

interface Bot {
  id: string;
  name: string;
  created: number;
  revoked: boolean;
}

interface NewToken {
  id: string;
  name: string;
  token: string;
}

// What a bot's profile says of it: a bot, and whose (a link to the owner's profile).
export function botLine(owner: { id: string; name: string }, revoked: boolean): HTMLElement {
  const link = el('a', { href: `/p/${owner.id}`, 'data-link': '' }, owner.name);
  // The owner's name is put in the sentence where {owner} stands, as a link (French elides "de"
  // before a vowel, so the words around it are those written with the real name).
  const template = (currentLang() === 'fr' ? fr : en).botOf;
  const after = template.slice(template.indexOf('}') + 1);
  const full = tb('botOf', { owner: owner.name });
  const before = full.slice(0, full.length - after.length - owner.name.length);
  const line = el('p', { class: 'bot-of' }, before, link, after);
  return revoked ? el('div', {}, line, el('p', { class: 'note' }, tb('retired'))) : line;
}

// The token, once, with a copy button and how to connect with it.
function tokenBox(t: NewToken): HTMLElement {
  const code = el('code', { class: 'bot-token' }, t.token);
  const copy = el('button', { type: 'button', class: 'copy-token' }, tb('copy'));
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(t.token).then(() => (copy.textContent = tb('copied')), () => undefined);
  });
  const ws = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/kgp`;
  return el('div', { class: 'token-box', role: 'status' },
    el('p', {}, tb('tokenOnce', { name: t.name })),
    el('p', {}, code, ' ', copy),
    el('p', {}, tb('connectHow', { host: location.hostname, ws })),
    el('pre', {}, `set auth:token ${t.token}`));
}

export async function botsPage(root: HTMLElement): Promise<void> {
  document.title = `${tb('botsTitle')} · Semis`;
  const status = el('p', { class: 'status', role: 'status' });
  const shown = el('div', { class: 'token-slot' });
  const list = el('ul', { class: 'bots' });
  const name = el('input', { name: 'name', type: 'text', maxlength: '24', required: '', autocomplete: 'off' }) as HTMLInputElement;
  const form = el('form', { class: 'new-bot' },
    el('label', {}, tb('botName'), ' ', name), ' ',
    el('button', { type: 'submit' }, tb('createBot')));
  root.replaceChildren(el('section', { class: 'bots-page' },
    el('h1', {}, tb('botsTitle')), el('p', {}, tb('botsAbout')), form, status, shown, list));

  // Runs a change; its new token (if any) is shown, the list read again, a refusal said.
  const change = async (work: () => Promise<NewToken | unknown>): Promise<void> => {
    status.textContent = '';
    shown.replaceChildren();
    try {
      const r = await work();
      if (r && typeof r === 'object' && 'token' in r) shown.replaceChildren(tokenBox(r as NewToken));
    } catch (e) {
      status.textContent = problem(e);
    }
    await load();
  };

  const row = (b: Bot): HTMLElement => {
    const date = new Intl.DateTimeFormat(currentLang() === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long' }).format(new Date(b.created));
    const li = el('li', { class: b.revoked ? 'bot revoked' : 'bot', 'data-bot': b.id },
      el('a', { href: `/p/${b.id}`, 'data-link': '', class: 'bot-name' }, b.name),
      el('p', { class: 'note' }, tb('createdOn', { date })));
    if (b.revoked) {
      li.append(el('p', { class: 'note bot-revoked' }, tb('revoked')));
      return li;
    }
    const button = (label: string, cls: string, f: () => void) => {
      const x = el('button', { type: 'button', class: cls }, label);
      x.addEventListener('click', f);
      return x;
    };
    const rename = button(tb('rename'), 'rename-bot', () => {
      const input = el('input', { name: 'name', type: 'text', maxlength: '24', value: b.name, 'aria-label': tb('botName') }) as HTMLInputElement;
      const edit = el('form', { class: 'rename-form' }, input, ' ', el('button', { type: 'submit' }, tb('save')));
      edit.addEventListener('submit', (ev) => {
        ev.preventDefault();
        void change(() => api('PATCH', `/api/bots/${b.id}`, { name: input.value }));
      });
      rename.replaceWith(edit);
      input.focus();
    });
    const revoke = button(tb('revoke'), 'revoke-bot', () => {
      // Two clicks: a revoked bot never connects again.
      if (revoke.dataset.armed !== '1') {
        revoke.dataset.armed = '1';
        revoke.textContent = tb('revokeSure');
        return;
      }
      void change(() => api('DELETE', `/api/bots/${b.id}`));
    });
    li.append(el('p', { class: 'bot-actions' },
      rename, ' ', button(tb('newToken'), 'new-token', () => void change(() => api<NewToken>('POST', `/api/bots/${b.id}/token`))), ' ', revoke));
    return li;
  };

  async function load(): Promise<void> {
    try {
      const bots = (await api<{ bots: Bot[] }>('GET', '/api/bots')).bots;
      list.replaceChildren(...(bots.length === 0 ? [el('li', { class: 'note' }, tb('noBots'))] : bots.map(row)));
    } catch (e) {
      status.textContent = problem(e);
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void change(async () => {
      const made = await api<NewToken>('POST', '/api/bots', { name: name.value });
      name.value = '';
      return made;
    });
  });
  await load();
}
