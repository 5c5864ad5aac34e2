// The static build for a test: `scripts/static` writes it once (the WebAssembly module, and `pacw static` with the
// binary the tests run), and a tiny static web server serves it on a free port, as any static host would.

import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binary } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.webmanifest': 'application/manifest+json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.wasm': 'application/wasm',
};

/// Writes the static build into a fresh folder (scripts/static, the binary of PACW_BIN); returns the folder.
export function buildStatic() {
  const out = mkdtempSync(join(tmpdir(), 'pacw-static-'));
  execFileSync(join(root, 'scripts', 'static'), [out], { cwd: root, env: { ...process.env, PACW_BIN: binary }, stdio: ['ignore', 'pipe', 'inherit'] });
  return out;
}

/// Serves `dir` on 127.0.0.1 (any free port) as a plain static host does: a file by its path, a folder by its
/// index.html (a folder asked for without its slash is redirected to it) — under `base`, a folder of the host
/// (`/games/pacw/`), every request outside it refused. Resolves with { url, stop, requests }, `requests` counting
/// what it served and what it refused (`outside`).
export function serveStatic(dir, base = '/') {
  const served = { count: 0, outside: [] };
  const server = createServer((req, res) => {
    served.count++;
    const full = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (full.includes('..')) { res.writeHead(400).end(); return; }
    if (!`${full}/`.startsWith(base)) {
      served.outside.push(full);
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no file ${full}: the app is at ${base}`);
      return;
    }
    const path = `/${full.slice(base.length)}`;
    let file = join(dir, path);
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!full.endsWith('/')) { res.writeHead(301, { location: `${full}/` }).end(); return; }
      file = join(file, 'index.html');
    }
    if (!existsSync(file)) { res.writeHead(404, { 'content-type': 'text/plain' }).end(`no file ${path}`); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}${base}`;
      resolve({ url, requests: served, stop: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }) });
    });
  });
}

/// Removes a static build.
export function removeStatic(dir) {
  rmSync(dir, { recursive: true, force: true });
}
