// Makes every icon size the installers need from build/icon.svg:
// build/icon.png (1024), build/icons/<N>x<N>.png (Linux), build/icon.icns
// (macOS) and build/icon.ico (Windows). Run after editing the SVG:
//   node scripts/make-icons.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';

const build = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build');
const svg = readFileSync(path.join(build, 'icon.svg'));
const render = (size) => new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();

mkdirSync(path.join(build, 'icons'), { recursive: true });
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
  writeFileSync(path.join(build, 'icons', `${size}x${size}.png`), render(size));
}
const master = render(1024);
writeFileSync(path.join(build, 'icon.png'), master);
writeFileSync(path.join(build, 'icon.icns'), png2icons.createICNS(master, png2icons.BICUBIC, 0));
writeFileSync(path.join(build, 'icon.ico'), png2icons.createICO(master, png2icons.BICUBIC, 0, false, true));
console.log('icons written to', build);
