import { randomBytes } from 'node:crypto';

/** Links kept at once: the window shows one file at a time, so a few cover a quick walk through several. */
export const MAX_FILE_LINKS = 32;
/** A link expires after this long (the viewer fetches it once, when the file is shown). */
export const FILE_LINK_TTL_MS = 30 * 60 * 1000;

interface Link {
  uri: string;
  expires: number;
}

/**
 * Unguessable, short-lived names for published files, so the web host can
 * serve a preview's bytes at an address that ends in the file's name
 * (Chromium's PDF viewer titles a document, and names its download, by the
 * address's last part: a blob: URL shows a random id). The id is 128 random
 * bits handed only to the window over its authenticated socket; the link
 * names a URI, and every fetch reads it again as the preview does.
 */
export class FileLinks {
  private readonly links = new Map<string, Link>();

  constructor(private readonly now: () => number = Date.now) {}

  mint(uri: string): string {
    this.prune();
    while (this.links.size >= MAX_FILE_LINKS) {
      const oldest = this.links.keys().next().value as string;
      this.links.delete(oldest);
    }
    const id = randomBytes(16).toString('base64url');
    this.links.set(id, { uri, expires: this.now() + FILE_LINK_TTL_MS });
    return id;
  }

  /** The URI a link names, or null (unknown, or expired). */
  uriOf(id: string): string | null {
    const link = this.links.get(id);
    if (!link) return null;
    if (link.expires <= this.now()) {
      this.links.delete(id);
      return null;
    }
    return link.uri;
  }

  get size(): number {
    return this.links.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, link] of this.links) if (link.expires <= now) this.links.delete(id);
  }
}
