import { describe, expect, it } from 'vitest';

import { declaresApps, IMAGE_MAX_PIXELS, profileFor } from '../../../../../electron/core/delivery/clientProfiles.js';
import { fitted } from '../../../../../electron/core/delivery/imageWorker.js';

const SETTINGS = { textBudget: 100_000, imageMaxSide: 1568, imageMaxBytes: 1536 * 1024, clients: {} };

/** The one place that decides what a client is given and told (issue 39). */
describe('client profiles', () => {
  it('apps: declared by the extension, or known of the client; never for a client that shows none', () => {
    const apps = (name: string | null, caps?: unknown) => profileFor({ name, protocolVersion: '2025-11-25', declaredApps: declaresApps(caps) }, SETTINGS).apps;
    expect(apps('some-client')).toBe(false);
    expect(apps('some-client', { extensions: { 'io.modelcontextprotocol/ui': {} } })).toBe(true);
    expect(apps('some-client', { extensions: {} })).toBe(false);
    expect(apps('some-client', { extensions: null })).toBe(false);
    expect(apps('claude-code')).toBe(false);
    expect(apps('Visual Studio Code')).toBe(true);
    expect(apps('claude-ai')).toBe(true);
    expect(apps(null)).toBe(false);
  });

  it('budget and image area per profile', () => {
    expect(profileFor({ name: 'claude-code', protocolVersion: null }, SETTINGS)).toMatchObject({ textBudget: 75_000, imageMaxPixels: IMAGE_MAX_PIXELS });
    expect(profileFor({ name: 'x', protocolVersion: null }, SETTINGS)).toMatchObject({ textBudget: 100_000, imageMaxSide: 1568 });
  });
});

describe('image size for a model', () => {
  it('within the long side and the area, never enlarged, the shape kept', () => {
    expect(fitted(4000, 3000, 1568, 1_150_000)).toEqual({ width: 1238, height: 928 });
    expect(fitted(3000, 2000, 1568, 1_150_000)).toEqual({ width: 1313, height: 875 });
    // A panorama: the long side bounds it before the area does.
    expect(fitted(8000, 1000, 1568, 1_150_000)).toEqual({ width: 1568, height: 196 });
    expect(fitted(800, 600, 1568, 1_150_000)).toEqual({ width: 800, height: 600 });
    const { width, height } = fitted(5000, 5000, 1568, 1_150_000);
    expect(width * height).toBeLessThanOrEqual(1_150_000);
    expect(width).toBe(height);
  });
});
