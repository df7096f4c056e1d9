import { describe, expect, it } from 'vitest';

import { APP_CSP } from '../../../../electron/core/webhost/windowCsp.js';
import { folderArgs, isAppUrl, mainWindowOptions } from '../../../../electron/desktop/windowOptions.js';

describe('Electron window security', () => {
  it('isolates the renderer: context isolation, sandbox, no Node', () => {
    const o = mainWindowOptions('/app/out/preload/preload.cjs', { width: 900, height: 600 });
    expect(o.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(o.webPreferences.preload).toMatch(/\.cjs$/);
    expect(o).toMatchObject({ width: 900, height: 600 });
  });

  it('has a strict CSP: no inline or remote scripts, no eval', () => {
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
    expect(APP_CSP).toContain("frame-ancestors 'none'");
  });

  it('allows navigation only to the app itself', () => {
    expect(isAppUrl('file:///app/out/renderer/index.html', 'file:///app/out/renderer/index.html')).toBe(true);
    expect(isAppUrl('file:///etc/passwd', 'file:///app/out/renderer/index.html')).toBe(false);
    expect(isAppUrl('https://evil.example/', 'file:///app/out/renderer/index.html')).toBe(false);
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
  });

  it('takes folder paths from a second launch, not flags or the app itself', () => {
    expect(folderArgs(['/opt/MCP Shelf/mcp-shelf', '--inspect', '/home/me/docs', 'out/main/main.js'])).toEqual(['/home/me/docs']);
  });
});
