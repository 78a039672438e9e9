import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InsertedRowHooks } from '../generic-tables/inserted-row-hooks';
import { ComandasRepository } from './comandas.repository';

/**
 * The comandas module's rules on the rows the generic table routes insert into its tables
 * (docs/generic-tables.md): a comanda gets its `crear` entry; a line, an `agregar_item` entry on
 * its comanda, whose total and version follow; in the insert's transaction. So this module is
 * the only writer of the audit trail, and the live stream, which follows the trail, shows those
 * changes like any other. The generic routes run these hooks without knowing this module.
 */
@Injectable()
export class ComandaRowHooks implements OnModuleInit {
  constructor(
    private readonly hooks: InsertedRowHooks,
    private readonly repository: ComandasRepository,
  ) {}

  onModuleInit(): void {
    this.hooks.register('comandas', (row, tx) =>
      this.repository.auditInsertedComanda(tx, row.id_comanda),
    );
    this.hooks.register('deta_comandas', (row, tx) =>
      this.repository.auditInsertedLine(tx, row.id_comanda, row.id_deta_comanda),
    );
  }
}
