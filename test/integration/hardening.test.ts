import http from 'node:http';

import { describe, expect, it } from 'vitest';

import { startShelf } from '../support/shelfProcess.js';

/** Small promises of the real CLI that each closed one way in: what the web host answers to malformed input. */

function get(address: string, rawPath: string): Promise<{ status: number; body: string }> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: rawPath, headers: { host: url.host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('the web host', () => {
  it('answers a malformed % escape in the path with 400 and no parser message, and goes on serving', async () => {
    const shelf = await startShelf([], ['--ui']);
    try {
      const address = /window: (\S+)/.exec(shelf.stderr())?.[1] as string;
      for (const bad of ['/%E0%A4%A', '/assets/%zz.js', '/%']) {
        const res = await get(address, bad);
        expect(res.status, bad).toBe(400);
        expect(res.body, bad).toBe('Bad request\n');
      }
      expect((await get(address, '/')).status).toBe(200);
    } finally {
      await shelf.stop();
    }
  });
});
