import 'reflect-metadata';
import { DeviceAdmin } from '../device-drivers/device-admin';
import { DriverRegistry } from '../device-drivers/driver-registry';
import { defineCli, out, UsageError } from './cli-support';

const USAGE = `Usage: npm run devices -- <command>

Commands:
  register <serial> --tenant <slug> --driver <name>   A push clock (ADMS/iClock) of this tenant, read with this driver.
  list                                                The registered clocks.
  unregister <serial>                                 Its pushes are refused from now on.`;

defineCli({
  usage: USAGE,
  options: { tenant: { type: 'string' }, driver: { type: 'string' } },
  run: ({ values, positionals, withApp }) => {
    const [command, serial] = positionals;
    if (!['register', 'list', 'unregister'].includes(command))
      throw new UsageError(`Unknown command "${command}"`);
    if (command !== 'list' && !serial) throw new UsageError(`${command} needs a device serial`);
    if (command === 'register' && (!values.tenant || !values.driver)) {
      throw new UsageError('register needs --tenant <slug> and --driver <name>');
    }
    return withApp(async (app) => {
      const admin = new DeviceAdmin(app.control, app.get(DriverRegistry));
      if (command === 'register') {
        const device = await admin.register(serial, values.tenant!, values.driver!);
        out(
          `Device ${device.serial} registered to tenant ${values.tenant} with driver ${device.driver}`,
        );
      } else if (command === 'unregister') {
        out(
          (await admin.unregister(serial))
            ? `Device ${serial} unregistered`
            : `Device ${serial} was not registered`,
        );
      } else {
        for (const d of await admin.list()) {
          out(
            `${d.serial.padEnd(24)} ${d.tenant.slug.padEnd(20)} ${d.driver.padEnd(16)} last seen ${d.lastSeenAt?.toISOString() ?? 'never'}`,
          );
        }
      }
      return 0;
    });
  },
});
