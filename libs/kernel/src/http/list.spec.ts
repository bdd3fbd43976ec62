import { listJson } from './list';

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
