'use strict';
/**
 * Prints the heaviest functions of a V8 CPU profile (`.cpuprofile`): self time and total time (self plus callees,
 * each function counted once per stack), as a share of the busy (non-idle) samples.
 *
 * Usage: node bench/profile-summary.js <file.cpuprofile> [rows (default 40)] [filter: a substring of url or name]
 */
const { readFileSync } = require('node:fs');

const [file, rowsArgument, filter] = process.argv.slice(2);
const rows = Number(rowsArgument ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const samples = new Map();
for (const id of profile.samples) samples.set(id, (samples.get(id) ?? 0) + 1);

const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(node_modules\/)/, '$1').replace(/^.*\/dist\//, 'dist/');
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
};
let busy = 0;
let gc = 0;
const self = new Map();
const total = new Map();
for (const [id, count] of samples) {
  const node = byId.get(id);
  const name = node.callFrame.functionName;
  if (name === '(idle)') continue;
  if (name === '(garbage collector)') gc += count;
  busy += count;
  const key = label(node);
  self.set(key, (self.get(key) ?? 0) + count);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = label(byId.get(at));
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + count);
  }
}
const pct = (n) => `${((100 * n) / busy).toFixed(1)}%`.padStart(6);
const show = (title, map) => {
  console.log(`\n${title}`);
  [...map]
    .filter(([key]) => !filter || key.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .forEach(([key, count]) => console.log(`${pct(count)}  ${key}`));
};
console.log(`${busy} busy samples (${pct(gc).trim()} garbage collection)`);
show('self', self);
show('total', total);

// CALLERS=<substring>: who calls the matching functions (self samples of the match, by caller)
if (process.env.CALLERS) {
  const callers = new Map();
  for (const [id, count] of samples) {
    const node = byId.get(id);
    if (!label(node).includes(process.env.CALLERS)) continue;
    const chain = [];
    for (
      let at = parent.get(id), depth = 0;
      at !== undefined && depth < Number(process.env.DEPTH ?? 2);
      at = parent.get(at), depth++
    )
      chain.push(label(byId.get(at)));
    const key = chain.join(' < ');
    callers.set(key, (callers.get(key) ?? 0) + count);
  }
  show(`callers of ${process.env.CALLERS}`, callers);
}
