// The webhook receiver of the benches: node:http on 127.0.0.1, every request answered 204 at
// once. Each one is recorded with the time its body had arrived (performance.now(), the clock
// the bench's requests are timed on), its Standard Webhooks headers and its body as text: the
// bodies are parsed and the signatures checked afterwards, off the measured path.
const { Buffer } = require('node:buffer');
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const HOST = '127.0.0.1';

/**
 * Starts a receiver. `received` lists the requests in order of arrival ({at, id, timestamp,
 * signature, body, method, path}); `ids` holds the distinct webhook-id headers seen.
 */
function startReceiver() {
  const received = [];
  const ids = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const id = req.headers['webhook-id'];
      received.push({
        at,
        id,
        timestamp: req.headers['webhook-timestamp'],
        signature: req.headers['webhook-signature'],
        body: Buffer.concat(chunks).toString('utf8'),
        method: req.method,
        path: req.url,
      });
      if (id !== undefined) ids.add(id);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      resolve({
        url: `http://${HOST}:${port}/hooks`,
        received,
        ids,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

module.exports = { startReceiver };
