'use strict';
// The baseline: a raw node:http JSON server doing the least a real route must do (route, parse, answer ~1 KB).
const http = require('node:http');

const organization = {
  object: 'organization',
  id: 'baseline0000000000000',
  title: 'Baseline organization',
  createdAt: new Date().toISOString(),
  emailDomains: [],
  type: 'business',
  inviteLinks: false,
  plan: 'free',
  trial: { status: 'notapplicable' },
  sso: false,
  ai: false,
  urls: { location: 'http://localhost/v1/orgs/baseline0000000000000', app: 'http://localhost/o/baseline0000000000000' },
  permissions: {
    view: true,
    admin: true,
    ownTeam: true,
    createContent: true,
    createOpenAPISpec: true,
    ingestConversations: true,
    viewBilling: true,
    listMembers: true,
    listTeams: true,
    listIntegrations: true,
    listInstallations: true,
    installIntegration: true,
  },
};

const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(organization));
    return;
  }
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    try {
      const changes = JSON.parse(body);
      if (typeof changes.title !== 'string') throw new Error('title');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...organization, title: changes.title }));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":{"code":400,"message":"bad body"}}');
    }
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
