import { type RecordedEvent } from '@app/kernel';
import { siteSpaceCleanupProcess as process } from './site-space-cleanup.process';

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
  return { state, commands };
}

describe('site space clean-up process', () => {
  const addedA = recorded('SiteSpaceAdded', { siteId: 's1', siteSpaceId: 'a', spaceId: 'x' });
  const sectionB = recorded('SiteSectionAdded', { siteId: 's2', first: { siteSpaceId: 'b', spaceId: 'x' } });

  it('follows one space across sites, from site spaces and sections alike', () => {
    expect(process.instanceOf(addedA)).toBe('x');
    expect(process.instanceOf(sectionB)).toBe('x');
    expect(run([addedA, sectionB]).state.uses).toEqual([
      { siteId: 's1', siteSpaceId: 'a' },
      { siteId: 's2', siteSpaceId: 'b' },
    ]);
  });

  it('removes every site space of a deleted or transferred space', () => {
    for (const [type, reason] of [
      ['SpaceDeleted', 'space-deleted'],
      ['SpaceTransferred', 'space-transferred'],
    ] as const) {
      const { commands, state } = run([addedA, sectionB, recorded(type, { spaceId: 'x' })]);
      expect(commands).toEqual([
        { type: 'RemoveSiteSpace', data: { siteId: 's1', siteSpaceId: 'a', spaceId: 'x', reason } },
        { type: 'RemoveSiteSpace', data: { siteId: 's2', siteSpaceId: 'b', spaceId: 'x', reason } },
      ]);
      expect(state.uses).toEqual([]);
    }
  });

  it('takes out at once a site space added while the space is deleted, until it is restored', () => {
    const raced = run([recorded('SpaceDeleted', { spaceId: 'x' }), addedA]);
    expect(raced.commands).toEqual([
      { type: 'RemoveSiteSpace', data: { siteId: 's1', siteSpaceId: 'a', spaceId: 'x', reason: 'space-deleted' } },
    ]);
    const restored = run([
      recorded('SpaceDeleted', { spaceId: 'x' }),
      recorded('SpaceRestored', { spaceId: 'x' }),
      addedA,
    ]);
    expect(restored.commands).toEqual([]);
    expect(restored.state.uses).toHaveLength(1);
  });
});
