import { randomBytes } from 'node:crypto';
import path from 'node:path';

import writeFileAtomic from 'write-file-atomic';

import { readRegularText } from '../base/regularFile.js';
import { moveLinkAside } from '../settings/configDir.js';

/** The browser window's address, kept per settings folder so a bookmark of it works after a restart. */
export interface WebAddress {
  port: number;
  token: string;
}

const FILE = 'web-window.json';
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

export const newWebToken = (): string => randomBytes(24).toString('base64url');

/** The saved address, or a fresh token and no port (any free one) when none is saved or the file is not ours. */
export async function loadWebAddress(dir: string): Promise<{ port: number | null; token: string }> {
  try {
    const v = JSON.parse(await readRegularText(path.join(dir, FILE), { maxBytes: 4096, noFollow: true })) as Partial<WebAddress>;
    if (typeof v.token === 'string' && TOKEN.test(v.token)) {
      const port = Number.isInteger(v.port) && (v.port as number) >= 1024 && (v.port as number) <= 65535 ? (v.port as number) : null;
      return { port, token: v.token };
    }
  } catch {
    // first run, or unreadable: a new address
  }
  return { port: null, token: newWebToken() };
}

/** Owner-only, like the settings: the token opens the window's API. */
export async function saveWebAddress(dir: string, address: WebAddress): Promise<void> {
  const file = path.join(dir, FILE);
  await moveLinkAside(file);
  await writeFileAtomic(file, `${JSON.stringify(address)}\n`, { mode: 0o600 });
}
