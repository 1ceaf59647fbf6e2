// A stand-in for `semis serve`, used by the browser tests only when no Semis server binary is
// available (SEMIS_BIN / SEMIS_URL unset). It follows docs/protocol.md with the same C++ rules core
// the page uses (compiled to WebAssembly), so the client's server code paths (share links, seats,
// resync with last_event, reconnect) are exercised. The real server is preferred whenever it exists.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { WebSocketServer } from 'ws';

globalThis.require ??= createRequire(import.meta.url);
globalThis.__dirname ??= '/';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
const depth = { easy: 1, medium: 4, hard: 8, perfect: 10 };

export async function startStandin(port, distDir, coreUrl) {
  const create = (await import(coreUrl)).default;
  const m = await create();
  const call = (name, ...args) => JSON.parse(m.ccall(name, 'string', args.map((a) => (typeof a === 'number' ? 'number' : 'string')), args));
  const fields = (p) => `${p.houses.slice(0, p.houses.length / 2).join(',')}/${p.houses.slice(p.houses.length / 2).join(',')}/${p.stores.join(',')}/${p.to_move ?? '-'}`;
  const games = new Map();
  const sockets = new Set();

  const tokenOf = (req) => /semis_token=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
  const stateFor = (g, token) => {
    const s = call('sm_state', g.handle);
    const you = g.seats.S === token && g.seats.N === token ? 'both' : g.seats.S === token ? 'S' : g.seats.N === token ? 'N' : 'spectator';
    const seat = (side) => (g.ai === side ? { name: 'Computer', kind: 'ai', level: g.level, connected: true } : g.seats[side] ? { name: `Guest-${g.seats[side].slice(0, 4)}`, kind: 'human', connected: true } : null);
    return { id: g.id, rules: s.rules, mode: g.mode, seats: { S: seat('S'), N: seat('N') }, you, position: s.position, legal: g.adjudication ? [] : s.legal, status: g.adjudication ? 'over' : g.seats.S && g.seats.N || g.ai ? s.status : 'waiting', result: g.adjudication ?? s.result, draw_offer: g.drawOffer ?? null, set: s.set, sets: s.sets, points: s.points, clock: g.clock ? { S: g.clock.minutes * 60000, N: g.clock.minutes * 60000, running: false } : null, plies: s.plies, last_event: g.events.length };
  };
  const broadcast = (g, event) => {
    g.events.push(event);
    const msg = JSON.stringify({ type: 'event', game: g.id, n: g.events.length, event });
    for (const ws of sockets) if (ws.game === g.id && ws.readyState === 1) ws.send(msg);
  };
  const move = (g, house) => {
    const r = call('sm_play', g.handle, house);
    if (r.error) return r.error;
    broadcast(g, r.event);
    return null;
  };
  const aiTurn = (g) => {
    const s = call('sm_state', g.handle);
    if (!g.ai || s.status !== 'playing' || s.position.to_move !== g.ai) return;
    setTimeout(() => {
      const b = call('sm_best', s.rules, fields(s.position), depth[g.level] ?? 4);
      if (!b.error) move(g, b.house);
      aiTurn(g);
    }, 300);
  };

  const server = createServer(async (req, res) => {
    let token = tokenOf(req);
    if (!token) {
      token = randomBytes(12).toString('hex');
      res.setHeader('Set-Cookie', `semis_token=${token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000`);
    }
    const url = new URL(req.url, 'http://x');
    const json = (code, body) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/healthz') return json(200, { ok: true });
    if (url.pathname === '/api/games' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const b = JSON.parse(body);
      const made = call('sm_new', b.rules ?? 'kalah');
      if (made.error) return json(400, { error: { code: 'bad_rules', message: made.error } });
      const id = randomBytes(5).toString('hex');
      const side = b.side === 'N' ? 'N' : b.side === 'S' ? 'S' : Math.random() < 0.5 ? 'S' : 'N';
      const g = { id, handle: made.handle, clock: b.clock, mode: b.mode, events: [], seats: {}, ai: null, level: b.level };
      g.seats[side] = token;
      if (b.mode === 'local') g.seats[side === 'S' ? 'N' : 'S'] = token;
      if (b.mode === 'ai') g.ai = side === 'S' ? 'N' : 'S';
      games.set(id, g);
      aiTurn(g);
      return json(200, { id, link: `/g/${id}`, seat: b.mode === 'local' ? 'both' : side });
    }
    if (url.pathname === '/api/games' && req.method === 'GET') {
      return json(200, { games: [...games.values()].filter((g) => call('sm_state', g.handle).status === 'playing').map((g) => ({ id: g.id, rules: call('sm_state', g.handle).rules, plies: g.events.length, status: 'playing' })) });
    }
    const gm = /^\/api\/games\/([a-f0-9]+)(\/record)?$/.exec(url.pathname);
    if (gm) {
      const g = games.get(gm[1]);
      if (!g) return json(404, { error: { code: 'not_found', message: 'no such game' } });
      if (gm[2]) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return res.end(call('sm_state', g.handle).record);
      }
      return json(200, stateFor(g, token));
    }
    // The client's files, index.html for its routes.
    let file = join(distDir, url.pathname);
    if (!existsSync(file) || url.pathname === '/' || !extname(file)) file = join(distDir, 'index.html');
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });

  const wss = new WebSocketServer({ server, path: '/ws' });
  wss.on('connection', (ws, req) => {
    const token = tokenOf(req);
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data) => {
      let msg;
      try {
        msg = JSON.parse(String(data));
      } catch {
        return ws.send(JSON.stringify({ type: 'error', code: 'bad_message', message: 'malformed JSON' }));
      }
      const g = games.get(msg.game);
      if (msg.type === 'ping') return ws.send(JSON.stringify({ type: 'pong', t: msg.t, server_time: Date.now() }));
      if (!g) return ws.send(JSON.stringify({ type: 'error', code: 'not_found', message: 'no such game' }));
      if (msg.type === 'join') {
        ws.game = g.id;
        // A friend's first visit takes the free seat.
        if (g.mode === 'friend' && !g.seats.S !== !g.seats.N && g.seats.S !== token && g.seats.N !== token) {
          g.seats[g.seats.S ? 'N' : 'S'] = token;
          broadcast(g, { kind: 'joined' });
        }
        if (typeof msg.last_event === 'number' && msg.last_event <= g.events.length) {
          g.events.slice(msg.last_event).forEach((e, i) => ws.send(JSON.stringify({ type: 'event', game: g.id, n: msg.last_event + i + 1, event: e })));
        } else ws.send(JSON.stringify({ type: 'state', game: stateFor(g, token) }));
        return;
      }
      if (msg.type === 'move') {
        const s = call('sm_state', g.handle);
        const err = (code, message) => ws.send(JSON.stringify({ type: 'error', id: msg.id, code, message }));
        if (!Number.isInteger(msg.house)) return err('bad_message', 'house must be a number');
        if (s.status !== 'playing') return err('game_over', 'the game is over');
        if (g.seats[s.position.to_move] !== token) return err(g.seats.S === token || g.seats.N === token ? 'not_your_turn' : 'not_a_player', 'not your turn');
        const e = move(g, msg.house);
        if (e) return err('illegal_move', e);
        ws.send(JSON.stringify({ type: 'ack', id: msg.id, n: g.events.length }));
        aiTurn(g);
        return;
      }
      const side = g.seats.S === token ? 'S' : g.seats.N === token ? 'N' : null;
      if (msg.type === 'offer_draw' && side && !g.adjudication) {
        g.drawOffer = side;
        return broadcast(g, { kind: 'draw_offered', side });
      }
      if ((msg.type === 'accept_draw' || msg.type === 'decline_draw') && side && g.drawOffer && g.drawOffer !== side) {
        g.drawOffer = null;
        if (msg.type === 'decline_draw') return broadcast(g, { kind: 'draw_declined', side });
        g.adjudication = { winner: 'draw', reason: 'agreement' };
        return broadcast(g, { kind: 'draw_agreed' });
      }
      ws.send(JSON.stringify({ type: 'error', code: 'unknown_type', message: `unknown type ${msg.type}` }));
    });
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    moves: (id) => games.get(id)?.events.filter((e) => e.kind === 'move').length ?? 0,
    stop: () => {
      for (const ws of sockets) ws.terminate();
      server.close();
    },
  };
}
