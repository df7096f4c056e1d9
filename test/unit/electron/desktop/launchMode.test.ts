import { describe, expect, it } from 'vitest';

import { launchMode, publishAskOptions } from '../../../../electron/desktop/launchMode.js';

describe('what a launch of the app is for', () => {
  it('is the stdio bridge with --mcp-bridge (packaged or not), with or without a socket', () => {
    expect(launchMode(['/opt/MCP Shelf/mcp-shelf', '--mcp-bridge'])).toEqual({ mode: 'bridge', socket: null });
    expect(launchMode(['/opt/MCP Shelf/mcp-shelf', '--mcp-bridge', '--socket', '/run/user/1/mcp-shelf/shelf.sock'])).toEqual({
      mode: 'bridge',
      socket: '/run/user/1/mcp-shelf/shelf.sock',
    });
    expect(launchMode(['/usr/bin/electron', '.', '--mcp-bridge', '--socket=/tmp/s.sock'])).toEqual({ mode: 'bridge', socket: '/tmp/s.sock' });
  });

  it('says what is wrong with the bridge’s arguments', () => {
    expect(launchMode(['app', '--mcp-bridge', '--socket'])).toEqual({ mode: 'bridge-usage', error: '--socket needs a path' });
    expect(launchMode(['app', '--mcp-bridge', '/home/me/docs'])).toEqual({ mode: 'bridge-usage', error: 'unexpected argument: /home/me/docs' });
  });

  it('is the app otherwise', () => {
    expect(launchMode(['/opt/MCP Shelf/mcp-shelf'])).toEqual({ mode: 'app' });
    expect(launchMode(['/opt/MCP Shelf/mcp-shelf', '/home/me/docs'])).toEqual({ mode: 'app' });
    // Only as its own argument.
    expect(launchMode(['/opt/MCP Shelf/mcp-shelf', '/home/me/--mcp-bridge'])).toEqual({ mode: 'app' });
  });

  it('asks before publishing folders another program named, with Don’t Publish as the default', () => {
    const o = publishAskOptions(['/home/me', '/etc']);
    expect(o.detail).toContain('/home/me\n/etc');
    expect(o.detail).toContain('Any program can start MCP Shelf this way');
    expect(o.buttons[o.defaultId]).toBe('Don’t Publish');
    expect(o.cancelId).toBe(o.defaultId);
  });
});
