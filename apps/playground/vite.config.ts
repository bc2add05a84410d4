import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * `pnpm playground` (Vite dev): the playground's API runs inside the dev server, over the store in
 * $ENGRAM_STORE (default apps/playground/.engram-playground). Needs @engram/cli built (pnpm build).
 */
function engramApi(): Plugin {
  return {
    name: 'engram-playground-api',
    apply: 'serve',
    async configureServer(server) {
      const { openPlaygroundApi, isLocalRequest } = await import('@engram/cli');
      const store = resolve(process.env.ENGRAM_STORE ?? resolve(import.meta.dirname, '.engram-playground'));
      const sampleFiles = process.env.ENGRAM_SAMPLE ? [process.env.ENGRAM_SAMPLE] : [];
      const { api, close } = await openPlaygroundApi({ store, sampleFiles, warn: (message) => server.config.logger.warn(message) });
      server.config.logger.info(`engram playground API over ${store}`);
      server.httpServer?.once('close', () => void close());
      server.middlewares.use((request, response, next) => {
        if (!request.url?.startsWith('/api/')) return next();
        if (!isLocalRequest(request)) {
          response.statusCode = 403;
          response.end('the playground only answers requests to 127.0.0.1 or localhost');
          return;
        }
        api.handle(request, response).catch(next);
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), engramApi()],
  server: { host: '127.0.0.1' },
  build: { chunkSizeWarningLimit: 1500 },
});
