/**
 * Jest runs TypeScript through SWC in CommonJS mode. NestJS 12 ships ESM only, so its packages (and the few
 * other ESM-only dependencies) are transpiled too instead of being ignored.
 */
const esmPackages = ['content-disposition', '@nestjs', '@gitbook', 'event-iterator', 'eventsource-parser'].join('|');

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
    '^@app/(kernel|event-store|read-store|identity|content|review|publishing|extensibility)$': '<rootDir>/libs/$1/src',
    '^@app/(kernel|event-store|read-store|identity|content|review|publishing|extensibility)/(.*)$':
      '<rootDir>/libs/$1/src/$2',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
};
