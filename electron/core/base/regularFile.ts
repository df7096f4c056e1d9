import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Opening a FIFO for reading blocks until a writer appears, and a device
 * can be endless: every file we open by name is opened non-blocking and
 * checked on the descriptor (not the name, which can be swapped between a
 * stat and an open) to be a regular file before a byte is read.
 */
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(file: string) {
    super(`${file} is not a regular file`);
  }
}

export class FileTooLargeError extends Error {
  readonly code = 'EFBIG';
  constructor(file: string, limit: number) {
    super(`${file} is larger than ${limit} bytes`);
  }
}

export interface RegularFileOptions {
  /** Refuse a symlink at the last path component (O_NOFOLLOW). */
  noFollow?: boolean;
  /** Refuse a file larger than this. */
  maxBytes: number;
}

const flags = (o: RegularFileOptions) => constants.O_RDONLY | NONBLOCK | (o.noFollow ? NOFOLLOW : 0);

/** Reads a whole regular file, or throws (ENOENT and the like, ENOTREG, EFBIG). */
export async function readRegularFile(file: string, options: RegularFileOptions): Promise<Buffer> {
  const handle = await open(file, flags(options));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new NotRegularFileError(file);
    if (st.size > options.maxBytes) throw new FileTooLargeError(file, options.maxBytes);
    // Read to the limit plus one, not to the stat's size: the file may grow meanwhile.
    const buf = Buffer.alloc(Math.min(options.maxBytes + 1, Math.max(st.size, 0) + 64 * 1024));
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > options.maxBytes) throw new FileTooLargeError(file, options.maxBytes);
      if (length === buf.length) break;
    }
    return buf.subarray(0, length);
  } finally {
    await handle.close();
  }
}

export async function readRegularText(file: string, options: RegularFileOptions): Promise<string> {
  return (await readRegularFile(file, options)).toString('utf8');
}

/** The first `bytes` of a regular file, read synchronously (the scan's content sniffing). */
export function readRegularHead(file: string, bytes: number): Uint8Array {
  const fd = openSync(file, constants.O_RDONLY | NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new NotRegularFileError(file);
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}
