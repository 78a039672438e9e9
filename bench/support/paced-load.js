// An open-loop load at a fixed rate: requests leave on a regular schedule whether or not the
// earlier ones were answered, so latency includes any queueing the server builds up. (The
// rate limit of autocannon sends each second's share in a burst, which measures a saturated
// server again.)
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { setInterval, clearInterval } = require('node:timers');
const { percentile } = require('./requests');

/** Sends `rate` requests per second for `durationS` seconds; resolves with latency figures. */
function pacedLoad({ port, rate, durationS, request }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(rate * durationS);
  const latencies = [];
  let sent = 0;
  let done = 0;
  let errors = 0;
  return new Promise((resolve) => {
    const finish = () => {
      if (done < total || sent < total) return;
      clearInterval(timer);
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const round = (ms) => Math.round(ms * 10) / 10;
      resolve({
        rps: total / durationS,
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        errors,
      });
    };
    const fire = () => {
      const { path, headers } = request();
      const started = performance.now();
      const req = http.get({ agent, host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (res.statusCode >= 300) errors += 1;
          done += 1;
          finish();
        });
      });
      req.on('error', () => {
        errors += 1;
        done += 1;
        finish();
      });
    };
    const start = performance.now();
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      while (sent < due) {
        sent += 1;
        fire();
      }
    }, 1);
  });
}

module.exports = { pacedLoad };
