-- Writes the kitchen tickets of comanda p_comanda and answers their ids (none: nothing to
-- send). p_modo:
--   'enviar': every line of a fired course goes to its quantity now;
--   'anular_linea': line p_item goes down to p_objetivo when more than that was sent;
--   'anular_comanda': every line of the comanda goes down to 0 (the comanda is deleted).
CREATE OR REPLACE FUNCTION cocina_emitir(
  p_comanda bigint, p_usuario integer, p_modo text,
  p_item bigint DEFAULT NULL, p_objetivo numeric DEFAULT NULL
) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  v_defecto integer;
  v_ids bigint[];
BEGIN
  -- routing fallback: the first active preparation station
  SELECT id_estacion INTO v_defecto FROM estaciones_cocina
   WHERE activo AND tipo = 'preparacion' ORDER BY id_estacion LIMIT 1;

  WITH deltas AS (
    -- the difference between the quantity a line should have in the kitchen and what was sent
    SELECT d.id_deta_comanda AS id_item, d.id_producto, d.curso, p.id_categoria,
           CASE p_modo WHEN 'enviar' THEN d.cantidad
                       WHEN 'anular_linea' THEN p_objetivo
                       ELSE 0 END - coalesce(s.enviado, 0) AS delta,
           s.enviado IS NOT NULL AS ya_enviado
      FROM deta_comandas d
      JOIN productos p ON p.id_producto = d.id_producto
      LEFT JOIN LATERAL (SELECT sum(l.cantidad) AS enviado
                           FROM envio_lineas l WHERE l.id_item = d.id_deta_comanda) s ON true
     WHERE d.id_comanda = p_comanda
       AND CASE p_modo
             -- only the courses fired are sent
             WHEN 'enviar' THEN EXISTS (SELECT 1 FROM cursos_disparados c
                                         WHERE c.id_comanda = d.id_comanda AND c.curso = d.curso)
             WHEN 'anular_linea' THEN d.id_deta_comanda = p_item
             ELSE true END
  ),
  positivos AS (
    -- more to prepare: to the category's active station, else the fallback; a line never
    -- sent before is nuevo, else adicional
    SELECT dl.id_item, dl.id_producto, dl.curso,
           coalesce(e.id_estacion, v_defecto) AS id_estacion,
           CASE WHEN dl.ya_enviado THEN 'adicional' ELSE 'nuevo' END AS tipo,
           dl.delta AS cantidad
      FROM deltas dl
      LEFT JOIN estacion_categorias ec ON ec.id_categoria = dl.id_categoria
      LEFT JOIN estaciones_cocina e ON e.id_estacion = ec.id_estacion AND e.activo
     WHERE p_modo = 'enviar' AND dl.delta > 0
  ),
  por_estacion AS (
    -- what each station still has of a line to cancel (net sent there), newest ticket first
    SELECT l.id_item, t.id_estacion, sum(l.cantidad) AS neto, max(t.id_envio) AS ultimo
      FROM envio_lineas l
      JOIN envios_cocina t ON t.id_envio = l.id_envio
     WHERE l.id_item IN (SELECT id_item FROM deltas WHERE delta < 0)
     GROUP BY l.id_item, t.id_estacion
    HAVING sum(l.cantidad) > 0
  ),
  acumulado AS (
    SELECT pe.*, -dl.delta AS falta, dl.id_producto, dl.curso,
           sum(pe.neto) OVER (PARTITION BY pe.id_item ORDER BY pe.ultimo DESC) AS hasta
      FROM por_estacion pe JOIN deltas dl ON dl.id_item = pe.id_item
  ),
  negativos AS (
    -- a cancellation goes to the station(s) the line was sent to, the latest first, each
    -- taking at most what it had of the line
    SELECT id_item, id_producto, curso, id_estacion, 'anulacion' AS tipo,
           -least(neto, falta - (hasta - neto)) AS cantidad
      FROM acumulado
     WHERE falta > hasta - neto
  ),
  movimientos AS (
    SELECT * FROM positivos UNION ALL SELECT * FROM negativos
  ),
  grupos AS (
    -- one ticket per station, course and kind
    SELECT DISTINCT id_estacion, curso, tipo FROM movimientos
  ),
  envios AS (
    INSERT INTO envios_cocina (id_comanda, id_estacion, curso, tipo, id_usuario)
    SELECT p_comanda, id_estacion, curso, tipo, p_usuario
      FROM grupos ORDER BY id_estacion, curso, tipo
    RETURNING id_envio, id_estacion, curso, tipo
  ),
  lineas AS (
    INSERT INTO envio_lineas (id_envio, id_item, id_producto, cantidad)
    SELECT t.id_envio, m.id_item, m.id_producto, m.cantidad
      FROM movimientos m
      JOIN envios t ON t.id_estacion = m.id_estacion AND t.curso = m.curso AND t.tipo = m.tipo
    RETURNING id_envio
  )
  SELECT coalesce(array_agg(DISTINCT id_envio ORDER BY id_envio), '{}') INTO v_ids FROM lineas;

  -- a line sent (again) is enviado: an adicional takes a listo line back to enviado
  UPDATE deta_comandas d
     SET estado_cocina = 'enviado', fec_enviado = clock_timestamp(),
         fec_preparacion = NULL, fec_listo = NULL
   WHERE d.id_deta_comanda IN (SELECT l.id_item FROM envio_lineas l
                                WHERE l.id_envio = ANY (v_ids) AND l.cantidad > 0);
  RETURN v_ids;
END
$$;
