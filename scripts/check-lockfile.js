#!/usr/bin/env node
/**
 * Checks that package-lock.json is complete for every platform, offline and in well under a second.
 *
 * npm writes into the lockfile only the optional dependencies whose manifests it could fetch. If a registry lacks
 * some platform packages (say `@swc/core-darwin-arm64`), the lockfile still works on the machine that wrote it, but
 * `npm ci` refuses it on that other platform. This script fails when:
 * - an optional dependency of a locked package is missing from the lockfile (looked up the way Node resolves it:
 *   the nearest `node_modules` up the tree), or its locked version does not satisfy the declared one;
 * - a locked registry package lacks `resolved` or `integrity`, or its `resolved` URL is not on the public registry
 *   (a lockfile written through a mirror must not send everyone else to it);
 * - the lockfile does not match package.json's dependencies.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';
const root = path.resolve(__dirname, '..');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const packages = lock.packages ?? {};
const problems = [];

if (lock.lockfileVersion !== 3) problems.push(`lockfileVersion is ${lock.lockfileVersion}, expected 3`);

/** The lockfile key that `name`, required from the package at `from`, resolves to (or undefined). */
function locate(from, name) {
  let dir = from;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[key]) return key;
    if (dir === '') return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

/** Whether `version` satisfies `spec`: exact versions, `^`/`~` ranges and npm: aliases (others are not judged). */
function satisfies(version, spec, entry) {
  if (spec.startsWith('npm:')) {
    const at = spec.lastIndexOf('@');
    return entry.name === spec.slice(4, at) && satisfies(version, spec.slice(at + 1), entry);
  }
  const m = /^([\^~]?)(\d+)\.(\d+)\.(\d+)$/.exec(spec.trim());
  const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m) return true;
  if (!v) return false;
  const [want, have] = [m.slice(2).map(Number), v.slice(1).map(Number)];
  const cmp = have[0] - want[0] || have[1] - want[1] || have[2] - want[2];
  if (m[1] === '') return cmp === 0;
  if (cmp < 0) return false;
  if (m[1] === '~') return have[0] === want[0] && have[1] === want[1];
  if (want[0] > 0) return have[0] === want[0];
  return have[1] === want[1] && (want[1] > 0 || have[2] === want[2]);
}

// 1. The root entry agrees with package.json.
const rootEntry = packages[''] ?? {};
for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
  const want = JSON.stringify(manifest[field] ?? {});
  const have = JSON.stringify(rootEntry[field] ?? {});
  if (want !== have) problems.push(`package.json ${field} differ from the lockfile's; run npm install`);
}

// 2. Every optional dependency of every locked package is locked too.
const families = new Map();
for (const [key, entry] of Object.entries(packages)) {
  if (key === '' || entry.link) continue;
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const found = locate(key, name);
    const owner = `${key.slice(key.lastIndexOf('node_modules/') + 13)}@${entry.version}`;
    if (!families.has(owner)) families.set(owner, 0);
    families.set(owner, families.get(owner) + 1);
    if (!found) {
      problems.push(`${owner}: optional dependency ${name}@${spec} is not in the lockfile`);
    } else if (!satisfies(packages[found].version, spec, packages[found])) {
      problems.push(`${owner}: ${name}@${spec} is locked at ${packages[found].version}`);
    }
  }
}

// 3. Every registry package has a public `resolved` URL and an integrity hash.
for (const [key, entry] of Object.entries(packages)) {
  if (key === '' || entry.link || !key.includes('node_modules/')) continue;
  if (!entry.resolved) problems.push(`${key}: no "resolved" URL`);
  else if (!entry.resolved.startsWith(PUBLIC_REGISTRY)) problems.push(`${key}: resolved from ${entry.resolved}`);
  if (!entry.integrity) problems.push(`${key}: no "integrity"`);
}

if (problems.length > 0) {
  console.error(`package-lock.json is incomplete:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
if (process.argv.includes('--verbose')) {
  for (const [owner, count] of families) console.log(`${owner}: ${count} optional dependencies locked`);
}
console.log(`package-lock.json: ${Object.keys(packages).length - 1} packages, every optional dependency locked`);
