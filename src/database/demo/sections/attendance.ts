import { ADMIN, SIN_SALIDA } from '../restaurant';
import { rowsOf, type DemoDataSummary, type DemoSeed } from '../seed-helpers';

/**
 * A year of staff attendance that matches the comandas: everyone on duty on a day (the rota of
 * the comandas section: rest days, a few days off) punches in and out of each of their shifts
 * on the clock, a few minutes early or late; whoever served or closed a ticket that day was at
 * work (a waiter called in on a rest day, the admin staying for the dinner closes when the
 * night cashier rests, with an evening shift until a quarter of an hour after the last close).
 * A late shift's out-punch (about 01:30) lands on the next calendar day but belongs to the
 * work day of its in-punch. Shifts whose out-punch would fall on today are not worked, except
 * the missing out-punches of SIN_SALIDA (an open interval, the day incompleto).
 *
 * Set-based SQL over the comandas section's temporary tables (`demo_turno`, `demo_ticket`,
 * `demo_staff`: it runs in the same transaction, after it), with the same dice
 * (`pg_temp.demo_u`). Then the pairing's rows: intervals, and the daily summaries the pairing
 * would write.
 */
export async function seedAttendance(
  seed: DemoSeed,
): Promise<
  Pick<DemoDataSummary, 'asistencia_detalle' | 'asistencia_intervalo' | 'asistencia_resumen_diario'>
> {
  const { query, timeZone } = seed;
  await query(
    `CREATE TEMP TABLE demo_marca ON COMMIT DROP AS
     WITH jornada AS (
       SELECT d, id_usuario FROM demo_turno
       UNION
       SELECT d, id_usuario FROM demo_ticket
       UNION
       SELECT d, cajero FROM demo_ticket WHERE tipo IN ('cerrada', 'anulada_cerrada')),
     sin_salida AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS s(id_usuario integer, d integer)),
     tramos AS (
       SELECT j.d, j.id_usuario, t.n::integer AS n, t.inicio, t.fin,
              t.n = cardinality(s.inicio) AS ultimo, max(t.fin) OVER (PARTITION BY j.d, j.id_usuario) AS hasta
         FROM jornada j
         JOIN demo_staff s ON s.id_usuario = j.id_usuario
        CROSS JOIN LATERAL unnest(s.inicio, s.fin) WITH ORDINALITY AS t(inicio, fin, n)
       UNION ALL
       -- the admin's evening when she closed the dinner tickets
       SELECT t.d, ${ADMIN}, 9, 19 * 60, max(t.seg_cierre) / 60 + 15, true, max(t.seg_cierre) / 60 + 15
         FROM demo_ticket t
        WHERE t.cena AND t.cajero = ${ADMIN} AND t.tipo IN ('cerrada', 'anulada_cerrada')
        GROUP BY t.d),
     turnos AS (
       SELECT t.*, (t.ultimo AND x.id_usuario IS NOT NULL) AS sin_salida
         FROM tramos t
         LEFT JOIN sin_salida x ON x.id_usuario = t.id_usuario AND x.d = t.d
        WHERE NOT (t.d = 1 AND t.hasta > 1440 AND x.id_usuario IS NULL)),
     marcas AS (
       SELECT d, id_usuario, n, 'entrada' AS modo,
              inicio * 60 + (floor(pg_temp.demo_u(d * 1000 + id_usuario * 10 + n, 60) * 21)::integer - 12) * 60
                + floor(pg_temp.demo_u(d * 1000 + id_usuario * 10 + n, 61) * 60)::integer AS seg
         FROM turnos
       UNION ALL
       SELECT d, id_usuario, n, 'salida',
              fin * 60 + (floor(pg_temp.demo_u(d * 1000 + id_usuario * 10 + n, 62) * 21)::integer - 5) * 60
                + floor(pg_temp.demo_u(d * 1000 + id_usuario * 10 + n, 63) * 60)::integer
         FROM turnos
        WHERE NOT sin_salida)
     SELECT row_number() OVER (ORDER BY m.d DESC, m.id_usuario, m.n, m.modo) AS id_raw, m.*,
            p.hoy - m.d AS fecha_trabajo,
            p.hoy - m.d + m.seg / 86400 AS fecha,
            make_time(m.seg % 86400 / 3600, m.seg % 3600 / 60, m.seg % 60) AS hora,
            CASE WHEN pg_temp.demo_u(m.d * 1000 + m.id_usuario * 10 + m.n, 64) < 0.9
                 THEN 'fingerprint' ELSE 'pin' END AS verificacion
       FROM marcas m CROSS JOIN demo_param p`,
    [JSON.stringify(SIN_SALIDA.map(([idUsuario, d]) => ({ id_usuario: idUsuario, d })))],
  );
  await query('ANALYZE demo_marca');
  await query(
    `INSERT INTO asistencia_detalle (id_raw, id_usuario, fecha, hora, modo, origen, datos, created_at)
     SELECT id_raw, id_usuario, fecha, hora, modo, 'demo',
            jsonb_build_object('device_id', 'DEMO-ZK01', 'verify_mode', verificacion),
            (fecha + hora) AT TIME ZONE $1
       FROM demo_marca
      ORDER BY id_raw`,
    [timeZone],
  );
  await query(
    `INSERT INTO asistencia_intervalo (id_intervalo, id_usuario, fecha_trabajo, entrada, salida,
                                       id_raw_entrada, id_raw_salida)
     SELECT row_number() OVER (ORDER BY e.id_raw), e.id_usuario, e.fecha_trabajo,
            e.fecha + e.hora, s.fecha + s.hora, e.id_raw, s.id_raw
       FROM demo_marca e
       LEFT JOIN demo_marca s ON s.d = e.d AND s.id_usuario = e.id_usuario AND s.n = e.n
                             AND s.modo = 'salida'
      WHERE e.modo = 'entrada'
      ORDER BY e.id_raw`,
  );
  // Daily summary = what the pairing would write: closed minutes, intervals, punches, open flag.
  await query(
    `INSERT INTO asistencia_resumen_diario (id_usuario, fecha_trabajo, minutos, intervalos,
                                            marcas, incompleto, updated_at)
     SELECT id_usuario, fecha_trabajo, coalesce(sum(minutos), 0)::integer, count(*)::integer,
            (count(id_raw_entrada) + count(id_raw_salida))::integer, bool_or(salida IS NULL),
            max(coalesce(salida, entrada)) AT TIME ZONE $1
       FROM asistencia_intervalo
      GROUP BY id_usuario, fecha_trabajo`,
    [timeZone],
  );
  const [counts] = rowsOf<Record<'marcas' | 'intervalos' | 'dias', number>>(
    await query(
      `SELECT (SELECT count(*)::int FROM asistencia_detalle) AS marcas,
              (SELECT count(*)::int FROM asistencia_intervalo) AS intervalos,
              (SELECT count(*)::int FROM asistencia_resumen_diario) AS dias`,
    ),
  );
  return {
    asistencia_detalle: counts.marcas,
    asistencia_intervalo: counts.intervalos,
    asistencia_resumen_diario: counts.dias,
  };
}
