import { KeptLists, listJson } from './list';

describe('listJson', () => {
  const items = [
    { id: 'a', title: 'Ä "quoted"' },
    { id: 'b', nested: { list: [1, null] } },
  ];

  it('gives what JSON.stringify gives for the envelope with its items in place', () => {
    const texts = items.map((item) => Buffer.from(JSON.stringify(item)));
    for (const page of [
      { items, count: 2 },
      { items, count: 12, next: { page: 'cursor.abc-_' } },
      { items: [], count: 0 },
    ]) {
      expect(listJson(page, page.items.length === 0 ? [] : texts).toString()).toBe(JSON.stringify(page));
    }
  });

  it('keeps the order of the envelope fields, whichever comes first', () => {
    const page = { count: 2, next: { page: 'p' }, items };
    expect(
      listJson(
        page,
        items.map((item) => Buffer.from(JSON.stringify(item))),
      ).toString(),
    ).toBe(JSON.stringify(page));
  });
});

describe('KeptLists', () => {
  const item = (text: string) => Buffer.from(JSON.stringify({ id: text }));

  it('answers a page asked for again with the same bytes, and joins afresh when anything on it changed', () => {
    const lists = new KeptLists();
    const a = item('a');
    const b = item('b');
    const page = { items: [{}, {}], count: 2 };
    const first = lists.join('key', page, [a, b]);
    expect(JSON.parse(first.toString())).toEqual({ items: [{ id: 'a' }, { id: 'b' }], count: 2 });
    expect(lists.join('key', { ...page }, [a, b])).toBe(first);
    // an item with new bytes (a changed space), the same text notwithstanding
    const again = lists.join('key', page, [a, item('b')]);
    expect(again).not.toBe(first);
    expect(again.toString()).toBe(first.toString());
    // another count or cursor, another order
    expect(lists.join('key', { ...page, count: 3 }, [a, b]).toString()).toContain('"count":3');
    expect(JSON.parse(lists.join('key', page, [b, a]).toString()).items).toEqual([{ id: 'b' }, { id: 'a' }]);
    expect(JSON.parse(lists.join('key', { ...page, next: { page: 'p2' } }, [a, b]).toString()).next).toEqual({
      page: 'p2',
    });
  });
});
