import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module';
import { GenericTablesController } from './generic-tables.controller';
import { GenericTablesRepository } from './generic-tables.repository';
import { GenericTablesService } from './generic-tables.service';
import { InsertedRowHooks } from './inserted-row-hooks';
import { TableMetadataService } from './table-metadata.service';

/**
 * The generic table routes behind FEATURE_GENERIC_TABLES (docs/generic-tables.md). The modules
 * that own tables it serves register their rules with InsertedRowHooks.
 */
@Module({
  imports: [TenancyModule],
  controllers: [GenericTablesController],
  providers: [
    GenericTablesService,
    GenericTablesRepository,
    TableMetadataService,
    InsertedRowHooks,
  ],
  exports: [InsertedRowHooks],
})
export class GenericTablesModule {}
