import type { ComandaEvento } from '../api';
import { when } from '../format';

/** The audit entries as sentences: "Rosa Quispe anuló — motivo: …". */
const DONE: Record<ComandaEvento['accion'], string> = {
  crear: 'abrió la comanda',
  agregar_item: 'agregó un producto',
  modificar_item: 'cambió una cantidad',
  quitar_item: 'quitó un producto',
  cerrar: 'cerró la cuenta',
  abrir: 'reabrió la comanda',
  editar: 'editó la comanda',
  transferir: 'cambió de mesa',
  eliminar: 'anuló la comanda',
  restaurar: 'restauró la comanda',
  dividir: 'dividió la cuenta',
  unir: 'unió comandas',
  pagar: 'cobró un pago',
  anular_pago: 'anuló un pago',
  descontar: 'cambió el descuento',
  reembolsar: 'reembolsó',
  enviar: 'envió a cocina',
  disparar: 'disparó un tiempo',
  entregar: 'entregó un plato',
  preparar: 'empezó un pedido en cocina',
  listo: 'marcó un pedido listo',
  recuperar: 'recuperó un pedido en cocina',
};

export function Timeline({ events }: { events: ComandaEvento[] }) {
  return (
    <section class="timeline-box" aria-label="Historial de la comanda">
      <h3>Historial</h3>
      <ol class="timeline">
        {events.map((e) => (
          <li key={e.id_evento}>
            <time dateTime={e.fec_evento}>{when(e.fec_evento)}</time>
            <span>
              <strong>{e.usuario ?? 'Alguien'}</strong> {DONE[e.accion] ?? e.accion}
              {e.motivo && <span class="muted"> — motivo: {e.motivo}</span>}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
