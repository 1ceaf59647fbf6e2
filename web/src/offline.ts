// The installable app: registers the service worker (src/sw.ts, served as /sw.js) and shows when
// the page has no network. Offline, the page says so at the top and offers only what plays on
// this device: the computer, two players, the lessons, the analysis board and the daily puzzles
// already fetched; the account bar, the club and friend games wait for the network
// (body[data-offline="1"], offline.css).
import './offline.css';
import { el } from './dom';
import { currentLang } from './i18n';

const words = {
  en: 'Offline: the computer, two players on this device and the lessons still play; online games come back with the network.',
  fr: 'Hors ligne : l’ordinateur, les parties à deux sur cet appareil et les leçons restent jouables ; les parties en ligne reviendront avec le réseau.',
};

let banner: HTMLElement | null = null;
// The last probe of the site failed with no answer at all (not an HTTP error: a missing network).
let unreachable = false;

export function isOffline(): boolean {
  return !navigator.onLine || unreachable;
}

// Shows or hides the offline line (after each route: its words follow the language).
export function showOfflineState(): void {
  const off = isOffline();
  document.body.dataset.offline = off ? '1' : '0';
  banner ??= el('p', { class: 'offline-banner', role: 'status' });
  banner.textContent = off ? words[currentLang()] : '';
  banner.hidden = !off;
  if (!banner.isConnected) document.querySelector('.top-nav')?.after(banner);
}

// Whether the site answers (any HTTP status will do). The browser's own flag is not enough: a
// phone may hold a network that reaches nothing.
async function probe(): Promise<boolean> {
  try {
    await fetch('/healthz', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

// `changed` runs when the network comes or goes, so the page can offer (or stop offering) what
// needs the server. While offline the site is asked again every 15 s.
export function startOffline(changed: () => void): void {
  let timer = 0;
  const check = async () => {
    const was = isOffline();
    unreachable = !(await probe());
    showOfflineState();
    clearTimeout(timer);
    if (isOffline()) timer = window.setTimeout(() => void check(), 15000);
    if (was !== isOffline()) changed();
  };
  showOfflineState();
  void check();
  window.addEventListener('online', () => void check());
  window.addEventListener('offline', () => void check());
  // Only the built page registers it (not `vite dev`, which serves its modules from /src/ and
  // whose files a worker would keep).
  const built = !new URL(import.meta.url).pathname.startsWith('/src/');
  if ('serviceWorker' in navigator && built) {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('/sw.js').catch(() => {
        /* no worker: the page still works online */
      });
    });
  }
}
