// The MCP Bundle's size bounds, checked by make-mcpb.mjs before and after
// packing. Claude Desktop is reported to fail silently to install a bundle
// holding any file over ~108 KB, so each file stays under 100 KiB; the
// bundle as a whole stays small (it is a manifest, an icon and the bridge).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export const MAX_FILE_BYTES = 100 * 1024;
export const MAX_BUNDLE_BYTES = 256 * 1024;

/** Every file under `dir` with its size, paths relative to `dir`. */
async function filesOf(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.push({ rel: path.relative(dir, full), size: (await stat(full)).size });
  }
  return out;
}

/** What is over its bound in the folder about to be packed and in the packed bundle (`mcpb` may be null before packing); [] when all is well. */
export async function bundleSizeProblems(dir, mcpb = null) {
  const problems = [];
  for (const { rel, size } of await filesOf(dir)) {
    if (size > MAX_FILE_BYTES)
      problems.push(`${rel} is ${size} bytes; a bundle file must stay under ${MAX_FILE_BYTES} (Claude Desktop fails to install bundles with larger files)`);
  }
  if (mcpb !== null) {
    const { size } = await stat(mcpb);
    if (size > MAX_BUNDLE_BYTES) problems.push(`${path.basename(mcpb)} is ${size} bytes; the bundle must stay under ${MAX_BUNDLE_BYTES}`);
  }
  return problems;
}
