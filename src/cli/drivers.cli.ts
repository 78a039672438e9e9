import 'reflect-metadata';
import { DriverRegistry, readManifest } from '../device-drivers/driver-registry';
import { describeManifestErrors } from '../device-drivers/manifest.validator';
import { defineCli, err, out, UsageError } from './cli-support';

const USAGE = `Usage: npm run drivers -- <command>

Commands:
  list                      The drivers found in drivers/ and DEVICE_DRIVERS_PATH: those that cannot import
                            are marked, with why; the skipped (invalid) ones on stderr.
  validate <manifest.json>  Check a manifest against the schema: every violation is listed; exit 1 if invalid.
                            Warnings (a record format assumed, why it cannot import) follow "valid".`;

defineCli({
  usage: USAGE,
  // the drivers are files: no database, no application context
  run: async ({ positionals, config }) => {
    const [command, file] = positionals;
    switch (command) {
      case 'list': {
        const registry = await DriverRegistry.load(config.DEVICE_DRIVERS_PATH);
        for (const d of registry.list()) {
          const m = d.manifest;
          const format = typeof m.format === 'string' ? m.format : '-';
          out(
            `${d.name.padEnd(20)} ${m.transport.padEnd(5)} ${format.padEnd(10)} ${m.vendor} ${m.model} (v${m.version}, ${d.source})${d.problems.length > 0 ? ' CANNOT IMPORT' : ''}`,
          );
          for (const w of d.warnings) out(`  warning ${w.path || '/'}: ${w.message}`);
        }
        for (const s of registry.skipped) {
          err(`skipped ${s.name} (${s.path}): ${describeManifestErrors(s.errors)}`);
        }
        return 0;
      }
      case 'validate': {
        if (!file) throw new UsageError('validate needs the path of a manifest.json');
        const result = await readManifest(file);
        const warnings = () => {
          for (const w of result.warnings) out(`  warning ${w.path || '/'}: ${w.message}`);
        };
        if (result.valid) {
          out(
            `${file}: valid (${result.manifest.vendor} ${result.manifest.model}, transport ${result.manifest.transport})${result.importable ? '' : ', but it cannot import records'}`,
          );
          warnings();
          return 0;
        }
        out(`${file}: invalid`);
        for (const e of result.errors) out(`  ${e.path || '/'}: ${e.message}`);
        warnings();
        return 1;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  },
});
