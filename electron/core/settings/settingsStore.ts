import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';

import envPaths from 'env-paths';
import writeFileAtomic from 'write-file-atomic';
import * as z from 'zod';

import { DEFAULT_MAX_READ_BYTES } from '../../../shared/limits.js';
import type { Settings } from '../../../shared/shelfApi.js';
import { readRegularText } from '../base/regularFile.js';
import { LANGUAGE_CODE } from '../documents/ocrLimits.js';
import { moveLinkAside } from './configDir.js';

const FolderSchema = z.object({
  path: z.string().min(1),
  enabled: z.boolean().default(true),
  showHidden: z.boolean().default(false),
  gitignore: z.boolean().default(true),
  extraIgnore: z.array(z.string()).default([]),
  askBeforeRead: z.boolean().default(false),
  changes: z.enum(['off', 'ask']).default('off'),
});

/** The file's shape; unknown keys are dropped, missing ones take defaults. */
export const SettingsSchema = z.object({
  folders: z.array(FolderSchema).default([]),
  maxReadBytes: z.number().int().positive().default(DEFAULT_MAX_READ_BYTES),
  socketPath: z.string().min(1).nullable().default(null),
  http: z
    .object({
      enabled: z.boolean().default(false),
      host: z.string().default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(3859),
      /** Bearer token; generated on first use and kept here. */
      token: z.string().min(16).max(512).nullable().default(null),
    })
    .prefault({}),
  /** Offer read-only tools mirroring the resources, for tool-only clients. */
  tools: z.boolean().default(true),
  /** A full-text index of the published text, for search. */
  searchIndex: z.boolean().default(true),
  log: z
    .object({
      maxEntries: z.number().int().min(100).max(1_000_000).default(10_000),
      maxBytes: z
        .number()
        .int()
        .min(1024 * 1024)
        .max(1024 * 1024 * 1024)
        .default(32 * 1024 * 1024),
    })
    .prefault({}),
  history: z
    .object({
      maxAgeDays: z.number().int().min(1).max(3650).default(90),
      maxBytes: z
        .number()
        .int()
        .min(1024 * 1024)
        .max(1024 * 1024 * 1024)
        .default(64 * 1024 * 1024),
    })
    .prefault({}),
  askTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
  changes: z
    .object({
      maxBytes: z
        .number()
        .int()
        .min(1024)
        .max(256 * 1024 * 1024)
        .default(10 * 1024 * 1024),
      keepBytes: z
        .number()
        .int()
        .min(1024 * 1024)
        .max(16 * 1024 * 1024 * 1024)
        .default(256 * 1024 * 1024),
      keepDays: z.number().int().min(1).max(3650).default(30),
    })
    .prefault({}),
  /** What the tools give a model: text within a budget, images within a size. */
  delivery: z
    .object({
      textBudget: z.number().int().min(1000).max(10_000_000).default(100_000),
      imageMaxSide: z.number().int().min(64).max(8000).default(1568),
      imageMaxBytes: z
        .number()
        .int()
        .min(16 * 1024)
        .max(20 * 1024 * 1024)
        .default(1536 * 1024),
      clients: z
        .record(
          z.string().min(1).max(200),
          z.object({
            textBudget: z.number().int().min(1000).max(10_000_000).optional(),
            images: z.boolean().optional(),
            links: z.boolean().optional(),
            embedOriginals: z.boolean().optional(),
          }),
        )
        .default({}),
    })
    .prefault({}),
  /** OCR of images and scanned pages; languages by Tesseract code (eng ships; others from the settings folder's ocr-languages/). */
  ocr: z
    .object({
      enabled: z.boolean().default(true),
      languages: z.array(z.string().regex(LANGUAGE_CODE, 'a Tesseract language code such as eng, deu or chi_sim')).min(1).max(8).default(['eng']),
    })
    .prefault({}),
});

export function defaultSettings(): Settings {
  return SettingsSchema.parse({});
}

/** Where the headless server keeps settings: the XDG config folder (or the OS equivalent). */
export function defaultSettingsDir(): string {
  return envPaths('mcp-shelf', { suffix: '' }).config;
}

export interface LoadResult {
  settings: Settings;
  /** Set when the file was unreadable or corrupt and was moved aside. */
  warning: string | null;
}

/**
 * Settings as one JSON file, written atomically (temp file + rename), so a
 * crash mid-write leaves the old file or the new one, never half of each.
 */
export class SettingsStore {
  readonly file: string;
  private writes: Promise<void> = Promise.resolve();

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'settings.json');
  }

  /** Reads the settings; a corrupt or invalid file is moved aside and defaults are used. */
  async load(): Promise<LoadResult> {
    let text: string;
    try {
      // Not through a link: prepareConfigDir moved any aside, and one made since is not followed.
      text = await readRegularText(this.file, { maxBytes: 16 * 1024 * 1024, noFollow: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), warning: null };
      return { settings: defaultSettings(), warning: `Could not read ${this.file} (${(err as Error).message}); using defaults` };
    }
    let problem: string;
    try {
      const parsed = SettingsSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { settings: parsed.data, warning: null };
      problem = `invalid settings: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim();
    } catch (err) {
      problem = `not valid JSON: ${(err as Error).message}`;
    }
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await rename(this.file, aside);
      return { settings: defaultSettings(), warning: `${this.file} was ${problem}; moved it to ${aside} and started with defaults` };
    } catch (err) {
      return { settings: defaultSettings(), warning: `${this.file} was ${problem} and could not be moved aside (${(err as Error).message}); using defaults` };
    }
  }

  /** Resolves once every save asked for so far is on disk (or failed): a shutdown waits for them. */
  settled(): Promise<void> {
    return this.writes.catch(() => undefined);
  }

  /** Saves atomically; writes are serialised so the last call wins. */
  save(settings: Settings): Promise<void> {
    const text = `${JSON.stringify(SettingsSchema.parse(settings), null, 2)}\n`;
    this.writes = this.writes
      .catch(() => undefined)
      .then(async () => {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        // write-file-atomic writes through a link to where it leads: one put here since start is moved aside first.
        await moveLinkAside(this.file);
        await writeFileAtomic(this.file, text, { mode: 0o600, fsync: true });
      });
    return this.writes;
  }
}
