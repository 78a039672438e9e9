import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { DriverRegistry, readManifest } from '../device-drivers/driver-registry';
import { describeManifestErrors } from '../device-drivers/manifest.validator';
import { err, out, readCliConfig, runCli, UsageError } from './cli-support';

const USAGE = `Usage: npm run drivers -- <command>

Commands:
  list                      The drivers found in drivers/ and DEVICE_DRIVERS_PATH (and the skipped ones).
  validate <manifest.json>  Check a manifest against the schema: every violation is listed; exit 1 if invalid.`;

runCli(USAGE, async () => {
  const { positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    strict: true,
  });
  const [command, file] = positionals;
  switch (command) {
    case 'list': {
      const config = readCliConfig();
      const registry = await DriverRegistry.load(config.DEVICE_DRIVERS_PATH);
      for (const d of registry.list()) {
        const m = d.manifest;
        const format = typeof m.format === 'string' ? m.format : '-';
        out(
          `${d.name.padEnd(20)} ${m.transport.padEnd(5)} ${format.padEnd(10)} ${m.vendor} ${m.model} (v${m.version}, ${d.source})`,
        );
      }
      for (const s of registry.skipped) {
        err(`skipped ${s.name} (${s.path}): ${describeManifestErrors(s.errors)}`);
      }
      return 0;
    }
    case 'validate': {
      if (!file) throw new UsageError('validate needs the path of a manifest.json');
      const result = await readManifest(file);
      if (result.valid) {
        out(
          `${file}: valid (${result.manifest.vendor} ${result.manifest.model}, transport ${result.manifest.transport})`,
        );
        return 0;
      }
      out(`${file}: invalid`);
      for (const e of result.errors) out(`  ${e.path || '/'}: ${e.message}`);
      return 1;
    }
    case undefined:
    case 'help':
      out(USAGE);
      return 0;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
});
