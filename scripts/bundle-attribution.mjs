// Which sources make up a built chunk: `node scripts/bundle-attribution.mjs dist/assets/index-*.js`
// (needs a build with --sourcemap). Prints raw bytes per package / source folder.
import { readFileSync } from 'node:fs';

const B = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function decode(s) {
  const out = [];
  let v = 0;
  let shift = 0;
  for (const c of s) {
    let d = B.indexOf(c);
    const more = d & 32;
    d &= 31;
    v += d << shift;
    if (more) shift += 5;
    else {
      out.push(v & 1 ? -(v >> 1) : v >> 1);
      v = 0;
      shift = 0;
    }
  }
  return out;
}

const file = process.argv[2];
const code = readFileSync(file, 'utf8').split('\n');
const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
const sizes = new Map();
let src = 0;
map.mappings.split(';').forEach((line, li) => {
  let col = 0;
  const segs = line.split(',').filter(Boolean).map(decode);
  segs.forEach((s, i) => {
    col += s[0];
    if (s.length > 1) src += s[1];
    const next = i + 1 < segs.length ? col + segs[i + 1][0] : (code[li] ?? '').length;
    const name = map.sources[src] ?? '?';
    const key = name.includes('node_modules/')
      ? name
          .replace(/.*node_modules\//, '')
          .split('/')
          .slice(0, name.includes('/@') ? 2 : 1)
          .join('/')
      : name.replace(/^(\.\.\/)+/, '');
    sizes.set(key, (sizes.get(key) ?? 0) + (next - col));
  });
});
for (const [k, v] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 40)))
  console.log(String(v).padStart(8), k);
