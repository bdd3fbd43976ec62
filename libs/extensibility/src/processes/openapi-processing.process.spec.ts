import { type RecordedEvent } from '@app/kernel';
import { openApiProcessingProcess as process } from './openapi-processing.process';

const recorded = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as RecordedEvent;

function run(events: RecordedEvent[]) {
  let state = process.initialState();
  const commands = [];
  for (const event of events) {
    for (const decided of process.when(state, event)) {
      state = process.evolve(state, decided);
      commands.push(...(process.commands?.(state, decided) ?? []));
    }
  }
  return commands;
}

describe('OpenAPI processing process', () => {
  const ids = { organizationId: 'org-1', slug: 'petstore', specId: 'spec-1' };
  const source = { kind: 'url', url: 'https://example.com/a.yaml' };

  it('follows one spec by its id', () => {
    expect(process.instanceOf(recorded('OpenAPISpecCreated', { ...ids, sourceId: 's1', source }))).toBe('spec-1');
  });

  it('asks for every new source to be processed, each under its own id', () => {
    expect(
      run([
        recorded('OpenAPISpecCreated', { ...ids, sourceId: 's1', source, createdAt: 'x' }),
        recorded('OpenAPISpecSourceChanged', { ...ids, sourceId: 's2', source, changedAt: 'y' }),
      ]),
    ).toEqual([
      { type: 'ProcessOpenAPISpecSource', data: { ...ids, sourceId: 's1' } },
      { type: 'ProcessOpenAPISpecSource', data: { ...ids, sourceId: 's2' } },
    ]);
  });

  it('handles only the events that bring a source', () => {
    expect(process.handles).toEqual(['OpenAPISpecCreated', 'OpenAPISpecSourceChanged']);
  });
});
