// Prints the gzipped size of the built JS + CSS and fails the build above the 150 KB budget.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 150 * 1024;
const dist = new URL("../dist/", import.meta.url).pathname;
let raw = 0, gz = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(js|css|mjs)$/.test(name)) {
      const b = readFileSync(p);
      raw += b.length;
      gz += gzipSync(b, { level: 9 }).length;
    }
  }
}
walk(dist);
const kb = (n) => (n / 1024).toFixed(1) + " KB";
console.log(`PWA bundle (JS+CSS, incl. sw.js): ${kb(raw)} raw, ${kb(gz)} gzipped (budget ${kb(BUDGET)})`);
if (gz > BUDGET) { console.error("over the size budget"); process.exit(1); }
