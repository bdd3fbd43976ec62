import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECTION_REBUILD_REQUESTED } from '@app/kernel';

/**
 * docs/events.md is the catalogue for event-stream subscribers: every event type the code declares has a
 * `### <Type>` section, and every `###` section names a type that still exists.
 */
const ROOT = join(__dirname, '..', '..');
const CATALOGUE = join(ROOT, 'docs', 'events.md');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Event types declared as `DomainEvent<'Name', …>` anywhere under libs/ (the name may follow on the next line). */
function declaredEventTypes(): Map<string, string> {
  const declared = new Map<string, string>();
  for (const file of sourceFiles(join(ROOT, 'libs'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/DomainEvent<\s*(['"])([A-Za-z][A-Za-z0-9]*)\1/g)) {
      declared.set(match[2], relative(ROOT, file));
    }
  }
  declared.set(PROJECTION_REBUILD_REQUESTED, 'libs/kernel/src/runtime/operations.ts');
  return declared;
}

/** Level-three headings of the catalogue: each names one event type. */
function documentedEventTypes(): string[] {
  const text = readFileSync(CATALOGUE, 'utf8');
  return [...text.matchAll(/^###[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)].map((match) => match[1].replace(/`/g, '').trim());
}

describe('docs/events.md', () => {
  const declared = declaredEventTypes();
  const documented = documentedEventTypes();

  it('finds the event types of the code (a broken pattern must not pass silently)', () => {
    expect(declared.size).toBeGreaterThanOrEqual(25);
    expect([...declared.keys()]).toEqual(
      expect.arrayContaining(['UserCreated', 'ApiTokenCreated', 'SpacePurged', 'DeadlineReached', 'RevisionCreated']),
    );
    expect(PROJECTION_REBUILD_REQUESTED).toBe('ProjectionRebuildRequested');
  });

  it('documents every event type under a ### heading', () => {
    const missing = [...declared]
      .filter(([name]) => !documented.includes(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it('documents no event type that the code no longer has', () => {
    expect(documented.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('documents each event type once', () => {
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
  });
});
