// CPU time a running server spends per request: the figure behind docs/performance.md's
// "where the time goes". Sends `amount` requests with autocannon (8 connections) and reads the
// server's user + system CPU time from /proc/<pid>/stat before and after (Linux only).
// Usage: node bench/cpu-per-request.js <port> <pid> <path> [tenant] [amount]
//   <path> may hold RND, replaced by a random id from 1 to 299 on every request.
//   BENCH_TOKEN=<jwt> sends it as a Bearer token (a service with AUTH_MODE=jwt).
const autocannon = require('autocannon');
const { readFileSync } = require('node:fs');

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const [port, pid, path, tenant = 'demo', amount = '3000'] = process.argv.slice(2);
  if (!port || !pid || !path) {
    console.error('Usage: node bench/cpu-per-request.js <port> <pid> <path> [tenant] [amount]');
    process.exit(2);
  }
  for (const round of ['warm-up', 'measured']) {
    const before = cpuMs(pid);
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 8,
      amount: Number(amount),
      headers: {
        'x-tenant-id': tenant,
        ...(process.env.BENCH_TOKEN ? { authorization: `Bearer ${process.env.BENCH_TOKEN}` } : {}),
      },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: path.replace('RND', String(1 + Math.floor(Math.random() * 299))),
          }),
        },
      ],
    });
    const perRequest = (cpuMs(pid) - before) / Number(amount);
    console.log(
      `${round}: ${path} ${Math.round(result.requests.average)} req/s, ` +
        `server CPU ${perRequest.toFixed(3)} ms/request, non-2xx ${result.non2xx}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
