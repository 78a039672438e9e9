// A bench's Server-Sent Events client: one connection per subscriber (no agent), its frames
// split on blank lines and handed to `onFrame(frame, receivedAt, connected)` with the time the
// chunk arrived. `sub.ready` settles when the stream says `: connected` (through `connected`)
// or fails to open; `sub.ended` is set when the service closes it, `sub.error` on a socket error.
const http = require('node:http');
const { performance } = require('node:perf_hooks');

function openEventStream(sub, { port, path, tenant, onFrame, what = 'the stream' }) {
  sub.ready = new Promise((resolve, reject) => {
    const req = http.get(
      {
        agent: false,
        host: '127.0.0.1',
        port,
        path,
        headers: { 'x-tenant-id': tenant, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200 || !/^text\/event-stream/.test(res.headers['content-type'])) {
          res.resume();
          reject(new Error(`${what} answered ${res.statusCode} ${res.headers['content-type']}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          const at = performance.now();
          buffer += chunk;
          let start = 0;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
            onFrame(buffer.slice(start, end), at, resolve);
            start = end + 2;
          }
          buffer = buffer.slice(start);
        });
        res.on('close', () => {
          if (!sub.closing) sub.ended = true;
        });
      },
    );
    req.on('error', (error) => {
      if (sub.closing) return;
      sub.error = error;
      reject(error);
    });
    sub.req = req;
  });
  return sub;
}

module.exports = { openEventStream };
