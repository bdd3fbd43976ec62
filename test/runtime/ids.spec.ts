import { deterministicEventId, newEventId, newId } from '@app/kernel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('makes event ids that are version-7 UUIDs, each sorting after the one made before it', () => {
    const ids = Array.from({ length: 5000 }, () => newEventId());
    for (const id of ids) expect(UUID.exec(id)?.[1]).toBe('7');
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  it('puts the time of its making in the first 48 bits of an event id', () => {
    const before = Date.now();
    const id = newEventId();
    const after = Date.now();
    const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after);
  });

  it('derives the same UUID-shaped id from the same key, and different ones from different keys', () => {
    expect(deterministicEventId('command-1:space-a:0')).toBe(deterministicEventId('command-1:space-a:0'));
    expect(deterministicEventId('command-1:space-a:0')).not.toBe(deterministicEventId('command-1:space-a:1'));
    expect(UUID.exec(deterministicEventId('k'))?.[1]).toBe('5');
  });

  it('makes resource ids of 20 URL-safe characters', () => {
    expect(newId()).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(newId()).not.toBe(newId());
  });
});
