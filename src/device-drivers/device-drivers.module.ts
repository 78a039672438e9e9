import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { PinoLogger } from 'nestjs-pino';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../common/config/app-config';
import { APP_CONFIG } from '../common/config/config.tokens';
import { RpcModule } from '../rpc/rpc.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { AttendanceFilesService } from './attendance-files.service';
import { AttendanceImporter } from './attendance-importer';
import {
  AsistenciaImportController,
  DeviceDriversController,
  IclockController,
} from './device-drivers.controller';
import { DevicesService } from './devices.service';
import { DriverRegistry } from './driver-registry';
import { describeManifestErrors } from './manifest.validator';
import { RemoveUploadInterceptor } from './remove-upload.interceptor';

/**
 * Time clocks (seed §2.2, DESIGN §8): the driver registry, file imports (upload and CLI) and
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
  controllers: [DeviceDriversController, AsistenciaImportController, IclockController],
  providers: [
    AttendanceImporter,
    AttendanceFilesService,
    DevicesService,
    RemoveUploadInterceptor,
    {
      provide: DriverRegistry,
      inject: [APP_CONFIG, PinoLogger],
      useFactory: async (config: AppConfig, logger: PinoLogger) => {
        const registry = await DriverRegistry.load(config.DEVICE_DRIVERS_PATH);
        logger.setContext('DriverRegistry');
        for (const skipped of registry.skipped) {
          logger.warn(
            { driver: skipped.name, path: skipped.path, errors: skipped.errors },
            `device driver ${skipped.name} skipped: ${describeManifestErrors(skipped.errors)}`,
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
