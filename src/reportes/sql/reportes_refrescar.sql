CREATE OR REPLACE FUNCTION reportes_refrescar(p_zona text)
RETURNS integer
LANGUAGE plpgsql AS $fn$
  -- Computes again the report rows of the comandas in reportes_cambios (and, when the tenant's
  -- time zone is not the one they were computed in, of those whose rate may depend on it).
  -- Refreshes run one at a time (a transaction-scoped advisory lock); the changes' writers
  -- take no lock here. The log's rows are taken by one DELETE: those of transactions still
  -- running are not visible to it and stay for the next refresh; the rows are computed by the
  -- following statements, each with a newer snapshot, so every change whose id was taken is
  -- seen. Answers the number of comandas computed again.
  DECLARE
    v_ids  bigint[];
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('reportes_refrescar'));
    -- a first refresh computes years of comandas: its sorts and joins in memory, not compiled
    PERFORM set_config('work_mem', '64MB', true), set_config('jit', 'off', true);
    -- Another zone moves a close's local day by one day at most (offsets are within ±14 h of
    -- UTC), and the day matters only for a comanda without a frozen rate, whose rate is the
    -- one in force on that day: only those closed within a day of a rate's start may change.
    IF (SELECT zona FROM reportes_estado) IS DISTINCT FROM p_zona THEN
      INSERT INTO reportes_cambios (id_comanda)
        SELECT v.id_comanda FROM reporte_ventas v
         WHERE NOT v.tasa_congelada
           AND EXISTS (SELECT 1 FROM tasas_igv t
                        WHERE t.vigente_desde BETWEEN (v.fec_cierre AT TIME ZONE 'UTC')::date - 1
                                                  AND (v.fec_cierre AT TIME ZONE 'UTC')::date + 1);
      UPDATE reportes_estado SET zona = p_zona;
    END IF;
    WITH tomados AS (DELETE FROM reportes_cambios RETURNING id_comanda)
    SELECT array_agg(DISTINCT id_comanda) INTO v_ids FROM tomados;
    IF v_ids IS NULL THEN
      RETURN 0;
    END IF;
    DELETE FROM reporte_ventas_metodos WHERE id_comanda IN (SELECT unnest(v_ids));
    DELETE FROM reporte_ventas_productos WHERE id_comanda IN (SELECT unnest(v_ids));
    DELETE FROM reporte_ventas WHERE id_comanda IN (SELECT unnest(v_ids));

    -- the comanda: its sale (ventas: its total, discount, net sale and whether its rate was
    -- frozen at its close, else the one in force on its local day), the theoretical cost of
    -- its live consumptions
    INSERT INTO reporte_ventas (id_comanda, fec_cierre, id_mesa, id_usuario, total, descuento,
                                neta, costo, tasa_congelada)
    SELECT v.id_comanda, v.fec_cierre, v.id_mesa, v.id_usuario, v.total, v.descuento, v.neta,
           coalesce((SELECT sum(cv.costo_teorico) FROM consumos_venta cv
                      WHERE cv.id_comanda = v.id_comanda AND NOT cv.revertido), 0),
           v.tasa_congelada
      FROM ventas(p_zona) v
     WHERE v.id_comanda = ANY (v_ids);

    -- its products: its lines' shares of the discount and net sale (ventas_lineas), their live
    -- consumptions' cost; the first product of each category in the comanda flagged. The ids
    -- as = ANY, a condition the planner takes inside ventas_lineas (a join would read every
    -- sale's lines first)
    INSERT INTO reporte_ventas_productos (id_comanda, id_producto, fec_cierre, id_categoria,
                                          primero_categoria, unidades, venta_bruta, descuento,
                                          neta, costo)
    SELECT x.id_comanda, x.id_producto, x.fec_cierre, p.id_categoria,
           row_number() OVER (PARTITION BY x.id_comanda, p.id_categoria ORDER BY x.id_producto) = 1,
           x.unidades, x.venta_bruta, x.descuento, x.neta, x.costo
      FROM (SELECT l.id_comanda, l.id_producto, l.fec_cierre, sum(l.cantidad) AS unidades,
                   sum(l.venta_bruta) AS venta_bruta, sum(l.descuento) AS descuento,
                   sum(l.neta) AS neta, sum(coalesce(cv.costo_teorico, 0)) AS costo
              FROM ventas_lineas(p_zona) l
              LEFT JOIN consumos_venta cv ON cv.id_item = l.id_item AND NOT cv.revertido
             WHERE l.id_comanda = ANY (v_ids)
             GROUP BY l.id_comanda, l.id_producto, l.fec_cierre) AS x
      LEFT JOIN productos p ON p.id_producto = x.id_producto;

    -- its payment methods: each applied payment's share is monto / what its applied payments
    -- paid in all
    INSERT INTO reporte_ventas_metodos (id_comanda, id_metodo_pago, fec_cierre, monto, propina,
                                        descuento, neta, costo)
    SELECT p.id_comanda, p.id_metodo_pago, v.fec_cierre, sum(p.monto), sum(p.propina),
           coalesce(sum(v.descuento * p.monto / nullif(p.pagado, 0)), 0),
           coalesce(sum(v.neta * p.monto / nullif(p.pagado, 0)), 0),
           coalesce(sum(v.costo * p.monto / nullif(p.pagado, 0)), 0)
      FROM (SELECT pg.id_comanda, pg.id_metodo_pago, pg.monto, pg.propina,
                   sum(pg.monto) OVER (PARTITION BY pg.id_comanda) AS pagado
              FROM pagos pg
             WHERE pg.id_comanda IN (SELECT unnest(v_ids)) AND pg.estado = 'aplicado') AS p
      JOIN reporte_ventas v ON v.id_comanda = p.id_comanda
     GROUP BY p.id_comanda, p.id_metodo_pago, v.fec_cierre;
    RETURN cardinality(v_ids);
  END;
$fn$;
