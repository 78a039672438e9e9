import { CATEGORIAS, MATERIAS, PRODUCTOS, categoriaId, materiaId } from '../restaurant';
import { type DemoDataSummary, type DemoSeed, at, idOf, json, money, qty } from '../seed-helpers';

/** The menu: categories, raw materials, products and their recipes (no draw of the generator). */
export async function seedCatalogue(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'categorias' | 'mate_primas' | 'productos' | 'receta_producto'>> {
  const { query, today, timeZone } = seed;
  await query(
    `INSERT INTO categorias (id_categoria, nombre, descripcion, activo)
     SELECT r.id_categoria, r.nombre, r.descripcion, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_categoria integer, nombre text, descripcion text)`,
    [json(CATEGORIAS.map((c, i) => ({ id_categoria: i + 1, ...c })))],
  );

  await query(
    `INSERT INTO mate_primas (id_mat_prima, nombre, unidad, activo)
     SELECT r.id_mat_prima, r.nombre, r.unidad, true
       FROM jsonb_to_recordset($1::jsonb) AS r(id_mat_prima integer, nombre text, unidad text)`,
    [json(MATERIAS.map((m, i) => ({ id_mat_prima: i + 1, nombre: m.nombre, unidad: m.unidad })))],
  );

  const productos = PRODUCTOS.map((p, i) => ({
    id_producto: i + 1,
    nombre: p.nombre,
    precio: money(p.precio),
    id_categoria: idOf(categoriaId, p.categoria),
    dia: 380,
    seg: 10 * 3600 + i * 60,
  }));
  await query(
    `INSERT INTO productos (id_producto, nombre, img_producto, precio, activo, id_categoria,
                            created_at, updated_at)
     SELECT r.id_producto, r.nombre, NULL, r.precio, true, r.id_categoria,
            ${at('r.dia', 'r.seg')}, ${at('r.dia', 'r.seg')}
       FROM jsonb_to_recordset($1::jsonb) AS r(id_producto integer, nombre text, precio numeric,
            id_categoria integer, dia integer, seg integer)`,
    [json(productos), today, timeZone],
  );

  const recetas = PRODUCTOS.flatMap((p, i) =>
    p.receta.map(([materia, milli]) => ({
      id_producto: i + 1,
      id_mat_prima: idOf(materiaId, materia),
      cantidad: qty(milli),
    })),
  );
  await query(
    `INSERT INTO receta_producto (id_producto, id_mat_prima, cantidad)
     SELECT r.id_producto, r.id_mat_prima, r.cantidad
       FROM jsonb_to_recordset($1::jsonb) AS r(id_producto integer, id_mat_prima integer,
            cantidad numeric)`,
    [json(recetas)],
  );

  return {
    categorias: CATEGORIAS.length,
    mate_primas: MATERIAS.length,
    productos: productos.length,
    receta_producto: recetas.length,
  };
}
