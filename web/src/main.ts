// Routes: "/" the home page, "/g/<id>" a game on the server, "/?local=RULES[&ai=level&side=S]" a
// game in this page (moves kept in the URL's #m= so a reload keeps it). Local games live under "/"
// because the server serves the page only there and under /g/.
import './style.css';
import { gamePage } from './game';
import { homePage } from './home';
import { currentLang, onLangChange, setLang, t } from './i18n';
import { el } from './dom';

const root = document.getElementById('app')!;

function navigate(url: string): void {
  history.pushState(null, '', url);
  void route();
}

async function route(): Promise<void> {
  document.documentElement.lang = currentLang();
  renderHeader();
  const path = location.pathname;
  const m = /^\/g\/([A-Za-z0-9_-]+)/.exec(path);
  if (m) return gamePage(root, { server: m[1] });
  const q = new URLSearchParams(location.search);
  if (q.has('local')) {
    return gamePage(root, { rules: q.get('local') || 'kalah', ai: q.get('ai') ?? undefined, side: q.get('side') ?? 'S' });
  }
  document.title = 'Semis';
  return homePage(root, navigate);
}

function renderHeader(): void {
  const bar = document.getElementById('langs')!;
  bar.replaceChildren(
    ...(['en', 'fr'] as const).map((l) => {
      const b = el('button', { type: 'button', lang: l, 'aria-pressed': String(currentLang() === l), class: 'lang' }, l === 'en' ? 'English' : 'Français');
      b.addEventListener('click', () => setLang(l));
      return b;
    }),
  );
  bar.setAttribute('aria-label', t('language'));
}

// A language switch re-renders the page; a game page rebuilds from the same URL (and the server
// resends the state on join), so nothing is lost.
onLangChange(() => {
  const conn = (window as unknown as { semisConnection?: { close(): void } }).semisConnection;
  conn?.close();
  void route();
});

document.addEventListener('click', (e) => {
  const a = (e.target as HTMLElement).closest('a[data-link]') as HTMLAnchorElement | null;
  if (a && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    const conn = (window as unknown as { semisConnection?: { close(): void } }).semisConnection;
    conn?.close();
    navigate(a.getAttribute('href')!);
  }
});
window.addEventListener('popstate', () => void route());
void route();
