import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openMemory } from '../memory/open-memory.js';
import { bundledSample, fileSample, type Sample } from './ingest-jobs.js';
import { createPlaygroundApi, type PlaygroundApi } from './playground-api.js';
import { serveStatic } from './static-files.js';

/** Options of {@link startPlayground}. */
export interface StartPlaygroundOptions {
  /** The store directory (created when missing). */
  store: string;
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
  /** Conversation files (e.g. LoCoMo) offered as samples besides the bundled one. @default [] */
  sampleFiles?: ReadonlyArray<string>;
  /** The built web app. @default apps/playground/dist of this repository, or $ENGRAM_PLAYGROUND_APP */
  appDir?: string;
  /** Receives the store's non-fatal warnings. @default ignore */
  warn?: (message: string) => void;
}

/** A running playground. */
export interface RunningPlayground {
  /** Where it listens, e.g. `http://127.0.0.1:4173/`. */
  url: string;
  /** The store directory. */
  store: string;
  /** The web app served, and whether it is built. */
  app: { dir: string; built: boolean };
  /** Stops the server, waits for a running ingest, and closes the store. */
  close(): Promise<void>;
}

/** The built app: $ENGRAM_PLAYGROUND_APP, else apps/playground/dist beside this package in the repository. */
export function defaultAppDir(): string {
  const fromEnv = process.env.ENGRAM_PLAYGROUND_APP;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  // packages/cli/dist/<chunk>.js (or src/playground/ in tests) → the repository root.
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(directory, 'apps', 'playground', 'dist');
    if (existsSync(join(directory, 'apps', 'playground', 'package.json'))) return candidate;
    directory = dirname(directory);
  }
  return resolve('apps/playground/dist');
}

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Refuses requests whose Host is not this machine, so a web page cannot reach the API by DNS rebinding. */
export function isLocalRequest(request: IncomingMessage): boolean {
  const host = request.headers.host ?? '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0] ?? '';
  return localHosts.has(name);
}

/** Opens the store for writing and creates the API over it (also used by the app's Vite dev server). */
export async function openPlaygroundApi(options: Pick<StartPlaygroundOptions, 'store' | 'sampleFiles' | 'warn'>): Promise<{ api: PlaygroundApi; close(): Promise<void> }> {
  const samples: Sample[] = [bundledSample()];
  // Sample files are read first: a bad path fails before the store is opened.
  for (const file of options.sampleFiles ?? []) samples.push(await fileSample(resolve(file)));
  const memory = await openMemory({ path: resolve(options.store), readOnly: false, warn: options.warn ?? (() => undefined) });
  const api = await createPlaygroundApi({ memory, samples });
  return {
    api,
    close: async () => {
      await api.idle();
      await memory.close();
    },
  };
}

/**
 * Starts the playground: the JSON API over the store and the built web app, on 127.0.0.1 only.
 * Holds the store's write lock until closed.
 */
export async function startPlayground(options: StartPlaygroundOptions): Promise<RunningPlayground> {
  const appDir = options.appDir ?? defaultAppDir();
  const { api, close } = await openPlaygroundApi(options);
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!isLocalRequest(request)) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('the playground only answers requests to 127.0.0.1 or localhost');
      return;
    }
    if (await api.handle(request, response)) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('method not allowed');
      return;
    }
    await serveStatic(appDir, new URL(request.url ?? '/', 'http://127.0.0.1').pathname, response);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
    });
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/`,
    store: resolve(options.store),
    app: { dir: appDir, built: existsSync(join(appDir, 'index.html')) },
    close: () =>
      (closing ??= (async () => {
        server.closeAllConnections();
        await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        await close();
      })()),
  };
}
