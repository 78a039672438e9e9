/**
 * Suppliers, then their purchases: two sections, because the order tickets are drawn between
 * them (see seedDemoData).
 */

import { MATERIAS, PROVEEDORES, materiaId, productoId } from '../restaurant';
import {
  type DemoDataSummary,
  type DemoSeed,
  at,
  idOf,
  json,
  money,
  qty,
  ruc,
} from '../seed-helpers';

interface CompraRow {
  id_compra: number;
  id_proveedor: number;
  dia: number;
  seg: number;
  observacion: string;
}

interface DetaCompraRow {
  id: number;
  id_compra: number;
  id_item: number;
  cantidad: string;
  costo_unitario: string;
}

/** Suppliers and what each sells at which agreed price. */
export async function seedSuppliers(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'proveedores' | 'prov_mate_prima' | 'prov_producto'>> {
  const { query, rng } = seed;
  const proveedores = PROVEEDORES.map((p, i) => ({
    id_proveedor: i + 1,
    razon_social: p.razonSocial,
    documento: ruc(rng, '20'),
    telefono: p.telefono,
    email: p.email,
    direccion: p.direccion,
  }));
  await query(
    `INSERT INTO proveedores (id_proveedor, razon_social, documento, telefono, email, direccion,
                              activo)
     SELECT r.id_proveedor, r.razon_social, r.documento, r.telefono, r.email, r.direccion, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, razon_social text,
            documento text, telefono text, email text, direccion text)`,
    [json(proveedores)],
  );

  const provMaterias = PROVEEDORES.flatMap((p, i) =>
    p.materias.map(([materia, cents]) => ({
      id_proveedor: i + 1,
      id_mat_prima: idOf(materiaId, materia),
      precio: money(cents),
    })),
  );
  await query(
    `INSERT INTO prov_mate_prima (id_proveedor, id_mat_prima, precio)
     SELECT r.id_proveedor, r.id_mat_prima, r.precio
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, id_mat_prima integer,
            precio numeric)`,
    [json(provMaterias)],
  );

  const provProductos = PROVEEDORES.flatMap((p, i) =>
    p.productos.map(([producto, cents]) => ({
      id_proveedor: i + 1,
      id_producto: idOf(productoId, producto),
      precio: money(cents),
    })),
  );
  await query(
    `INSERT INTO prov_producto (id_proveedor, id_producto, precio)
     SELECT r.id_proveedor, r.id_producto, r.precio
       FROM jsonb_to_recordset($1::jsonb) AS r(id_proveedor integer, id_producto integer,
            precio numeric)`,
    [json(provProductos)],
  );

  return {
    proveedores: proveedores.length,
    prov_mate_prima: provMaterias.length,
    prov_producto: provProductos.length,
  };
}

/**
 * A year of purchases: each with its lines of raw materials and resold products, and its total
 * computed from the lines' subtotals.
 */
export async function seedPurchases(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'compras' | 'deta_comp_producto' | 'deta_comp_materias'>> {
  const { query, rng, today, timeZone } = seed;
  // 30 purchases over the last 12 months, delivered in the morning, each with 2-5 lines of
  // what that supplier sells, at its agreed price give or take 8 %.
  const compraDias = Array.from({ length: 30 }, (_, k) => 365 - k * 12 - rng.int(0, 10)).sort(
    (a, b) => b - a,
  );
  const facturas = PROVEEDORES.map(() => rng.int(1000, 8000));
  const compras: CompraRow[] = [];
  const compMaterias: DetaCompraRow[] = [];
  const compProductos: DetaCompraRow[] = [];
  const costo = (cents: number): string => money(Math.round(cents * (0.92 + rng.int(0, 16) / 100)));
  for (const [k, dia] of compraDias.entries()) {
    const p = rng.weighted(PROVEEDORES.map((prov) => prov.peso));
    const prov = PROVEEDORES[p];
    const id = k + 1;
    facturas[p] += rng.int(3, 40);
    compras.push({
      id_compra: id,
      id_proveedor: p + 1,
      dia,
      seg: rng.int(7 * 3600, 10 * 3600),
      observacion: `Factura F001-${String(facturas[p]).padStart(8, '0')}`,
    });
    const nProductos = prov.productos.length > 0 ? rng.int(1, 2) : 0;
    const nMaterias = rng.int(Math.max(1, 2 - nProductos), 5 - nProductos);
    const materias = new Set<number>();
    while (materias.size < nMaterias) materias.add(rng.int(0, prov.materias.length - 1));
    for (const m of [...materias].sort((a, b) => a - b)) {
      const [nombre, cents] = prov.materias[m];
      const [min, max] = MATERIAS[idOf(materiaId, nombre) - 1].lote;
      const media = rng.chance(0.3) && max - min < 50 ? 500 : 0;
      compMaterias.push({
        id: compMaterias.length + 1,
        id_compra: id,
        id_item: idOf(materiaId, nombre),
        cantidad: qty(rng.int(min, max) * 1000 + media),
        costo_unitario: costo(cents),
      });
    }
    const productosCompra = new Set<number>();
    while (productosCompra.size < nProductos) {
      productosCompra.add(rng.int(0, prov.productos.length - 1));
    }
    for (const q of [...productosCompra].sort((a, b) => a - b)) {
      const [nombre, cents] = prov.productos[q];
      compProductos.push({
        id: compProductos.length + 1,
        id_compra: id,
        id_item: idOf(productoId, nombre),
        cantidad: qty(rng.int(2, 6) * 12 * 1000),
        costo_unitario: costo(cents),
      });
    }
  }

  await query(
    `INSERT INTO compras (id_compra, id_proveedor, fec_compra, total, observacion, created_at,
                          updated_at)
     SELECT r.id_compra, r.id_proveedor, ${at('r.dia', 'r.seg')}, 0, r.observacion,
            ${at('r.dia', 'r.seg')}, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_compra integer, id_proveedor integer,
            dia integer, seg integer, observacion text)`,
    [json(compras), today, timeZone],
  );
  await query(
    `INSERT INTO deta_comp_materias (id_deta_comp_materia, id_compra, id_mat_prima, cantidad,
                                     costo_unitario)
     SELECT r.id, r.id_compra, r.id_item, r.cantidad, r.costo_unitario
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, id_compra integer, id_item integer,
            cantidad numeric, costo_unitario numeric)`,
    [json(compMaterias)],
  );
  await query(
    `INSERT INTO deta_comp_producto (id_deta_comp_producto, id_compra, id_producto, cantidad,
                                     costo_unitario)
     SELECT r.id, r.id_compra, r.id_item, r.cantidad, r.costo_unitario
       FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, id_compra integer, id_item integer,
            cantidad numeric, costo_unitario numeric)`,
    [json(compProductos)],
  );
  await query(
    `UPDATE compras c
        SET total = s.total
       FROM (SELECT id_compra, sum(subtotal) AS total
               FROM (SELECT id_compra, subtotal FROM deta_comp_materias
                     UNION ALL
                     SELECT id_compra, subtotal FROM deta_comp_producto) l
              GROUP BY id_compra) s
      WHERE s.id_compra = c.id_compra`,
  );

  return {
    compras: compras.length,
    deta_comp_producto: compProductos.length,
    deta_comp_materias: compMaterias.length,
  };
}
