import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PinoLogger } from 'nestjs-pino';
import { DataSource, Repository } from 'typeorm';
import { CONTROL_CONNECTION } from '../common/config/config.tokens';
import { formatInstant } from '../common/time';
import { TenantContext } from '../tenancy/tenant-context';
import { AttendanceImporter } from './attendance-importer';
import { DEVICE_SERIAL_PATTERN } from './device-admin';
import { deviceNotRegistered } from './device-drivers.errors';
import { canParse, DriverRegistry } from './driver-registry';
import { Device } from './entities/device.entity';

/** A clock's stamp of the last log it sent: a counter (or a Unix time) as digits. */
const STAMP_PATTERN = /^\d{1,20}$/;

/**
 * The ADMS / iClock push protocol of ZKTeco clocks: the device is known by its serial (SN),
 * registered to a tenant and an http driver (npm run devices); its ATTLOG lines end in
 * import_asistencia of that tenant. Unknown serials are refused (403) and logged.
 */
@Injectable()
export class DevicesService {
  private readonly devices: Repository<Device>;

  constructor(
    @InjectDataSource(CONTROL_CONNECTION) control: DataSource,
    @Inject(DriverRegistry) private readonly registry: DriverRegistry,
    private readonly importer: AttendanceImporter,
    private readonly context: TenantContext,
    private readonly logger: PinoLogger,
  ) {
    this.devices = control.getRepository(Device);
    this.logger.setContext('iClock');
  }

  /** GET /iclock/cdata?SN=...&options=all: the options a clock asks for when it starts. */
  async handshake(serial: unknown): Promise<string> {
    const device = await this.device(serial);
    return [
      `GET OPTION FROM: ${device.serial}`,
      // the device sends the logs after this stamp: nothing is asked twice after a restart
      `ATTLOGStamp=${device.attlogStamp ?? 'None'}`,
      'OPERLOGStamp=9999',
      'ATTPHOTOStamp=None',
      'ErrorDelay=30',
      'Delay=10',
      'TransTimes=00:00;14:05',
      'TransInterval=1',
      'TransFlag=TransData AttLog',
      `TimeZone=${utcOffsetHours(device.tenant.timeZone)}`,
      'Realtime=1',
      'Encrypt=None',
    ].join('\n');
  }

  /**
   * POST /iclock/cdata?SN=...&table=ATTLOG&Stamp=...: the clock pushes log lines. Answered
   * "OK: <lines>" once they are stored, so a failure (tenant database down: 503) makes the
   * clock send them again. Bad lines and unknown documents are logged, not refused: the clock
   * cannot correct them, and refusing would make it resend them forever.
   */
  async push(serial: unknown, table: unknown, stamp: unknown, body: string): Promise<string> {
    const device = await this.device(serial);
    if (table !== 'ATTLOG') return 'OK'; // operation logs, photos ...: acknowledged, not kept
    const driver = this.registry.get(device.driver);
    if (!driver || !canParse(driver)) {
      this.logger.error(
        { serial: device.serial, driver: device.driver },
        'the driver of a registered device is not loaded',
      );
      throw deviceNotRegistered(device.serial);
    }
    const summary = await this.context.run(device.tenant.slug, () =>
      this.importer.importExport([body], driver, `iclock:${device.serial}`),
    );
    if (typeof stamp === 'string' && STAMP_PATTERN.test(stamp)) {
      await this.devices.update({ serial: device.serial }, { attlogStamp: stamp });
    }
    const log = { serial: device.serial, tenant: device.tenant.slug, ...summary };
    if (summary.badLineCount > 0 || summary.unknownDocumentPunches > 0) {
      this.logger.warn(log, 'pushed attendance lines were not all stored');
    } else {
      this.logger.info(log, 'pushed attendance lines stored');
    }
    return `OK: ${summary.read}`;
  }

  /** GET /iclock/getrequest?SN=...: the commands waiting for the device (none). */
  async commands(serial: unknown): Promise<string> {
    await this.device(serial);
    return 'OK';
  }

  private async device(serial: unknown): Promise<Device> {
    const sn =
      typeof serial === 'string' && DEVICE_SERIAL_PATTERN.test(serial) ? serial : undefined;
    const device = sn
      ? await this.devices.findOne({ where: { serial: sn }, relations: { tenant: true } })
      : null;
    if (!device) {
      this.logger.warn({ serial }, 'refused a device that is not registered');
      throw deviceNotRegistered(typeof serial === 'string' ? serial : '');
    }
    await this.devices.update({ serial: device.serial }, { lastSeenAt: new Date() });
    return device;
  }
}

/** The UTC offset of a time zone now, in hours (-5, 5.5), as the clock's TimeZone option. */
export function utcOffsetHours(timeZone: string, now = new Date()): number {
  const offset = formatInstant(now, timeZone).slice(-6); // "+05:30", "-05:00"
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) + Number(offset.slice(4, 6)) / 60);
}
