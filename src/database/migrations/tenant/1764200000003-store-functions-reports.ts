import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Store functions of the report RPC routes (docs/rpc.md): yearly sales (closed tickets), yearly
 * expenses (purchases) and attendance over a date range.
 *
 * The yearly reports group instants (timestamptz) by the month they fall in in the tenant's time
 * zone, which the HTTP layer passes from the tenant catalog: a ticket closed at 23:30 in Lima on
 * January 31st (04:30 UTC on February 1st) is January's. Every month is listed, zeros included.
 */
export class StoreFunctionsReports1764200000003 implements MigrationInterface {
  name = 'StoreFunctionsReports1764200000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) {
      await queryRunner.query(statement);
    }
  }
}

const REPORT_TICKETS = `
  CREATE OR REPLACE FUNCTION report_tickets(p_year integer, p_time_zone text)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  AS $fn$
    -- Yearly sales: closed, not deleted comandas (estado 'cerrada', eliminada false) counted
    -- and summed (their total) per month of fec_cierre in p_time_zone; {year, meses: [{mes
    -- 1..12, tickets, total}] (all 12 months), total_tickets, total}. Open tickets have no
    -- sale yet and deleted ones are voids: neither counts. A ticket reopened and closed again
    -- counts once, in the month of its last close.
    -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
    DECLARE
      v_desde timestamptz;
      v_hasta timestamptz;
    BEGIN
      IF p_year IS NULL OR p_time_zone IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = 'report_tickets: year y time_zone son obligatorios';
      END IF;
      v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
      v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

      RETURN (
        WITH por_mes AS (
          SELECT extract(month FROM c.fec_cierre AT TIME ZONE p_time_zone)::integer AS mes,
                 count(*)::integer AS tickets,
                 sum(c.total) AS total
            FROM comandas c
           WHERE c.estado = 'cerrada'
             AND NOT c.eliminada
             AND c.fec_cierre >= v_desde
             AND c.fec_cierre < v_hasta
           GROUP BY 1
        )
        SELECT jsonb_build_object(
                 'year', p_year,
                 'meses', (
                   SELECT jsonb_agg(jsonb_build_object(
                            'mes', m.mes,
                            'tickets', coalesce(t.tickets, 0),
                            'total', coalesce(t.total, 0.00)
                          ) ORDER BY m.mes)
                     FROM generate_series(1, 12) AS m(mes)
                     LEFT JOIN por_mes t ON t.mes = m.mes),
                 'total_tickets', coalesce((SELECT sum(t.tickets) FROM por_mes t), 0),
                 'total', coalesce((SELECT sum(t.total) FROM por_mes t), 0.00)
               )
      );
    END;
  $fn$;
  COMMENT ON FUNCTION report_tickets(integer, text) IS
    'RPC report_tickets: closed, not deleted comandas per month of fec_cierre in a time zone';
`;

const REPORT_GASTOS = `
  CREATE OR REPLACE FUNCTION report_gastos(p_year integer, p_time_zone text)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  AS $fn$
    -- Yearly expenses: purchases (compras.total) per month of fec_compra in p_time_zone and per
    -- supplier; {year, meses: [{mes, total}] (all 12 months), proveedores: [{id_proveedor,
    -- razon_social, total}] (suppliers with purchases that year, highest total first), total}.
    -- p_year and p_time_zone are required (22023); an unknown zone raises 22023 too.
    DECLARE
      v_desde timestamptz;
      v_hasta timestamptz;
    BEGIN
      IF p_year IS NULL OR p_time_zone IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = 'report_gastos: year y time_zone son obligatorios';
      END IF;
      v_desde := make_timestamptz(p_year, 1, 1, 0, 0, 0, p_time_zone);
      v_hasta := make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, p_time_zone);

      RETURN (
        WITH del_anio AS (
          SELECT c.id_proveedor,
                 extract(month FROM c.fec_compra AT TIME ZONE p_time_zone)::integer AS mes,
                 c.total
            FROM compras c
           WHERE c.fec_compra >= v_desde
             AND c.fec_compra < v_hasta
        )
        SELECT jsonb_build_object(
                 'year', p_year,
                 'meses', (
                   SELECT jsonb_agg(jsonb_build_object(
                            'mes', m.mes,
                            'total', coalesce((SELECT sum(d.total) FROM del_anio d
                                                WHERE d.mes = m.mes), 0.00)
                          ) ORDER BY m.mes)
                     FROM generate_series(1, 12) AS m(mes)),
                 'proveedores', coalesce((
                   SELECT jsonb_agg(jsonb_build_object(
                            'id_proveedor', s.id_proveedor,
                            'razon_social', p.razon_social,
                            'total', s.total
                          ) ORDER BY s.total DESC, p.razon_social, s.id_proveedor)
                     FROM (SELECT d.id_proveedor, sum(d.total) AS total
                             FROM del_anio d
                            GROUP BY d.id_proveedor) AS s
                     JOIN proveedores p ON p.id_proveedor = s.id_proveedor
                 ), '[]'::jsonb),
                 'total', coalesce((SELECT sum(d.total) FROM del_anio d), 0.00)
               )
      );
    END;
  $fn$;
  COMMENT ON FUNCTION report_gastos(integer, text) IS
    'RPC report_gastos: purchases per month of fec_compra in a time zone and per supplier';
`;

const REPORT_ASISTENCIA = `
  CREATE OR REPLACE FUNCTION report_asistencia(p_desde date, p_hasta date)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  AS $fn$
    -- Attendance per person over the work days p_desde..p_hasta (inclusive), from the daily
    -- summaries: {desde, hasta, personas: [{id_usuario, documento, nombre, apellido,
    -- dias_trabajados (work days with punches), minutos (closed intervals), dias_incompletos
    -- (days with an open interval or an unpaired out-punch)}]}, people with at least one day,
    -- ordered by apellido, nombre. desde/hasta are required (22023).
    BEGIN
      IF p_desde IS NULL OR p_hasta IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
          MESSAGE = 'desde y hasta son obligatorios (AAAA-MM-DD)';
      END IF;

      RETURN jsonb_build_object(
        'desde', p_desde,
        'hasta', p_hasta,
        'personas', coalesce((
          SELECT jsonb_agg(jsonb_build_object(
                   'id_usuario', u.id_usuario,
                   'documento', u.documento,
                   'nombre', u.nombre,
                   'apellido', u.apellido,
                   'dias_trabajados', r.dias,
                   'minutos', r.minutos,
                   'dias_incompletos', r.incompletos
                 ) ORDER BY u.apellido NULLS LAST, u.nombre, u.id_usuario)
            FROM (SELECT id_usuario,
                         count(*)::integer AS dias,
                         sum(minutos)::integer AS minutos,
                         (count(*) FILTER (WHERE incompleto))::integer AS incompletos
                    FROM asistencia_resumen_diario
                   WHERE fecha_trabajo BETWEEN p_desde AND p_hasta
                   GROUP BY id_usuario) AS r
            JOIN usuarios u ON u.id_usuario = r.id_usuario
        ), '[]'::jsonb)
      );
    END;
  $fn$;
  COMMENT ON FUNCTION report_asistencia(date, date) IS
    'RPC report_asistencia: worked days, minutes and incomplete days per person over a range of work days';
`;

const UP: readonly string[] = [REPORT_TICKETS, REPORT_GASTOS, REPORT_ASISTENCIA];

/** Exact reverse of UP. */
const DOWN: readonly string[] = [
  'DROP FUNCTION report_asistencia(date, date)',
  'DROP FUNCTION report_gastos(integer, text)',
  'DROP FUNCTION report_tickets(integer, text)',
];
