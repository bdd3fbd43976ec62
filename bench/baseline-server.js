'use strict';
/**
 * The baseline: a raw node:http server in its own process that answers every request with the same JSON body as
 * the service route it stands beside (read from BASELINE_BODY_FILE), after reading the request body if there is
 * one. No routing, no parsing: what any HTTP server must do at the least to give that answer on this machine.
 */
const http = require('node:http');
const { readFileSync } = require('node:fs');

const body = Buffer.from(readFileSync(process.env.BASELINE_BODY_FILE, 'utf8'));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = http.createServer((request, response) => {
  const answer = () => {
    response.writeHead(200, headers);
    response.end(body);
  };
  if (request.method === 'GET' || request.method === 'HEAD') return answer();
  request.on('data', () => undefined);
  request.on('end', answer);
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
