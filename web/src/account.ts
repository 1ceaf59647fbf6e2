// The account bar in the top navigation (docs/club.md, "Accounts"): sign up or in, and for a
// member his profile, friends, another device (a claim code), sign out and deletion.
import { el } from './dom';
import { errorText, tc } from './club-words';
import { api, type ApiError } from './net';
import { site } from './site';
import { tb } from './bots';

export interface Me {
  id: string;
  name: string;
  username: string | null;
  ratings: Record<string, { rating: number; provisional: boolean; games: number }>;
}

let me: Me | null = null;

export async function loadMe(): Promise<Me | null> {
  try {
    me = await api<Me>('GET', '/api/me');
  } catch {
    me = null;
  }
  return me;
}

export function currentMe(): Me | null {
  return me;
}

interface Field {
  name: string;
  label: string;
  type: string;
  value?: string; // shown at first
  maxlength?: number;
  help?: string; // a sentence under the field, tied to it for screen readers
}

// A form in a <dialog>: fields, a submit that may fail with a worded error, and it closes on success.
// `errorFor` words a refusal the dialog knows better than the generic table (a bad display name);
// `more`: other ways in, below the form (each closes this dialog before it acts).
interface DialogOptions {
  errorFor?: (code: string) => string;
  okLabel?: string;
  more?: { label: string; cls: string; act: () => void }[];
}
function formDialog(title: string, fields: Field[], submit: (values: Record<string, string>) => Promise<string | void>, options: DialogOptions = {}): void {
  const { errorFor = errorText, okLabel = title, more = [] } = options;
  const dialog = el('dialog', { class: 'club-dialog' }) as HTMLDialogElement;
  const form = el('form', { method: 'dialog' });
  const error = el('p', { class: 'error', role: 'alert' });
  const inputs: Record<string, HTMLInputElement> = {};
  for (const f of fields) {
    const autocomplete = f.type === 'password' ? 'current-password' : f.name === 'name' ? 'nickname' : 'username';
    const input = el('input', { name: f.name, type: f.type, autocomplete, required: '' }) as HTMLInputElement;
    if (f.value !== undefined) input.value = f.value;
    if (f.maxlength) input.maxLength = f.maxlength;
    inputs[f.name] = input;
    const label = el('label', { class: 'field' }, f.label, input);
    if (f.help) {
      const help = el('span', { class: 'help', id: `help-${f.name}` }, f.help);
      input.setAttribute('aria-describedby', help.id);
      label.append(help);
    }
    form.append(label);
  }
  const ok = el('button', { type: 'submit', class: 'primary' }, okLabel);
  const cancel = el('button', { type: 'button' }, tc('cancel'));
  cancel.addEventListener('click', () => dialog.close());
  form.append(error, el('div', { class: 'buttons' }, ok, cancel));
  if (more.length > 0) {
    const others = more.map((m) => {
      const b = el('button', { type: 'button', class: m.cls }, m.label);
      b.addEventListener('click', () => {
        dialog.close();
        m.act();
      });
      return b;
    });
    form.append(el('div', { class: 'buttons more' }, ...others));
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    ok.setAttribute('disabled', '');
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(inputs)) values[k] = v.value;
    try {
      const message = await submit(values);
      if (message) {
        form.replaceChildren(el('p', { class: 'code' }, message), el('div', { class: 'buttons' }, cancel));
        cancel.textContent = 'OK';
        return;
      }
      dialog.close();
    } catch (err) {
      error.textContent = errorFor((err as ApiError).code ?? 'other');
    } finally {
      ok.removeAttribute('disabled');
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  dialog.append(el('h2', {}, title), form);
  document.body.append(dialog);
  dialog.showModal();
}

// The display name (POST /api/me): what other players see, apart from the username one signs in
// with. The server checks it (1..24 printable characters, no space at either end); its refusal
// (bad_message) is worded here as the rule it broke.
function renameDialog(after: () => Promise<void>): void {
  formDialog(tc('displayName'), [{ name: 'name', label: tc('displayName'), type: 'text', value: me?.name ?? '', maxlength: 24, help: tc('displayNameHelp') }], async (v) => {
    await api('POST', '/api/me', { name: v.name });
    await after();
  }, { errorFor: (code) => (code === 'bad_message' ? tc('err.bad_name') : errorText(code)), okLabel: tc('save') });
}

export function renderAccount(box: HTMLElement, navigate: (url: string) => void, changed: () => void): void {
  const after = async () => {
    await loadMe();
    site.restart();
    changed();
  };
  const button = (label: string, cls: string, f: () => void) => {
    const b = el('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', f);
    return b;
  };
  const userPass = [
    { name: 'username', label: tc('username'), type: 'text' },
    { name: 'password', label: tc('password'), type: 'password' },
  ];
  const redeem = () =>
    formDialog(tc('haveCode'), [{ name: 'code', label: tc('code'), type: 'text' }], async (v) => {
      await api('POST', '/api/account/redeem', { code: v.code });
      await after();
    });
  // A code for this player, to type on another device (a guest's games go with it).
  const claim = () =>
    formDialog(tc('anotherDevice'), [], async () => {
      const c = await api<{ code: string }>('POST', '/api/account/claim');
      return tc('codeFor', { code: c.code });
    });
  const signUp = () =>
    formDialog(tc('signUp'), userPass, async (v) => {
      await api('POST', '/api/account/signup', v);
      await after();
    });
  if (!me || !me.username) {
    // The sign-in dialog holds every other way in, so a phone (which shows only "Sign in") has them.
    const signIn = () =>
      formDialog(tc('signIn'), userPass, async (v) => {
        await api('POST', '/api/account/signin', v);
        await after();
      }, {
        more: [
          { label: tc('signUp'), cls: 'sign-up', act: signUp },
          { label: tc('haveCode'), cls: 'redeem', act: redeem },
          ...(me ? [{ label: tc('anotherDevice'), cls: 'claim', act: claim }] : []),
        ],
      });
    box.replaceChildren(
      el('span', { class: 'who' }, me ? me.name : tc('guest')),
      button(tc('signIn'), 'sign-in', signIn),
      button(tc('signUp'), 'sign-up', signUp),
      button(tc('haveCode'), 'redeem', redeem),
    );
    return;
  }
  const menu = el('details', { class: 'account-menu' });
  const item = (label: string, cls: string, f: () => void) => {
    const b = button(label, cls, () => {
      menu.removeAttribute('open');
      f();
    });
    return el('li', {}, b);
  };
  menu.append(
    el('summary', { class: 'who' }, me.username),
    el(
      'ul',
      {},
      item(tc('profile'), 'profile', () => navigate(`/p/${me!.id}`)),
      item(tc('displayNameNow', { name: me.name }), 'display-name', () => renameDialog(after)),
      item(tc('friends'), 'friends', () => navigate('/friends')),
      item(tc('leaderboard'), 'leaderboard', () => navigate('/top/kalah')),
      item(tc('anotherDevice'), 'claim', claim),
      item(tc('haveCode'), 'redeem', redeem),
      item(tc('sessions'), 'sessions', () => navigate('/sessions')),
      item(tb('botsTitle'), 'bots', () => navigate('/bots')),
      item(tc('signOut'), 'sign-out', () => void api('POST', '/api/account/signout').then(after, after)),
      item(tc('deleteAccount'), 'delete', () =>
        formDialog(tc('deleteAccount'), [{ name: 'password', label: tc('deleteConfirm'), type: 'password' }], async (v) => {
          await api('POST', '/api/account/delete', v);
          await after();
        }),
      ),
    ),
  );
  box.replaceChildren(menu);
}
