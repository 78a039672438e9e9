import { defineComandaExtension } from '../comandas/comanda-contract';
import { LineaCocinaDto } from './dto/cocina-output.dto';

declare module '../comandas/comanda-state' {
  /** The kitchen's actions on a comanda. */
  interface ExtensionComandaActions {
    enviar: true;
    disparar: true;
    entregar: true;
    preparar: true;
    listo: true;
    recuperar: true;
  }
}

/**
 * What cocina adds to the comandas (docs/cocina.md): its actions on a comanda, each with its
 * permission (nobody's while the feature is off): the floor sends, fires and serves while it is
 * abierta; the kitchen starts, bumps and recalls its tickets also once it is cerrada (paid
 * early), and clears the cancellations of a deleted one (listo). Each line of the detail shows
 * where it stands in the kitchen. Its hooks: CocinaService.
 */
export const COCINA_EXTENSION = defineComandaExtension({
  name: 'cocina',
  actions: {
    enviar: { permission: 'cocina:send', from: { abierta: {} } },
    disparar: { permission: 'cocina:send', from: { abierta: {} } },
    entregar: { permission: 'cocina:send', from: { abierta: {} } },
    preparar: { permission: 'cocina:bump', from: { abierta: {}, cerrada: {} } },
    listo: { permission: 'cocina:bump', from: { abierta: {}, cerrada: {}, eliminada: {} } },
    recuperar: { permission: 'cocina:bump', from: { abierta: {}, cerrada: {} } },
  },
  lineFields: LineaCocinaDto,
});
