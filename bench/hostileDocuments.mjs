// Hostile documents, made in milliseconds: an Office zip that lies about its
// sizes and a PDF with one Flate bomb stream. Used by the tests
// (test/integration/extractionMemory.test.ts), `node bench/memory.mjs` and
// `npm run soak`. Plain JavaScript so the bench scripts can use it as is.
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MiB = 1024 * 1024;
/** Zeros compressed one piece at a time; the same piece is repeated. */
const PIECE = 16 * MiB;
const SYNC = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };

/**
 * A raw deflate stream of `prefix` then `zeros` zero bytes. Each piece is
 * compressed on its own and ends on a byte boundary (a sync flush), so one
 * compressed piece can be repeated: 3 GiB of zeros is ~3 MB of stream.
 */
export function deflatedZeros(zeros, prefix = Buffer.alloc(0)) {
  const parts = [];
  if (prefix.length > 0) parts.push(deflateRawSync(prefix, SYNC));
  const whole = Math.floor(zeros / PIECE);
  if (whole > 0) {
    const piece = deflateRawSync(Buffer.alloc(PIECE), SYNC);
    for (let i = 0; i < whole; i++) parts.push(piece);
  }
  if (zeros % PIECE > 0) parts.push(deflateRawSync(Buffer.alloc(zeros % PIECE), SYNC));
  parts.push(deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  return Buffer.concat(parts);
}

/** A zip made byte by byte: each entry's declared size is `declared` when given (a lie), else the truth. */
function zipOf(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = e.deflated ?? deflateRawSync(e.content);
    const crc = e.content ? crc32(e.content) : 0;
    const size = e.declared ?? e.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * An Office file that lies: a real zip whose local headers and central
 * directory both say `part` is 4 KiB, while it inflates to `mib` MiB (an
 * XML start, then zeros). 3 GiB makes a file of ~3 MB.
 */
export function lyingZip(part, mib = 3072) {
  const start = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>lying zip `);
  return zipOf([
    { name: '[Content_Types].xml', content: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', content: Buffer.from(RELS) },
    { name: part, deflated: deflatedZeros(mib * MiB, start), declared: 4096 },
  ]);
}

/** A .docx whose word/document.xml declares 4 KiB and inflates to `mib` MiB. */
export const lyingDocx = (mib = 3072) => lyingZip('word/document.xml', mib);

/** A small, honest .docx made the same way (one paragraph), for comparison. */
export function plainDocx(text) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;
  return zipOf([
    { name: '[Content_Types].xml', content: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', content: Buffer.from(RELS) },
    { name: 'word/document.xml', content: Buffer.from(xml) },
  ]);
}

/** Adler-32 of `prefix` then `zeros` zero bytes, without making them. */
function adler32Zeros(prefix, zeros) {
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + (zeros % 65521) * a) % 65521;
  return ((b << 16) | a) >>> 0;
}

/**
 * A one-page PDF whose content stream is one Flate bomb: a line of text,
 * then `mib` MiB of zeros (whitespace to a PDF), in ~`mib` KB. Made by hand:
 * pdf-lib would inflate nothing, but would not write a stream this way either.
 */
export function flateBombPdf(mib = 2048) {
  const text = Buffer.from('BT /F1 12 Tf 50 700 Td (Flate bomb) Tj ET\n');
  const zeros = mib * MiB;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(adler32Zeros(text, zeros));
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), deflatedZeros(zeros, text), adler]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null, // the stream
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0].length;
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj =
      body === null
        ? Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
            stream,
            Buffer.from('\nendstream\nendobj\n'),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}
