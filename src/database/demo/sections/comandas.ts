import {
  ADMIN,
  CAJERO_DIA,
  CAJERO_NOCHE,
  CLIENTES,
  MESAS,
  MOTIVOS_ELIMINACION,
  MOZOS_ALMUERZO,
  MOZOS_CENA,
  NOTAS,
  OBSERVACIONES,
  PRODUCTOS,
} from '../restaurant';
import { type DemoDataSummary, type DemoSeed, at, json, qty } from '../seed-helpers';

interface ComandaRow {
  id_comanda: number;
  id_mesa: number | null;
  id_usuario: number;
  id_cliente: number | null;
  estado: 'abierta' | 'cerrada';
  dia: number;
  seg_apertura: number;
  seg_cierre: number | null;
  seg_eliminacion: number | null;
  observacion: string | null;
  version: number;
}

interface DetaComandaRow {
  id_deta_comanda: number;
  id_comanda: number;
  id_producto: number;
  cantidad: string;
  nota: string | null;
  id_usuario: number;
  dia: number;
  seg: number;
}

interface EventoRow {
  id_comanda: number;
  accion: 'crear' | 'cerrar' | 'eliminar';
  id_usuario: number;
  motivo: string | null;
  dia: number;
  seg: number;
}

/**
 * A year of order tickets with their lines and audit events; totals are computed from the
 * lines' subtotals.
 */
export async function seedComandas(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'comandas' | 'deta_comandas' | 'comanda_eventos'>> {
  const { query, rng, today, timeZone } = seed;
  // 300 tickets over the 365 days before today: 15 still open (yesterday and the day before),
  // 12 logically deleted (7 voided while open, 5 after closing), the rest closed.
  type Kind = 'cerrada' | 'abierta' | 'anulada_abierta' | 'anulada_cerrada';
  const kinds: Kind[] = [
    ...Array<Kind>(273).fill('cerrada'),
    ...Array<Kind>(15).fill('abierta'),
    ...Array<Kind>(7).fill('anulada_abierta'),
    ...Array<Kind>(5).fill('anulada_cerrada'),
  ];
  const drafts = kinds.map((kind) => {
    const dia = kind === 'abierta' ? rng.int(1, 2) : rng.int(1, 365);
    const cena = rng.chance(0.3);
    // Lunch 12:00-15:30, dinner 19:00-21:30 (a cevichería lives at lunch time).
    const segApertura = cena ? rng.int(19 * 3600, 21.5 * 3600) : rng.int(12 * 3600, 15.5 * 3600);
    return { kind, dia, cena, segApertura };
  });
  // Chronological order: keys and ticket numbers grow with time, like on a real till.
  drafts.sort((a, b) => b.dia - a.dia || a.segApertura - b.segApertura);

  const pesos = PRODUCTOS.map((p) => p.peso);
  const comandas: ComandaRow[] = [];
  const lineas: DetaComandaRow[] = [];
  const eventos: EventoRow[] = [];
  // Open tickets sit at distinct tables; the rest of them are take-away.
  const mesasLibres = Array.from({ length: MESAS }, (_, i) => i + 1);

  for (const [index, draft] of drafts.entries()) {
    const id = index + 1;
    const { kind, dia, cena, segApertura } = draft;
    const cerrada = kind === 'cerrada' || kind === 'anulada_cerrada';
    const anulada = kind === 'anulada_abierta' || kind === 'anulada_cerrada';
    const mozo = rng.pick(cena ? MOZOS_CENA : MOZOS_ALMUERZO);

    let idMesa: number | null;
    if (kind === 'abierta') {
      idMesa =
        mesasLibres.length > 0 && rng.chance(0.85)
          ? mesasLibres.splice(rng.int(0, mesasLibres.length - 1), 1)[0]
          : null;
    } else {
      idMesa = rng.chance(0.15) ? null : rng.int(1, MESAS);
    }
    const idCliente = rng.chance(0.3) ? rng.int(1, CLIENTES.length) : null;
    const observacion =
      idMesa === null ? 'Para llevar' : rng.chance(0.1) ? rng.pick(OBSERVACIONES) : null;

    const segCierre = cerrada ? segApertura + rng.int(35, 100) * 60 + rng.int(0, 59) : null;
    const segEliminacion = !anulada
      ? null
      : segCierre !== null
        ? segCierre + rng.int(5, 25) * 60
        : segApertura + rng.int(8, 40) * 60;

    comandas.push({
      id_comanda: id,
      id_mesa: idMesa,
      id_usuario: mozo,
      id_cliente: idCliente,
      estado: cerrada ? 'cerrada' : 'abierta',
      dia,
      seg_apertura: segApertura,
      seg_cierre: segCierre,
      seg_eliminacion: segEliminacion,
      observacion,
      version: 1 + (cerrada ? 1 : 0) + (anulada ? 1 : 0),
    });

    // 1-6 distinct products, most tickets 2-4 lines.
    const nLineas = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6][rng.int(0, 9)];
    const elegidos = new Set<number>();
    while (elegidos.size < nLineas) elegidos.add(rng.weighted(pesos) + 1);
    let seg = segApertura + 60;
    for (const idProducto of elegidos) {
      const bebida = PRODUCTOS[idProducto - 1].categoria === 'Bebidas';
      const cantidad = bebida ? rng.int(1, 4) : rng.chance(0.75) ? 1 : rng.int(2, 3);
      seg += rng.int(30, 150);
      lineas.push({
        id_deta_comanda: lineas.length + 1,
        id_comanda: id,
        id_producto: idProducto,
        cantidad: qty(cantidad * 1000),
        nota: rng.chance(0.12) ? rng.pick(NOTAS) : null,
        id_usuario: mozo,
        dia,
        seg,
      });
    }

    eventos.push({
      id_comanda: id,
      accion: 'crear',
      id_usuario: mozo,
      motivo: null,
      dia,
      seg: segApertura,
    });
    if (segCierre !== null) {
      const cajero = rng.chance(0.1) ? ADMIN : cena ? CAJERO_NOCHE : CAJERO_DIA;
      eventos.push({
        id_comanda: id,
        accion: 'cerrar',
        id_usuario: cajero,
        motivo: null,
        dia,
        seg: segCierre,
      });
    }
    if (segEliminacion !== null) {
      eventos.push({
        id_comanda: id,
        accion: 'eliminar',
        id_usuario: ADMIN,
        motivo: rng.pick(MOTIVOS_ELIMINACION),
        dia,
        seg: segEliminacion,
      });
    }
  }
  // Event keys in time order across tickets, as a live system would have written them.
  eventos.sort((a, b) => b.dia - a.dia || a.seg - b.seg || a.id_comanda - b.id_comanda);

  await query(
    `INSERT INTO comandas (id_comanda, numero_ticket, id_mesa, id_usuario, id_cliente, estado,
                           fec_apertura, fec_cierre, total, observacion, eliminada,
                           fec_eliminacion, version)
     SELECT r.id_comanda, r.id_comanda, r.id_mesa, r.id_usuario, r.id_cliente, r.estado,
            ${at('r.dia', 'r.seg_apertura')},
            CASE WHEN r.seg_cierre IS NOT NULL THEN ${at('r.dia', 'r.seg_cierre')} END,
            0, r.observacion, r.seg_eliminacion IS NOT NULL,
            CASE WHEN r.seg_eliminacion IS NOT NULL THEN ${at('r.dia', 'r.seg_eliminacion')} END,
            r.version
       FROM jsonb_to_recordset($1::jsonb) AS r(id_comanda bigint, id_mesa integer,
            id_usuario integer, id_cliente integer, estado text, dia integer,
            seg_apertura integer, seg_cierre integer, seg_eliminacion integer,
            observacion text, version integer)`,
    [json(comandas), today, timeZone],
  );

  // Unit price = the product's price (captured at order time).
  await query(
    `INSERT INTO deta_comandas (id_deta_comanda, id_comanda, id_producto, cantidad,
                                precio_unitario, nota, id_usuario, fec_registro)
     SELECT r.id_deta_comanda, r.id_comanda, r.id_producto, r.cantidad, p.precio, r.nota,
            r.id_usuario, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_deta_comanda bigint, id_comanda bigint,
            id_producto integer, cantidad numeric, nota text, id_usuario integer, dia integer,
            seg integer)
       JOIN productos p ON p.id_producto = r.id_producto`,
    [json(lineas), today, timeZone],
  );

  // Total = sum of the generated line subtotals (kept for open tickets too: the running total).
  await query(
    `UPDATE comandas c
        SET total = s.total
       FROM (SELECT id_comanda, sum(subtotal) AS total FROM deta_comandas GROUP BY id_comanda) s
      WHERE s.id_comanda = c.id_comanda`,
  );

  await query(
    `INSERT INTO comanda_eventos (id_evento, id_comanda, accion, id_usuario, motivo, antes,
                                  despues, fec_evento)
     SELECT r.id_evento, r.id_comanda, r.accion, r.id_usuario, r.motivo,
            CASE r.accion
              WHEN 'crear' THEN NULL
              WHEN 'cerrar' THEN jsonb_build_object('estado', 'abierta')
              ELSE jsonb_build_object('eliminada', false)
            END,
            CASE r.accion
              WHEN 'crear' THEN jsonb_build_object('estado', 'abierta', 'id_mesa', c.id_mesa,
                                                   'id_usuario', c.id_usuario,
                                                   'id_cliente', c.id_cliente)
              WHEN 'cerrar' THEN jsonb_build_object('estado', 'cerrada', 'total', c.total)
              ELSE jsonb_build_object('eliminada', true)
            END,
            ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_evento bigint, id_comanda bigint, accion text,
            id_usuario integer, motivo text, dia integer, seg integer)
       JOIN comandas c ON c.id_comanda = r.id_comanda`,
    [json(eventos.map((e, i) => ({ id_evento: i + 1, ...e }))), today, timeZone],
  );

  return {
    comandas: comandas.length,
    deta_comandas: lineas.length,
    comanda_eventos: eventos.length,
  };
}
