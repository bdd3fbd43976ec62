import { type Server, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Response, TestService } from '../support/service';

/**
 * Importing documents into a change request over real HTTP. A local server plays the documentation site; it is
 * admitted by FETCH_ALLOWLIST as `127.0.0.1:<port>` exactly, so the address guard still refuses the same server
 * under any other name or port, and everything it redirects to.
 */
describe('review: importing content', () => {
  let site: Server;
  let port: number;
  let service: TestService;
  let ada: { userId: string; token: string; organizationId: string };
  let bob: { userId: string; token: string; organizationId: string };

  beforeAll(async () => {
    site = createServer((request, response) => {
      const send = (type: string, body: string | Buffer) => {
        response.writeHead(200, { 'content-type': type });
        response.end(body);
      };
      switch (request.url) {
        case '/guide.md':
          return send('text/markdown; charset=utf-8', '# Guide\n\nHello, see [the site](https://example.com).\n');
        case '/page.html':
          return send(
            'text/html; charset=utf-8',
            '<html><head><title>Ignored</title><style>p{}</style></head><body><nav>Menu</nav>' +
              '<h1>Welcome</h1><p>Some <strong>bold</strong> words.</p><script>alert(1)</script></body></html>',
          );
        case '/latin1.md':
          return send('text/markdown; charset=iso-8859-1', Buffer.from('# Caf\xe9\n\nd\xe9j\xe0 vu', 'latin1'));
        case '/notes':
          return send('text/plain', 'No heading here.');
        case '/image.png':
          return send('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        case '/big.md':
          return send('text/markdown', `# Big\n\n${'x'.repeat(8192)}`);
        case '/to-localhost':
          response.writeHead(302, { location: `http://localhost:${port}/guide.md` });
          return response.end();
        case '/to-metadata':
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
          return response.end();
        case '/slow':
          return; // never answers
        default:
          response.writeHead(404);
          return response.end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
    service = await TestService.start({
      FETCH_ALLOWLIST: `127.0.0.1:${port}`,
      FETCH_TIMEOUT_MS: '500',
      FETCH_MAX_BYTES: '4096',
    });
    ada = await service.signUp('ada@example.com', { name: 'Ada', org: 'Analytical Engines' });
    bob = await service.signUp('bob@example.com', { name: 'Bob', org: "Bob's Org" });
  });

  afterAll(async () => {
    await service?.stop();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  async function changeRequest() {
    const space = await service.call('POST', `/v1/orgs/${ada.organizationId}/spaces`, {
      token: ada.token,
      body: { title: 'Docs' },
    });
    const cr = await service.call('POST', `/v1/spaces/${space.body.id}/change-requests`, {
      token: ada.token,
      body: { subject: 'Import' },
    });
    return { spaceId: space.body.id as string, cr: cr.body as { id: string; number: number } };
  }

  const importInto = (spaceId: string, cr: string, body: unknown, token = ada.token) =>
    service.call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content/import`, { token, body });

  async function pages(spaceId: string, cr: string) {
    const response = await service.call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, {
      token: ada.token,
    });
    return response.body.pages as { title: string; markdown: string }[];
  }

  const refused = (run: () => Promise<Response>, status: number, message?: RegExp) =>
    service.refused(run, status, message);

  it('imports a markdown document as a new page in a new revision: 201, Location, the counts', async () => {
    const { spaceId, cr } = await changeRequest();
    const answer = await importInto(spaceId, String(cr.number), {
      url: `http://127.0.0.1:${port}/guide.md`,
      source: 'markdown',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
    expect(answer.headers.get('location')).toMatch(new RegExp(`/spaces/${spaceId}/revisions/${answer.body.revision}$`));
    const after = await service.call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { token: ada.token });
    expect(after.body.revision).toBe(answer.body.revision);
    expect(await pages(spaceId, cr.id)).toMatchObject([
      { title: 'Guide', markdown: '# Guide\n\nHello, see [the site](https://example.com).' },
    ]);
  });

  it('converts HTML to markdown, leaving out scripts, styles and navigation', async () => {
    const { spaceId, cr } = await changeRequest();
    const answer = await importInto(spaceId, cr.id, { url: `http://127.0.0.1:${port}/page.html`, source: 'website' });
    expect(answer.status).toBe(201);
    const [page] = await pages(spaceId, cr.id);
    expect(page.title).toBe('Welcome');
    expect(page.markdown).toBe('# Welcome\n\nSome **bold** words.');
  });

  it('reads the charset the server names, and titles a page without a heading after its address', async () => {
    const { spaceId, cr } = await changeRequest();
    expect(
      (await importInto(spaceId, cr.id, { url: `http://127.0.0.1:${port}/latin1.md`, source: 'markdown' })).status,
    ).toBe(201);
    expect(
      (await importInto(spaceId, cr.id, { url: `http://127.0.0.1:${port}/notes`, source: 'markdown' })).status,
    ).toBe(201);
    expect((await pages(spaceId, cr.id)).map((page) => [page.title, page.markdown])).toEqual([
      ['Café', '# Café\n\ndéjà vu'],
      ['notes', 'No heading here.'],
    ]);
  });

  it('refuses addresses the service must not reach, with a 400 naming the cause, and imports nothing', async () => {
    const { spaceId, cr } = await changeRequest();
    const attempt = (url: string, message: RegExp, source = 'markdown') =>
      refused(() => importInto(spaceId, cr.id, { url, source }), 400, message);
    await attempt(`http://127.0.0.1:${port + 1 === 65536 ? port - 1 : port + 1}/guide.md`, /loopback/);
    await attempt(`http://localhost:${port}/guide.md`, /loopback/);
    await attempt('http://169.254.169.254/latest/meta-data/', /link-local.*metadata/);
    await attempt('http://10.0.0.8/doc.md', /private/);
    await attempt('http://[::1]/doc.md', /loopback/);
    await attempt('file:///etc/passwd', /Only http and https/);
    await attempt(`http://127.0.0.1:${port}/to-localhost`, /redirected elsewhere: localhost is not public/);
    await attempt(`http://127.0.0.1:${port}/to-metadata`, /redirected elsewhere: 169\.254\.169\.254/);
    await attempt(`http://127.0.0.1:${port}/slow`, /did not answer within 500 ms/);
    await attempt(`http://127.0.0.1:${port}/big.md`, /larger than 4 KB/);
    await attempt(`http://127.0.0.1:${port}/image.png`, /image\/png, not markdown or HTML/);
    await attempt(`http://127.0.0.1:${port}/missing.md`, /answered 404/);
    await attempt(`http://127.0.0.1:${port}/guide.md`, /docx cannot be imported/, 'docx');
    await refused(() => importInto(spaceId, cr.id, { url: `http://127.0.0.1:${port}/guide.md` }), 400, /source/);
    await refused(
      () => importInto(spaceId, cr.id, { url: 'not a url', source: 'markdown' }),
      400,
      /not a valid web address/,
    );
    expect(await pages(spaceId, cr.id)).toEqual([]);
  });

  it('needs the edit role; another organization sees nothing (404)', async () => {
    const { spaceId, cr } = await changeRequest();
    const body = { url: `http://127.0.0.1:${port}/guide.md`, source: 'markdown' };
    await refused(() => importInto(spaceId, cr.id, body, bob.token), 404);
    const reader = await service.signUp('rita@example.com', { name: 'Rita' });
    await service.call('POST', `/v1/orgs/${ada.organizationId}/invites`, {
      token: ada.token,
      body: { emails: ['rita@example.com'], role: 'read' },
    });
    await refused(() => importInto(spaceId, cr.id, body, reader.token), 403, /edit role/);
    await refused(() => importInto(spaceId, 'no-such-change-request', body), 404);
  });
});
