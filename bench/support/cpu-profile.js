// Summarises a V8 CPU profile (node --cpu-prof): self time by package and by function.
const { readFileSync } = require('node:fs');

/** node_modules/<package> (scoped too), node's own code, or the project's dist/ code. */
function owner(url) {
  if (!url) return '(native / V8)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node (core)';
  const dist = url.indexOf('/dist/');
  return dist !== -1 ? `project: ${url.slice(dist + 6).split('/')[0]}/` : url;
}

function summariseProfile(path, top = 20) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const total = profile.endTime - profile.startTime; // microseconds
  const samples = profile.samples.length;
  const perSample = total / samples;
  const byOwner = new Map();
  const byFunction = new Map();
  let idle = 0;
  for (const node of profile.nodes) {
    const self = node.hitCount * perSample;
    const { functionName, url, lineNumber } = node.callFrame;
    if (
      functionName === '(idle)' ||
      functionName === '(program)' ||
      functionName === '(garbage collector)'
    ) {
      if (functionName === '(idle)') idle += self;
      else byOwner.set(functionName, (byOwner.get(functionName) ?? 0) + self);
      continue;
    }
    const who = owner(url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + self);
    const key = `${functionName || '(anonymous)'}  ${who}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + self);
  }
  const busy = total - idle;
  const pct = (us) => `${((100 * us) / busy).toFixed(1)}%`;
  const table = (title, shares, name) => [
    `| ${title} | share |`,
    '|---|---|',
    ...[...shares]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `| ${name(k)} | ${pct(v)} |`),
  ];
  const lines = [
    `Busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s; shares of the busy time.`,
    '',
    ...table('self time by package', byOwner, (k) => k),
    '',
    ...table('self time by function', byFunction, (k) => `\`${k}\``),
  ];
  return lines.join('\n');
}

module.exports = { summariseProfile };

if (require.main === module)
  console.log(summariseProfile(process.argv[2], Number(process.argv[3] ?? 25)));
