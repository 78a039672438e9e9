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
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiExcludeController,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Public, RequirePermission } from '../auth/auth.decorators';
import { LongRunning, NoTenant, TenantScoped } from '../common/decorators';
import { ErrorBody } from '../common/errors/error-body.dto';
import { AttendanceFilesService } from './attendance-files.service';
import { DevicesService } from './devices.service';
import { DriverRegistry } from './driver-registry';
import {
  DriverDto,
  ImportAsistenciaBody,
  ImportSummaryDto,
  ManifestValidationDto,
} from './dto/device-drivers.dto';
import { validateDriverManifest } from './manifest.validator';
import { RemoveUploadInterceptor } from './remove-upload.interceptor';

@ApiTags('device drivers')
@Controller('device-drivers')
export class DeviceDriversController {
  constructor(@Inject(DriverRegistry) private readonly registry: DriverRegistry) {}

  @Get()
  @NoTenant()
  @ApiOperation({ summary: 'The drivers loaded at start (drivers/ and DEVICE_DRIVERS_PATH)' })
  @ApiOkResponse({ type: [DriverDto] })
  list(): DriverDto[] {
    return this.registry.list().map(({ name, source, manifest }) => ({ name, source, manifest }));
  }

  @Post('validate')
  @NoTenant()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Validate a manifest: {valid, errors: [{path, message}]}',
    description:
      'The schema of seed §2.2 (extra properties allowed) and, for a file or http driver, the settings of the record format it names: valid means the driver would load.',
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
    return { valid: result.valid, errors: result.errors };
  }
}

@ApiTags('device drivers')
@TenantScoped()
@RequirePermission('asistencia:import')
@Controller('asistencia')
export class AsistenciaImportController {
  constructor(private readonly files: AttendanceFilesService) {}

  @Post('import')
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
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'FILE_REQUIRED, UNKNOWN_DRIVER, DRIVER_NOT_FILE, EXPORT_HEADER_MISMATCH, VALIDATION_FAILED',
  })
  @ApiPayloadTooLargeResponse({
    type: ErrorBody,
    description: 'The file is larger than UPLOAD_MAX_BYTES',
  })
  import(
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() body: ImportAsistenciaBody,
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
@Controller('iclock')
export class IclockController {
  constructor(private readonly devices: DevicesService) {}

  /** Handshake: the clock asks for its options (SN=...&options=all). */
  @Get('cdata')
  @Version(VERSION_NEUTRAL)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  handshake(@Query('SN') serial: unknown): Promise<string> {
    return this.devices.handshake(serial);
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
}
