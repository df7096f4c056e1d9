import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dispatch } from '../../../../../electron/core/service/dispatch.js';
import { FILE_LINK_TTL_MS, FileLinks, MAX_FILE_LINKS } from '../../../../../electron/core/service/fileLinks.js';
import { startWebHost, type WebHost } from '../../../../../electron/core/webhost/webHost.js';
import { pdfWithText } from '../../../../support/documents.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';
import { startService, type TestService } from '../../../../support/service.js';

function get(port: number, at: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: at, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('file links: a PDF served under its own name', () => {
  let svc: TestService;
  let web: WebHost;
  let rendererDir: string;
  let folder: string;
  let pdf: Uint8Array;

  beforeAll(async () => {
    rendererDir = await mkdtemp(path.join(os.tmpdir(), 'renderer-'));
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>MCP Shelf</title>');
    pdf = await pdfWithText(['Survey of the northern lakes']);
    folder = await makeTree({
      'Lake survey – 2026.pdf': pdf,
      "Café's notes (1)*.pdf": pdf,
      'gone.pdf': pdf,
      'notes.html': '<script>alert(1)</script>',
      'fake.pdf.txt': 'x',
    });
    svc = await startService();
    await svc.service.addFolders([folder]);
    web = await startWebHost({ service: svc.service, rendererDir, port: 0 });
  });

  afterAll(async () => {
    await web?.close();
    await svc?.stop();
    await rm(rendererDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  const link = (rel: string) => dispatch(svc.service, 'fileLink', [uriOf(folder, rel)]) as Promise<string | null>;

  it('serves the bytes at an address ending in the file name, inline, never cached or embeddable elsewhere', async () => {
    const at = await link('Lake survey – 2026.pdf');
    expect(at).toMatch(/^\/file\/[A-Za-z0-9_-]{22}\/Lake%20survey%20%E2%80%93%202026\.pdf$/);
    const res = await get(web.port, at as string);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="Lake survey _ 2026.pdf"; filename*=UTF-8''Lake%20survey%20%E2%80%93%202026.pdf`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body, Buffer.from(pdf))).toBe(0);
    const head = await get(web.port, at as string, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get(web.port, at as string, {}, 'POST')).status).toBe(405);
  });

  it('names any file in Content-Disposition in RFC 5987 form: no bare quote or parenthesis in filename*', async () => {
    const at = (await link("Café's notes (1)*.pdf")) as string;
    const res = await get(web.port, at);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`inline; filename="Caf_'s notes (1)*.pdf"; filename*=UTF-8''Caf%C3%A9%27s%20notes%20%281%29%2A.pdf`);
  });

  it('gives links for published PDFs only: no HTML or other file is ever served from the window origin', async () => {
    expect(await link('notes.html')).toBeNull();
    expect(await link('fake.pdf.txt')).toBeNull();
    expect(await dispatch(svc.service, 'fileLink', ['file:///etc/passwd'])).toBeNull();
    await expect(dispatch(svc.service, 'fileLink', [42])).rejects.toThrow();
  });

  it('refuses an unknown id, a foreign Host, and a file gone since the link was made', async () => {
    expect((await get(web.port, '/file/AAAAAAAAAAAAAAAAAAAAAA/x.pdf')).status).toBe(404);
    expect((await get(web.port, '/file/%E0%A4%A/x.pdf')).status).toBe(404);
    expect((await get(web.port, '/file/')).status).toBe(404);
    const at = (await link('gone.pdf')) as string;
    expect((await get(web.port, at, { host: `evil.example:${web.port}` })).status).toBe(403);
    expect((await get(web.port, at, { origin: 'http://evil.example' })).status).toBe(403);
    await unlink(path.join(folder, 'gone.pdf'));
    const res = await get(web.port, at);
    expect(res.status).toBe(404);
    expect(res.body.toString()).toMatch(/expired|no longer published/);
  });

  it('names no link where the host serves none (Electron keeps its blob: URL)', async () => {
    const electron = await startService({ host: { kind: 'electron', nativePicker: true, platform: process.platform, home: os.homedir() } });
    try {
      await electron.service.addFolders([folder]);
      expect(await dispatch(electron.service, 'fileLink', [uriOf(folder, 'Lake survey – 2026.pdf')])).toBeNull();
    } finally {
      await electron.stop();
    }
  });
});

describe('FileLinks', () => {
  it('keeps at most MAX_FILE_LINKS, dropping the oldest, and forgets a link once it expires', () => {
    let now = 1_000;
    const links = new FileLinks(() => now);
    const first = links.mint('file:///a.pdf');
    const ids = Array.from({ length: MAX_FILE_LINKS }, (_, i) => links.mint(`file:///${i}.pdf`));
    expect(links.size).toBe(MAX_FILE_LINKS);
    expect(links.uriOf(first)).toBeNull();
    expect(links.uriOf(ids[0] as string)).toBe('file:///0.pdf');
    now += FILE_LINK_TTL_MS;
    expect(links.uriOf(ids[1] as string)).toBeNull();
    links.mint('file:///b.pdf');
    expect(links.size).toBe(1);
  });
});
