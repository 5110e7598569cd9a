// Writes dist/sw.js from scripts/sw-template.js with the list of built files (the app shell).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const dist = new URL("../dist/", import.meta.url).pathname;
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (!["index.html", "sw.js"].includes(name)) files.push("/static/" + relative(dist, p));
  }
})(dist);
files.sort();
const hash = createHash("sha256");
for (const f of files) hash.update(f);
hash.update(readFileSync(join(dist, "index.html")));
const version = hash.digest("hex").slice(0, 12);
const shell = ["/", ...files];
const src = readFileSync(new URL("./sw-template.js", import.meta.url), "utf8")
  .replace("__VERSION__", version)
  .replace("__SHELL__", JSON.stringify(shell));
writeFileSync(join(dist, "sw.js"), src);
console.log(`sw.js: ${shell.length} shell entries, version ${version}`);
