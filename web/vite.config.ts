import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, transformWithEsbuild, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

// Every file under public/ (copied to dist/ as it is), as site paths.
function publicFiles(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? publicFiles(path, root) : ['/' + relative(root, path).split('\\').join('/')];
  });
}

// The service worker (src/sw.ts) as dist/sw.js: compiled on its own, with the list of every file
// the built page needs and a version made of their names and bytes, so a new build replaces the
// cache. It is written at the site root (its scope is the whole site) under a name that never
// changes: the server answers it `no-cache`, never `immutable` (src/server/StaticFiles.cpp).
function serviceWorker(): Plugin {
  return {
    name: 'semis-service-worker',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((f) => !f.endsWith('.map') && f !== 'index.html');
      const files = ['/', ...built.map((f) => '/' + f), ...publicFiles(join(here, 'public'))];
      const hash = createHash('sha256');
      for (const f of Object.keys(bundle).sort()) {
        const item = bundle[f];
        hash.update(f).update(item.type === 'chunk' ? item.code : typeof item.source === 'string' ? item.source : Buffer.from(item.source));
      }
      const source = readFileSync(join(here, 'src/sw.ts'), 'utf8');
      hash.update(source);
      const version = hash.digest('hex').slice(0, 12);
      const js = await transformWithEsbuild(source, 'sw.ts', { loader: 'ts', target: 'es2022', format: 'esm' });
      const code = `const PRECACHE = ${JSON.stringify(files)};\nconst VERSION = ${JSON.stringify(version)};\n${js.code}`;
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: code });
    },
  };
}

// The server (`semis serve --web dist`) serves dist/ at the site root; in `vite dev` the API and
// the WebSocket are proxied to a server on 8080 when one runs.
export default defineConfig({
  base: '/',
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 1000 },
  plugins: [serviceWorker()],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
