// Routes: "/" the home page, "/g/<id>" a game on the server, "/?local=RULES[&ai=level&side=S]" a
// game in this page (moves kept in the URL's #m= so a reload keeps it), "/p/<id>" a profile,
// "/top/<key>" a leaderboard, "/bots/top/<key>" a bots' leaderboard, "/bots/tournaments[/<id>]" and
// "/bots/matches/<id>" bots' contests (contests.ts), "/friends", "/daily[/<game>][?date=]" the daily challenge,
// "/review/<id>" or "/review?local=RULES&m=..." a game's review, "/analysis" the analysis board,
// "/learn/<preset>" a game's lesson (lesson.ts). Local games live under "/" because the server serves the
// page only there and under its own page paths.
import './style.css';
import { gamePage } from './game';
import { homePage } from './home';
import { currentLang, onLangChange, setLang, t } from './i18n';
import { el } from './dom';
import { loadMe, renderAccount } from './account';
import { friendsPage } from './friends';
import { sessionsPage } from './sessions';
import { botsPage } from './bots';
import { botsBoardPage, contestPage, tournamentsPage } from './contests';
import { lobbySection } from './lobby';
import { profilePage } from './profile';
import { site, startToasts } from './site';
import { topPage } from './top';
import { analysisPage } from './analysis';
import { dailyPage } from './daily';
import { reviewPage } from './review';
import { displaySettings } from './theme';
import { lessonPage } from './lesson';
import { showOfflineState, startOffline } from './offline';

const root = document.getElementById('app')!;

function navigate(url: string): void {
  history.pushState(null, '', url);
  void route();
}

// What the page left behind must stop (the lobby's feed, a pending quick seek).
let leave: (() => void) | null = null;

async function route(): Promise<void> {
  document.documentElement.lang = currentLang();
  leave?.();
  leave = null;
  renderHeader();
  showOfflineState();
  const path = location.pathname;
  const m = /^\/g\/([A-Za-z0-9_-]+)/.exec(path);
  if (m) return gamePage(root, { server: m[1] });
  const p = /^\/p\/([A-Za-z0-9]+)/.exec(path);
  if (p) return profilePage(root, p[1]);
  const top = /^\/top\/([a-z-]+)/.exec(path);
  if (top) return topPage(root, top[1], navigate);
  if (path === '/friends') return friendsPage(root, navigate);
  if (path === '/sessions') return sessionsPage(root, () => navigate('/'));
  if (path === '/bots') return botsPage(root);
  const botsTop = /^\/bots\/top\/(bots-kalah-\d+x\d+)$/.exec(path);
  if (botsTop) return botsBoardPage(root, botsTop[1], navigate);
  if (path === '/bots/tournaments') return tournamentsPage(root);
  const contest = /^\/bots\/(matches|tournaments)\/([A-Za-z0-9]+)$/.exec(path);
  if (contest) {
    leave = await contestPage(root, contest[1] === 'matches' ? 'match' : 'tournament', contest[2]);
    return;
  }
  const q0 = new URLSearchParams(location.search);
  const daily = /^\/daily(?:\/([a-z-]+))?\/?$/.exec(path);
  if (daily) return dailyPage(root, daily[1] ?? null, q0.get('date'));
  const review = /^\/review(?:\/([A-Za-z0-9_-]+))?$/.exec(path);
  if (review) {
    if (review[1]) return reviewPage(root, { id: review[1] });
    const moves = (q0.get('m') ?? '').split(',').filter(Boolean).map(Number);
    return reviewPage(root, { rules: q0.get('local') ?? 'kalah', moves });
  }
  if (path === '/analysis') return analysisPage(root, q0.get('position'));
  const learn = /^\/learn\/([a-z-]+)\/?$/.exec(path);
  if (learn) return lessonPage(root, learn[1]);
  const q = new URLSearchParams(location.search);
  if (q.has('local')) {
    return gamePage(root, { rules: q.get('local') || 'kalah', ai: q.get('ai') ?? undefined, side: q.get('side') ?? 'S' });
  }
  document.title = 'Semis';
  const chosen = await homePage(root, navigate);
  // The club's part of the home page, when a server answers.
  if (document.body.dataset.server === '1' && location.pathname === '/') {
    const lobby = lobbySection(navigate, chosen);
    root.querySelector('.home')?.append(lobby.node);
    leave = lobby.stop;
  }
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
  // The display settings sit at the foot of the page: no Tab stop before the game cards.
  document.querySelector('.page-foot')?.remove();
  document.body.append(el('footer', { class: 'page-foot' }, displaySettings()));
  renderAccount(document.getElementById('account')!, navigate, () => void route());
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
// The network came or went: the home page offers again (or stops offering) what needs the server;
// a page in use (a game, a lesson) stays as it is.
startOffline(() => {
  if (location.pathname === '/' && !location.search) void route();
});
// Who this visitor is, then the page; with a server, its socket for invitations and pairings.
void loadMe().then((me) => {
  document.body.dataset.server = me ? '1' : '0';
  if (me) {
    site.start();
    startToasts(navigate);
  }
  void route();
});
