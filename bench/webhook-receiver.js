'use strict';
/**
 * The receiver of bench/webhooks.js, in its own process: answers every POST with 204 at once, counts deliveries
 * per path (one path per webhook) and checks that each path receives positions in increasing order.
 * `GET /stats` answers `{counts: {path: n}, outOfOrder}`. Prints `listening <port>` when ready.
 */
const http = require('node:http');

const counts = {};
const last = {};
let outOfOrder = 0;

const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ counts, outOfOrder }));
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const position = BigInt(JSON.parse(Buffer.concat(chunks).toString('utf8')).position);
    const path = request.url;
    if (last[path] !== undefined && position <= last[path]) outOfOrder++;
    last[path] = position;
    counts[path] = (counts[path] ?? 0) + 1;
    response.writeHead(204).end();
  });
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
