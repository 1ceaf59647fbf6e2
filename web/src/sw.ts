// The service worker (served as /sw.js; vite.config.ts compiles this file and fills in the build's
// file list and version). It keeps the page, its bundle (the WebAssembly core is inlined in it),
// the manifest and the icons, so that after one visit the page opens and plays without a network:
// the computer, two players on one device, the lessons, and the daily puzzles already fetched.
// Everything that needs the server (games on it, the club) stays network-only.

// Filled in by the build: every file of dist/ the page needs, and a version that changes with them.
declare const PRECACHE: string[];
declare const VERSION: string;

// The worker's global scope, as far as it is used here (the page's TypeScript has the DOM types,
// not the worker's).
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', f: (e: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'fetch', f: (e: { request: Request; respondWith(r: Promise<Response>): void }) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

const scope = self as unknown as WorkerScope;
const SHELL = `semis-shell-${VERSION}`;
const DATA = 'semis-data'; // the daily puzzles fetched, kept across versions

scope.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.addAll(PRECACHE.map((p) => new Request(p, { cache: 'reload' }))))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('semis-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => scope.clients.claim()),
  );
});

// The network's answer, kept in `cache` when it is a good one; the kept one when there is no network.
async function networkFirst(request: Request, cache: string, fallback?: string): Promise<Response> {
  try {
    const res = await fetch(request);
    if (res.ok) {
      const copy = res.clone();
      void caches.open(cache).then((c) => c.put(fallback ?? request, copy));
    }
    return res;
  } catch (err) {
    const kept = await caches.match(fallback ?? request);
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request);
  return kept ?? fetch(request);
}

// The daily challenge's index and puzzles (not the attempts, nor the archive of results).
const dailyRead = /^\/api\/daily(\/[a-z-]+)?$/;

scope.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== scope.location.origin) return;
  if (url.pathname.startsWith('/api/')) {
    if (dailyRead.test(url.pathname)) e.respondWith(networkFirst(req, DATA));
    return; // the rest of the API and the WebSocket: the network, or nothing
  }
  if (url.pathname === '/ws' || url.pathname === '/healthz' || url.pathname === '/metrics' || url.pathname === '/sw.js') return;
  // Every page path is the one page: fresh from the network when there is one, else the kept copy.
  if (req.mode === 'navigate') {
    e.respondWith(networkFirst(req, SHELL, '/'));
    return;
  }
  // Hashed assets never change under their name; the other files are kept by this version.
  if (PRECACHE.includes(url.pathname)) e.respondWith(cacheFirst(req));
});
