import { defineConfig } from 'vite';

// The server (`semis serve --web dist`) serves dist/ at the site root; in `vite dev` the API and
// the WebSocket are proxied to a server on 8080 when one runs.
export default defineConfig({
  base: '/',
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
});
