import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { imagePages } from '../../../../../electron/core/documents/ocrImage.js';

describe('imagePages', () => {
  it("reads an animation's first frame only (its frames are one picture moving), and every page of a multi-page TIFF", async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff', '#ffffff', '#000000'].map(frame));
    const webp = await sharp(frames, { join: { animated: true } })
      .webp({ delay: [100, 100, 100, 100, 100], loop: 0 })
      .toBuffer();
    expect((await sharp(webp).metadata()).pages).toBe(5);
    expect((await imagePages(webp)).pages).toBe(1);
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100, 100, 100, 100] })
      .toBuffer();
    expect((await imagePages(gif)).pages).toBe(1);
    const tiff = await sharp(frames, { join: { animated: true } })
      .tiff()
      .toBuffer();
    const tiffPages = (await sharp(tiff).metadata()).pages;
    expect(tiffPages).toBe(5);
    expect((await imagePages(tiff)).pages).toBe(5);
  });
});
