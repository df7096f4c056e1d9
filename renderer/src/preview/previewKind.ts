import type { ModelPreview, ReadPreview, ResourceContents } from '../../../shared/shelfApi';

export type PreviewKind = 'markdown' | 'json' | 'code' | 'image' | 'audio' | 'video' | 'pdf' | 'hex' | 'error';

/** How the window shows a read: by what the client got (text or blob) and its MIME type. */
export function previewKind(preview: ReadPreview): PreviewKind {
  if (!preview.ok) return 'error';
  const c = preview.result.contents[0] as ResourceContents;
  const mime = c.mimeType.toLowerCase();
  if ('text' in c) {
    if (mime === 'image/svg+xml') return 'image'; // shown as an image, never as inline markup
    if (mime === 'text/markdown') return 'markdown';
    if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
    return 'code';
  }
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'pdf';
  return 'hex';
}

/** The response's result (or error) as JSON; strings past a million characters elided, so a 7 MiB blob stays viewable. */
export function rawResponseText(preview: ReadPreview, maxChars = 1_000_000): string {
  const elide = (s: string) => (s.length > maxChars ? `${s.slice(0, maxChars)}… [${(s.length - maxChars).toLocaleString('en')} more characters]` : s);
  // What the client's response carries — its `result` or its `error` — without an invented envelope or id.
  if (!preview.ok) return JSON.stringify({ error: preview.error }, null, 2);
  const contents = preview.result.contents.map((c) => ('text' in c ? { ...c, text: elide(c.text) } : { ...c, blob: elide(c.blob) }));
  return JSON.stringify({ result: { contents } }, null, 2);
}

/** The read_resource tool's result (or error) as the model's client receives it, long strings cut like rawResponseText's. */
export function rawToolResultText(preview: ModelPreview, maxChars = 1_000_000): string {
  const elide = (s: string) => (s.length > maxChars ? `${s.slice(0, maxChars)}… [${(s.length - maxChars).toLocaleString('en')} more characters]` : s);
  if (!preview.ok)
    return JSON.stringify(
      {
        result: {
          isError: true,
          content: [{ type: 'text', text: `${preview.error.message} (${preview.error.code})` }],
          structuredContent: { error: preview.error },
        },
      },
      null,
      2,
    );
  const content = preview.content.map((c) => (c.type === 'text' ? { ...c, text: elide(c.text) } : c.type === 'image' ? { ...c, data: elide(c.data) } : c));
  return JSON.stringify({ result: { content, _meta: { 'dev.mcpshelf/read': preview.position } } }, null, 2);
}

/** Bytes of a base64 blob, for the hex view and media URLs. */
export function base64Bytes(b64: string, max = Number.POSITIVE_INFINITY): Uint8Array {
  const bin = atob(b64);
  const n = Math.min(bin.length, max);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** One hex-dump line: offset, 16 bytes in hex, and their printable ASCII. */
export function hexLine(bytes: Uint8Array, offset: number): string {
  const slice = bytes.subarray(offset, offset + 16);
  const hex = Array.from(slice, (b) => b.toString(16).padStart(2, '0'))
    .join(' ')
    .padEnd(47, ' ');
  const ascii = Array.from(slice, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${offset.toString(16).padStart(8, '0')}  ${hex}  ${ascii}`;
}

/** highlight.js language for a file name, or null for plain text. */
export function languageFor(name: string, mime: string): string | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const byExt: Record<string, string> = {
    ts: 'typescript',
    tsx: 'typescript',
    mts: 'typescript',
    cts: 'typescript',
    js: 'javascript',
    jsx: 'javascript',
    mjs: 'javascript',
    cjs: 'javascript',
    py: 'python',
    rb: 'ruby',
    go: 'go',
    rs: 'rust',
    java: 'java',
    kt: 'kotlin',
    swift: 'swift',
    c: 'c',
    h: 'c',
    cpp: 'cpp',
    cc: 'cpp',
    hpp: 'cpp',
    cs: 'csharp',
    css: 'css',
    scss: 'scss',
    html: 'xml',
    xml: 'xml',
    svg: 'xml',
    json: 'json',
    yaml: 'yaml',
    yml: 'yaml',
    toml: 'ini',
    ini: 'ini',
    sh: 'bash',
    bash: 'bash',
    zsh: 'bash',
    sql: 'sql',
    md: 'markdown',
    php: 'php',
    lua: 'lua',
    diff: 'diff',
    patch: 'diff',
    dockerfile: 'dockerfile',
    makefile: 'makefile',
  };
  if (byExt[ext]) return byExt[ext] as string;
  if (/dockerfile/i.test(name)) return 'dockerfile';
  if (/^makefile$/i.test(name.split('/').pop() ?? '')) return 'makefile';
  if (mime.includes('json')) return 'json';
  return null;
}
