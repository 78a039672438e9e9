import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Query,
  UploadedFile,
  UseInterceptors,
  Version,
  VERSION_NEUTRAL,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiExcludeController,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
} from '@nestjs/swagger';
import { Public, RequirePermission } from '../auth/auth.decorators';
import { ApiTag, LongRunning } from '../common/decorators';
import { NoTenant, TenantScoped } from '../tenancy/tenancy.decorators';
import { AcceptsBody, ANY_BODY } from '../common/http/body-type';
import { validationError } from '../common/errors/common.errors';
import { ErrorBody } from '../common/errors/error-body.dto';
import { ApiErrors } from '../common/http/openapi-errors';
import { AttendanceFilesService } from './attendance-files.service';
import {
  driverNotFileTransport,
  driverNotImportable,
  exportHeaderMismatch,
  fileRequired,
  unknownDriver,
} from './device-drivers.errors';
import { DevicesService } from './devices.service';
import { DriverRegistry } from './driver-registry';
import {
  DriverDto,
  AttendanceImportBody,
  ImportSummaryDto,
  ManifestValidationDto,
} from './dto/device-drivers.dto';
import { validateDriverManifest } from './manifest.validator';
import { RemoveUploadInterceptor } from './remove-upload.interceptor';

@ApiTag(
  'device drivers',
  'Time-clock drivers (catalogue, manifest validation) and attendance file imports.',
)
@Controller('device-drivers')
export class DeviceDriversController {
  constructor(@Inject(DriverRegistry) private readonly registry: DriverRegistry) {}

  @Get()
  @NoTenant()
  @ApiOperation({ summary: 'The drivers loaded at start (drivers/ and DEVICE_DRIVERS_PATH)' })
  @ApiOkResponse({ type: [DriverDto] })
  list(): DriverDto[] {
    return this.registry.list().map(({ name, source, manifest, importable, warnings }) => ({
      name,
      source,
      manifest,
      importable,
      warnings,
    }));
  }

  @Post('validate')
  @NoTenant()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Validate a manifest: {valid, errors: [{path, message}], warnings: [{path, message}]}',
    description:
      'valid and errors follow the manifest schema alone (extra properties allowed): a valid manifest is loaded. warnings say what importing with it needs: the record format a file or http driver reads with (a ZKTeco layout is assumed when it names none) and why it cannot import (an unknown format, invalid settings).',
  })
  @ApiBody({
    schema: {
      type: 'object',
      example: { vendor: 'ZKTeco', model: 'K40', transport: 'tcp', version: '1.0' },
    },
  })
  @ApiOkResponse({ type: ManifestValidationDto })
  validate(@Body() manifest: unknown): ManifestValidationDto {
    const result = validateDriverManifest(manifest);
    return { valid: result.valid, errors: result.errors, warnings: result.warnings };
  }
}

@ApiTag(
  'device drivers',
  'Time-clock drivers (catalogue, manifest validation) and attendance file imports.',
)
@TenantScoped()
@RequirePermission('asistencia:import')
@Controller('asistencia')
export class AttendanceImportController {
  constructor(private readonly files: AttendanceFilesService) {}

  @Post('import')
  @AcceptsBody('multipart/form-data')
  @LongRunning()
  @HttpCode(200)
  @UseInterceptors(FileInterceptor('file'), RemoveUploadInterceptor)
  @ApiOperation({
    summary: 'Import a time-clock export into import_asistencia',
    description:
      'multipart/form-data: `file` (attlog.dat, CSV ...) and `driver` (a file driver). Streamed in batches; importing the same file again inserts nothing.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'driver'],
      properties: {
        file: { type: 'string', format: 'binary' },
        driver: { type: 'string', example: 'zkteco-attlog' },
      },
    },
  })
  @ApiOkResponse({ type: ImportSummaryDto })
  @ApiErrors(
    validationError,
    fileRequired,
    unknownDriver,
    driverNotFileTransport,
    driverNotImportable,
    exportHeaderMismatch,
  )
  @ApiPayloadTooLargeResponse({
    type: ErrorBody,
    description: 'The file is larger than UPLOAD_MAX_BYTES',
  })
  import(
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() body: AttendanceImportBody,
  ): Promise<ImportSummaryDto> {
    return this.files.importUpload(file, body.driver);
  }
}

/**
 * The fixed paths ZKTeco clocks call in push mode (ADMS / iClock protocol), outside /api/v1:
 * plain-text requests and answers. Left out of the OpenAPI document, which describes the API
 * for people; docs/device-drivers.md describes the protocol.
 */
@ApiExcludeController()
@NoTenant()
@Public()
@AcceptsBody(ANY_BODY)
@Controller('iclock')
export class IclockController {
  constructor(private readonly devices: DevicesService) {}

  /**
   * Handshake: the clock asks for its options (SN=...&options=all); with type=time it asks for
   * the server's time instead.
   */
  @Get('cdata')
  @Version(VERSION_NEUTRAL)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  handshake(@Query('SN') serial: unknown, @Query('type') type: unknown): Promise<string> {
    return type === 'time' ? this.devices.serverTime(serial) : this.devices.handshake(serial);
  }

  /** The clock pushes log lines (table=ATTLOG, OPERLOG ...): answered "OK: <lines>". */
  @Post('cdata')
  @Version(VERSION_NEUTRAL)
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  push(
    @Query('SN') serial: unknown,
    @Query('table') table: unknown,
    @Query('Stamp') stamp: unknown,
    @Body() body: unknown,
  ): Promise<string> {
    return this.devices.push(serial, table, stamp, typeof body === 'string' ? body : '');
  }

  /** The clock polls for commands: none are queued. */
  @Get('getrequest')
  @Version(VERSION_NEUTRAL)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  commands(@Query('SN') serial: unknown): Promise<string> {
    return this.devices.commands(serial);
  }

  /** The clock reports the results of the commands it ran (ID=1&Return=0&CMD=DATA, a line each). */
  @Post('devicecmd')
  @Version(VERSION_NEUTRAL)
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  commandResults(@Query('SN') serial: unknown, @Body() body: unknown): Promise<string> {
    return this.devices.commandResults(serial, typeof body === 'string' ? body : '');
  }

  /** Heartbeat during a long upload. */
  @Get('ping')
  @Version(VERSION_NEUTRAL)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  ping(@Query('SN') serial: unknown): Promise<string> {
    return this.devices.ping(serial);
  }
}
