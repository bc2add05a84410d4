import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the built web app from `root`: a file when the path names one inside it, else
 * `index.html` (the app has one page). Paths that climb out of `root` are refused.
 */
export async function serveStatic(root: string, pathname: string, response: ServerResponse): Promise<void> {
  const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  const candidate = join(root, relative);
  if (candidate !== root && !candidate.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) {
    response.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
    return;
  }
  const path = relative !== '' && (await isFile(candidate)) ? candidate : join(root, 'index.html');
  if (!(await isFile(path))) {
    response
      .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`The playground app is not built (no ${join(root, 'index.html')}): run pnpm build (or pnpm --filter @engram/playground build).\n`);
    return;
  }
  const immutable = path.includes(`${sep}assets${sep}`);
  response.writeHead(200, {
    'content-type': contentTypes[extname(path)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(path).pipe(response);
}
