// Generates the app icons (SVG + PNG) into public/icons/ with no dependencies and no downloads.
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const out = new URL("../public/icons/", import.meta.url);
mkdirSync(out, { recursive: true });

const BG = [0x1d, 0x3b, 0x2a], CARD = [0xf4, 0xf1, 0xea], RED = [0xa1, 0x2b, 0x2b], BLUE = [0x2b, 0x4f, 0x8f];

// Two overlapping cards on felt; coordinates in a 0..1 square.
function inRoundRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r), cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
function rot(x, y, a) {
  const c = Math.cos(a), s = Math.sin(a), dx = x - 0.5, dy = y - 0.5;
  return [0.5 + dx * c - dy * s, 0.5 + dx * s + dy * c];
}
function pixel(x, y) {
  const [ax, ay] = rot(x, y, 0.22);
  if (inRoundRect(ax, ay, 0.40, 0.22, 0.74, 0.74, 0.04)) {
    return inRoundRect(ax, ay, 0.44, 0.26, 0.70, 0.70, 0.03) ? RED : CARD;
  }
  const [bx, by] = rot(x, y, -0.22);
  if (inRoundRect(bx, by, 0.26, 0.26, 0.60, 0.78, 0.04)) {
    return inRoundRect(bx, by, 0.30, 0.30, 0.56, 0.74, 0.03) ? BLUE : CARD;
  }
  return BG;
}

const CRC = new Int32Array(256).map((_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c; });
function crc32(buf) { let c = -1; for (const b of buf) c = CRC[(c ^ b) & 255] ^ (c >>> 8); return (c ^ -1) >>> 0; }
function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size) {
  const raw = Buffer.alloc(size * (size * 3 + 1));
  const ss = 2; // 2x2 supersampling for smooth edges
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0];
      for (let i = 0; i < ss; i++) for (let j = 0; j < ss; j++) {
        const p = pixel((x + (i + 0.5) / ss) / size, (y + (j + 0.5) / ss) / size);
        acc[0] += p[0]; acc[1] += p[1]; acc[2] += p[2];
      }
      const o = y * (size * 3 + 1) + 1 + x * 3;
      for (let k = 0; k < 3; k++) raw[o + k] = Math.round(acc[k] / (ss * ss));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0); ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

for (const size of [192, 512]) writeFileSync(new URL(`icon-${size}.png`, out), png(size));
const hex = (c) => "#" + c.map((v) => v.toString(16).padStart(2, "0")).join("");
writeFileSync(new URL("icon.svg", out), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" fill="${hex(BG)}"/>
<g transform="rotate(-12.6 50 50)"><rect x="26" y="26" width="34" height="52" rx="4" fill="${hex(CARD)}"/><rect x="30" y="30" width="26" height="44" rx="3" fill="${hex(BLUE)}"/></g>
<g transform="rotate(12.6 50 50)"><rect x="40" y="22" width="34" height="52" rx="4" fill="${hex(CARD)}"/><rect x="44" y="26" width="26" height="44" rx="3" fill="${hex(RED)}"/></g>
</svg>
`);
console.log("icons: public/icons/icon-192.png, icon-512.png, icon.svg");
