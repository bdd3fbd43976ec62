const fs = require('node:fs');
const path = require('node:path');

/**
 * Jest runs TypeScript through SWC in CommonJS mode and cannot load ES modules itself. NestJS 12 and the
 * unified/micromark family ship ESM only, so every installed package that declares `"type": "module"` (found
 * once here, scopes and nested copies included) is transpiled too instead of being ignored.
 */
function esmOnlyPackages(root = path.join(__dirname, 'node_modules')) {
  const names = new Set(['content-disposition', '@nestjs', '@gitbook']);
  const visit = (dir, prefix) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@') && !prefix) {
        visit(path.join(dir, entry), `${entry}/`);
        continue;
      }
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(dir, entry, 'package.json'), 'utf8'));
        if (manifest.type === 'module') names.add(`${prefix}${entry}`);
      } catch {
        // not a package
      }
      // a package may hold its own (ESM) copy of a dependency whose top-level copy is CommonJS
      if (dir === root || prefix) visit(path.join(dir, entry, 'node_modules'), '');
    }
  };
  visit(root, '');
  return [...names].map((name) => name.replace(/[.+]/g, '\\$&'));
}
const esmPackages = esmOnlyPackages().join('|');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/{apps,libs,test}/**/*.spec.ts',
    '<rootDir>/{apps,libs,test}/**/*.e2e-spec.ts',
    '<rootDir>/test/**/*.contract-spec.ts',
  ],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    '^@app/(kernel|event-store|read-store|search-index|key-store|blob-store|fetcher|documents|identity|content|review|publishing|extensibility|subscriptions)$':
      '<rootDir>/libs/$1/src',
    '^@app/(kernel|event-store|read-store|search-index|key-store|blob-store|fetcher|documents|identity|content|review|publishing|extensibility|subscriptions)/(.*)$':
      '<rootDir>/libs/$1/src/$2',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
};
