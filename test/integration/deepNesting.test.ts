import { rm } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/**
 * JSON nested 200,000 deep parses (V8's parser does not recurse) but
 * JSON.stringify and schema checks do, and a stack overflow on the socket's
 * path took the whole server down: a `_meta` that deep, or a cancel whose
 * requestId was. Each is answered or ignored now, and the server stays up.
 */

const DEEP = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
const ENVELOPE = '"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}';

describe('messages nested too deep', () => {
  let root: string;
  let shelf: ShelfProcess;
  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'alpha\n' }, 'deep-');
    shelf = await startShelf([root], ['--no-search-index']);
  });
  afterAll(async () => {
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('a 2026-07-28 envelope nested too deep is refused; the connection and the server go on', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"_meta":{${ENVELOPE},"x":${DEEP}}}}\n`);
      expect((await c.waitFor((m) => m.id === 1)).error).toEqual({ code: -32602, message: 'Invalid _meta envelope: nested too deep' });
      c.send(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"${uriOf(root, 'a.txt')}","_meta":{${ENVELOPE}}}}\n`);
      expect((await c.waitFor((m) => m.id === 2)).result).toBeDefined();
    } finally {
      c.close();
    }
  });

  it('a cancel whose requestId is nested too deep names no request and is ignored', async () => {
    const c = await RawClient.initialized(shelf.socketPath);
    try {
      c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${DEEP}}}\n`);
      expect((await c.request('resources/read', { uri: uriOf(root, 'a.txt') })).result).toBeDefined();
    } finally {
      c.close();
    }
  });

  it('an initialize whose capabilities are nested too deep is refused with -32602', async () => {
    const c = await RawClient.connect(shelf.socketPath);
    try {
      c.send(
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":{"y":${DEEP}}}},"clientInfo":{"name":"a","version":"1"}}}\n`,
      );
      expect((await c.waitFor((m) => m.id === 1)).error).toEqual({
        code: -32602,
        message: 'Invalid params for initialize: capabilities and clientInfo together at most 65536 characters of JSON',
      });
    } finally {
      c.close();
    }
    const after = await RawClient.initialized(shelf.socketPath);
    after.close();
    expect(shelf.proc.exitCode).toBeNull();
  });
});
