// The account's devices (docs/club.md, "Sessions"): each signed-in device with when it was last
// used and from where, ended one by one, or all at once (sign out everywhere).

import { loadMe } from './account';
import { tc } from './club-words';
import { el } from './dom';
import { currentLang } from './i18n';
import { api } from './net';
import { site } from './site';

interface Session {
  id: string;
  device: string;
  created: number | null;
  seen: number | null;
  address: string;
  current: boolean;
}

// "Firefox on Android" from a User-Agent: enough to recognise one's own devices.
function deviceName(ua: string): string {
  if (!ua) return tc('unknownDevice');
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari' : ua.split(/[ /]/)[0];
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? tc('deviceOn', { browser, os }) : browser;
}

function when(ms: number | null): string {
  if (ms === null) return '—';
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(ms));
}

export async function sessionsPage(root: HTMLElement, signedOut: () => void): Promise<void> {
  document.title = `${tc('sessions')} · Semis`;
  const list = el('ul', { class: 'sessions' });
  const status = el('p', { class: 'status', role: 'status' });
  const all = el('button', { type: 'button', class: 'sign-out-all' }, tc('signOutAll'));
  root.replaceChildren(el('section', { class: 'sessions-page' }, el('h1', {}, tc('sessions')), el('p', {}, tc('sessionsAbout')), list, all, status));
  const load = async (): Promise<void> => {
    let rows: Session[];
    try {
      rows = (await api<{ sessions: Session[] }>('GET', '/api/account/sessions')).sessions;
    } catch (e) {
      status.textContent = (e as Error).message;
      return;
    }
    list.replaceChildren(
      ...rows.map((s) => {
        const end = el('button', { type: 'button', class: 'end-session', 'data-session': s.id }, s.current ? tc('signOut') : tc('endSession'));
        end.addEventListener('click', async () => {
          await api('POST', '/api/account/revoke', { id: s.id });
          if (s.current) {
            await loadMe();
            site.restart();
            signedOut();
            return;
          }
          await load();
        });
        return el('li', { class: s.current ? 'session current' : 'session' },
          el('strong', {}, deviceName(s.device)),
          s.current ? el('span', { class: 'this-device' }, ` (${tc('thisDevice')})`) : '',
          el('p', {}, tc('sessionSeen', { when: when(s.seen), address: s.address || '—' })),
          end);
      }),
    );
  };
  all.addEventListener('click', async () => {
    await api('POST', '/api/account/signout', { all: true });
    await loadMe();
    site.restart();
    signedOut();
  });
  await load();
}
