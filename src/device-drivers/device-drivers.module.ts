import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { AppLogger } from '../common/logging/logger';
import { RpcModule } from '../rpc/rpc.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { AttendanceFilesService } from './attendance-files.service';
import { AttendanceImporter } from './attendance-importer';
import {
  AttendanceImportController,
  DeviceDriversController,
  IclockController,
} from './device-drivers.controller';
import { DevicesService } from './devices.service';
import { DriverRegistry } from './driver-registry';
import { describeManifestErrors } from './manifest.validator';
import { RemoveUploadInterceptor } from './remove-upload.interceptor';

/**
 * Time clocks (docs/device-drivers.md): the driver registry, file imports (upload and CLI) and
 * the iClock push, all ending in the store function import_asistencia.
 */
@Module({
  imports: [
    TenancyModule,
    RpcModule,
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // uploads go to disk and are streamed from there: never a whole export in memory
        const dest = join(tmpdir(), 'comandas-uploads');
        mkdirSync(dest, { recursive: true });
        return {
          dest,
          limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 4 },
          // file names are UTF-8 (marcaciones_año.csv), not multer's default latin1
          defParamCharset: 'utf8',
        };
      },
    }),
  ],
  controllers: [DeviceDriversController, AttendanceImportController, IclockController],
  providers: [
    AttendanceImporter,
    AttendanceFilesService,
    DevicesService,
    RemoveUploadInterceptor,
    {
      provide: DriverRegistry,
      inject: [APP_CONFIG, AppLogger],
      useFactory: async (config: AppConfig, appLogger: AppLogger) => {
        const registry = await DriverRegistry.load(config.DEVICE_DRIVERS_PATH);
        const logger = appLogger.child('DriverRegistry');
        for (const skipped of registry.skipped) {
          logger.warn(
            { driver: skipped.name, path: skipped.path, errors: skipped.errors },
            `device driver ${skipped.name} skipped: ${describeManifestErrors(skipped.errors)}`,
          );
        }
        for (const driver of registry.list().filter((d) => d.problems.length > 0)) {
          logger.warn(
            { driver: driver.name, path: driver.path, problems: driver.problems },
            `device driver ${driver.name} loaded but cannot import: ${describeManifestErrors(driver.problems)}`,
          );
        }
        logger.info({ drivers: registry.names() }, 'device drivers loaded');
        return registry;
      },
    },
  ],
  exports: [DriverRegistry, AttendanceImporter, AttendanceFilesService],
})
export class DeviceDriversModule {}
