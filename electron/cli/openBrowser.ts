import { spawn } from 'node:child_process';

/**
 * Opens `url` in the person's browser, as `npm start`-style tools do: the
 * BROWSER variable names a program (or "none" for no browser); otherwise the
 * platform's opener. Returns why it did not try, or null when it did; a
 * failure to start the opener is reported through `onError`. Nothing waits
 * for the browser.
 */
export function openBrowser(
  url: string,
  onError: (reason: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const browser = env.BROWSER?.trim();
  if (browser === 'none') return 'BROWSER=none';
  let command: string;
  let args: string[];
  if (browser) {
    [command, args] = [browser, [url]];
  } else if (platform === 'darwin') {
    [command, args] = ['open', [url]];
  } else if (platform === 'win32') {
    // Start-Process keeps the #fragment (the token); the address holds only [A-Za-z0-9:/.#=_-].
    [command, args] = ['powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `Start-Process '${url}'`]];
  } else {
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display';
    [command, args] = ['xdg-open', [url]];
  }
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', (err) => onError(`${command}: ${err.message}`));
    child.unref();
  } catch (err) {
    onError(`${command}: ${(err as Error).message}`);
  }
  return null;
}
