import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { GenericTablesController } from './generic-tables.controller';
import { GenericTablesRepository } from './generic-tables.repository';
import { GenericTablesService } from './generic-tables.service';
import { TableMetadataService } from './table-metadata.service';

/**
 * The generic table routes behind FEATURE_GENERIC_TABLES (docs/generic-tables.md). They import
 * none of the modules whose tables they serve: the tables those modules keep rules on are
 * read-only here (allowed-tables.ts, MODULE_OWNED).
 */
@Module({
  imports: [TenancyModule],
  controllers: [GenericTablesController],
  providers: [GenericTablesService, GenericTablesRepository, TableMetadataService],
})
export class GenericTablesModule {}
