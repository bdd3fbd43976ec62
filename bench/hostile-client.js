'use strict';
/**
 * A hostile client for bench/run.js, in its own process so that its work does not slow the measuring client.
 *
 *   node bench/hostile-client.js keys <url> <token>   POSTs an 80,000-key body (about 870 KB) in a loop
 *   node bench/hostile-client.js slow <url> <count>   holds <count> connections that sent headers and part of a body
 *
 * Prints `ready` once the attack runs, then a line of counts every second; stops on SIGTERM.
 */
const { connect } = require('node:net');

const [mode, url, arg] = process.argv.slice(2);

async function keys(token) {
  const body = JSON.stringify(Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, 1])));
  let sent = 0;
  let refused = 0;
  setInterval(() => console.log(`sent ${sent} refused ${refused}`), 1000).unref();
  console.log('ready');
  for (;;) {
    const response = await fetch(`${url}/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    sent++;
    if (response.status === 400) refused++;
  }
}

async function slow(count) {
  const { hostname, port } = new URL(url);
  const open = new Set();
  let closed = 0;
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(socket);
      closed++;
    });
    socket.write(
      'POST /v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    socket.resume();
    open.add(socket);
    if (i % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`ready ${open.size} open`);
  setInterval(() => console.log(`open ${open.size} closed ${closed}`), 1000);
}

process.on('SIGTERM', () => process.exit(0));
(mode === 'keys' ? keys(arg) : slow(Number(arg))).catch((error) => {
  console.error(error);
  process.exit(1);
});
