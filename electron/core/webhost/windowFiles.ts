import { readFile, stat } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';

import mime from 'mime';

import { isInside } from '../library/uriPath.js';
import { APP_CSP } from './windowCsp.js';

/** A plain-text refusal (never a path or a parser's message). */
export function refuse(res: http.ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${message}\n`);
}

/**
 * The built window's files, under `rendererRoot` only, with the app's CSP.
 * Any path without an extension is the page itself (index.html).
 */
export async function serveWindowFile(req: http.IncomingMessage, res: http.ServerResponse, rendererRoot: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
  if (url.searchParams.has('token')) {
    // An address in the older ?token= form: the token moves to the fragment, out of logs and Referers. Always to
    // the window itself: the path is the client's (`/.//evil.example/` made `//evil.example/`, another host).
    res.writeHead(303, {
      location: `/#token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    return void res.end();
  }
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return refuse(res, 400, 'Bad request'); // a malformed % escape: said plainly, nothing of the parser's message
  }
  if (rel === '/' || !path.extname(rel)) rel = '/index.html';
  const file = path.join(rendererRoot, rel);
  const st = await stat(file).catch(() => null);
  if (!isInside(rendererRoot, file) || !st?.isFile()) {
    if (rel === '/index.html') return refuse(res, 503, 'The window is not built: run npm run build');
    return refuse(res, 404, 'Not found');
  }
  res.writeHead(200, {
    'content-type': mime.getType(file) ?? 'application/octet-stream',
    'content-security-policy': APP_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': rel === '/index.html' ? 'no-store' : 'max-age=3600',
  });
  if (req.method === 'HEAD') return void res.end();
  res.end(await readFile(file));
}
