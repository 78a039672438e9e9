import { DataSource, Repository } from 'typeorm';
import { Tenant } from '../tenancy/entities/tenant.entity';
import { AdminRequestError } from '../common/errors/admin-request-error';
import { canParse, type DriverRegistry } from './driver-registry';
import { describeManifestErrors } from './manifest.validator';
import { Device, DEVICE_SERIAL_PATTERN } from './entities/device.entity';

/** Registration of push clocks to tenants (npm run devices). Idempotent. */
export class DeviceAdmin {
  private readonly devices: Repository<Device>;
  private readonly tenants: Repository<Tenant>;

  constructor(
    control: DataSource,
    private readonly registry: DriverRegistry,
  ) {
    this.devices = control.getRepository(Device);
    this.tenants = control.getRepository(Tenant);
  }

  async register(serial: string, slug: string, driverName: string): Promise<Device> {
    if (!DEVICE_SERIAL_PATTERN.test(serial)) {
      throw new AdminRequestError(
        `"${serial}" is not a device serial (letters, digits, _ and -, at most 64)`,
      );
    }
    const tenant = await this.tenants.findOneBy({ slug });
    if (!tenant) throw new AdminRequestError(`Tenant "${slug}" does not exist`);
    const driver = this.registry.get(driverName);
    if (!driver) {
      throw new AdminRequestError(
        `Unknown driver "${driverName}": one of ${this.registry.names().join(', ')}`,
      );
    }
    if (driver.manifest.transport !== 'http') {
      throw new AdminRequestError(
        `Driver "${driverName}" has transport ${driver.manifest.transport}, not http (push)`,
      );
    }
    if (!canParse(driver)) {
      throw new AdminRequestError(
        `Driver "${driverName}" cannot import records: ${describeManifestErrors(driver.problems)}`,
      );
    }
    // a new registration starts from the clock's first log: the stamp belonged to the old one
    await this.devices.upsert(
      { serial, tenantId: tenant.id, driver: driverName, attlogStamp: null },
      ['serial'],
    );
    return (await this.devices.findOneBy({ serial }))!;
  }

  list(): Promise<Device[]> {
    return this.devices.find({ relations: { tenant: true }, order: { serial: 'ASC' } });
  }

  async unregister(serial: string): Promise<boolean> {
    return ((await this.devices.delete({ serial })).affected ?? 0) > 0;
  }
}
