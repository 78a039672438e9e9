import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { CONTROL_CONNECTION } from '../common/config/config.tokens';
import { AppLogger, type Logger } from '../common/logging/logger';
import { TenantContext } from '../tenancy/tenant-context';
import { AttendanceImporter } from './attendance-importer';
import {
  deviceNotRegistered,
  deviceSerialMissing,
  pushDriverUnavailable,
} from './device-drivers.errors';
import { canParse, DriverRegistry } from './driver-registry';
import { Device, DEVICE_SERIAL_PATTERN } from './entities/device.entity';
import { pushTimeZone, serverTimeLine, utcOffsetMinutes } from './iclock-time';

/** A clock's stamp of the last log it sent: a counter (or a Unix time) as digits. */
const STAMP_PATTERN = /^\d{1,20}$/;

/** At most this many command results of one devicecmd request are logged one by one. */
const MAX_LOGGED_RESULTS = 100;

/**
 * The ADMS / iClock push protocol of ZKTeco clocks: the device is known by its serial (SN),
 * registered to a tenant and an http driver (npm run devices); its ATTLOG lines end in
 * import_asistencia of that tenant. Unknown serials are refused (403) and logged; a request
 * without a serial is 400. Every request of a registered clock updates its last-seen time.
 */
@Injectable()
export class DevicesService {
  private readonly devices: Repository<Device>;
  private readonly logger: Logger;

  constructor(
    @InjectDataSource(CONTROL_CONNECTION) control: DataSource,
    @Inject(DriverRegistry) private readonly registry: DriverRegistry,
    private readonly importer: AttendanceImporter,
    private readonly context: TenantContext,
    logger: AppLogger,
  ) {
    this.devices = control.getRepository(Device);
    this.logger = logger.child('iClock');
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
      `TimeZone=${pushTimeZone(utcOffsetMinutes(device.tenant.timeZone))}`,
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
      // the clock keeps its lines on a 503 and sends them again: nothing is lost meanwhile
      const problems = driver?.problems ?? [];
      this.logger.error(
        { serial: device.serial, driver: device.driver, loaded: driver !== undefined, problems },
        driver
          ? 'the driver of a registered device cannot import: its pushes are answered 503'
          : 'the driver of a registered device is not loaded: its pushes are answered 503',
      );
      throw pushDriverUnavailable(device.serial, device.driver, problems);
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

  /** GET /iclock/cdata?SN=...&type=time: the tenant's local time, for the clock to set its own. */
  async serverTime(serial: unknown): Promise<string> {
    const device = await this.device(serial);
    return serverTimeLine(device.tenant.timeZone);
  }

  /** GET /iclock/ping?SN=...: the heartbeat a clock sends during a long upload. */
  async ping(serial: unknown): Promise<string> {
    await this.device(serial);
    return 'OK';
  }

  /**
   * POST /iclock/devicecmd?SN=...: the clock reports the results of commands it ran, a line
   * each (`ID=1&Return=0&CMD=DATA`). Logged; the service queues no commands of its own.
   */
  async commandResults(serial: unknown, body: string): Promise<string> {
    const device = await this.device(serial);
    const results = body
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .map((line) => Object.fromEntries(new URLSearchParams(line.trim())));
    this.logger.info(
      {
        serial: device.serial,
        tenant: device.tenant.slug,
        count: results.length,
        results: results.slice(0, MAX_LOGGED_RESULTS),
      },
      'device command results',
    );
    return 'OK';
  }

  private async device(serial: unknown): Promise<Device> {
    // no SN, an empty one, or SN given twice: there is no serial to look up
    if (typeof serial !== 'string' || serial === '') {
      this.logger.warn({ serial }, 'refused a device request without a serial (SN)');
      throw deviceSerialMissing();
    }
    const sn = DEVICE_SERIAL_PATTERN.test(serial) ? serial : undefined;
    const device = sn
      ? await this.devices.findOne({ where: { serial: sn }, relations: { tenant: true } })
      : null;
    if (!device) {
      this.logger.warn({ serial }, 'refused a device that is not registered');
      throw deviceNotRegistered(serial);
    }
    await this.devices.update({ serial: device.serial }, { lastSeenAt: new Date() });
    return device;
  }
}
