const autocannon = require('autocannon');
const { readFileSync } = require('node:fs');
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const [port, pid, path, tenant] = process.argv.slice(2);
  for (let round = 0; round < 2; round++) {
    const before = cpu(pid);
    const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 8, amount: 3000, headers: { 'x-tenant-id': tenant }, requests: [{ setupRequest: (req) => ({ ...req, path: path.replace('RND', String(1 + Math.floor(Math.random() * 299))) }) }] });
    const used = cpu(pid) - before;
    console.log(`${path}: ${r.requests.average} req/s, server CPU ${(used / 3000).toFixed(3)} ms/request, non2xx ${r.non2xx}`);
  }
})();
