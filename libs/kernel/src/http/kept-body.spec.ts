import { JsonText, KeptBodies, bodyJson, keepBody, serializeReply } from './kept-body';

describe('kept bodies', () => {
  it('serialises a body that is not kept as JSON.stringify does, every time', () => {
    const body = { title: 'Ä "quoted"', list: [1, null] };
    expect(serializeReply(body)).toBe(JSON.stringify(body));
    body.title = 'changed';
    expect(serializeReply(body)).toBe(JSON.stringify(body));
    expect(serializeReply(null)).toBe('null');
    expect(bodyJson(body).toString()).toBe(JSON.stringify(body));
  });

  it('sends JSON a handler serialised itself as it is', () => {
    const bytes = Buffer.from('{"items":[],"count":0}');
    expect(serializeReply(new JsonText(bytes))).toBe(bytes);
    expect(serializeReply(new JsonText('[1,2]'))).toBe('[1,2]');
  });

  it('answers a kept body from the same UTF-8 bytes, and the body can no longer be changed', () => {
    const body = keepBody({ title: 'Ä', nested: { list: [{ n: 1 }] } });
    const first = serializeReply(body);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(first.toString()).toBe(JSON.stringify(body));
    expect(serializeReply(body)).toBe(first);
    expect(bodyJson(body)).toBe(first);
    expect(() => {
      (body.nested.list[0] as { n: number }).n = 2;
    }).toThrow(TypeError);
    expect(JSON.parse(first.toString())).toEqual({ title: 'Ä', nested: { list: [{ n: 1 }] } });
  });

  it('keeps one body per document object and variant, and presents again for a new document or variant', () => {
    const bodies = new KeptBodies<{ id: string; title: string }, { id: string; title: string; role: string }>();
    let presented = 0;
    const present = (doc: { id: string; title: string }, role: string) => () => {
      presented++;
      return { id: doc.id, title: doc.title, role };
    };
    const doc = { id: 'a', title: 'One' };
    const reader = bodies.of(doc, 'read', present(doc, 'read'));
    expect(bodies.of(doc, 'read', present(doc, 'read'))).toBe(reader);
    expect(bodies.of(doc, 'admin', present(doc, 'admin'))).toEqual({ id: 'a', title: 'One', role: 'admin' });
    // a changed document is a new object (the read stores hand out a new one): its body is presented afresh
    const changed = { id: 'a', title: 'Two' };
    expect(bodies.of(changed, 'read', present(changed, 'read'))).toEqual({ id: 'a', title: 'Two', role: 'read' });
    expect(presented).toBe(3);
    expect(Object.isFrozen(reader)).toBe(true);
  });
});
