import { SIN_SALIDA, STAFF } from '../restaurant';
import { type DemoDataSummary, type DemoSeed, clock, json } from '../seed-helpers';

interface MarcaRow {
  id_raw: number;
  id_usuario: number;
  dia: number;
  hora: string;
  modo: 'entrada' | 'salida';
  datos: Record<string, string>;
}

interface IntervaloRow {
  id_intervalo: number;
  id_usuario: number;
  dia: number;
  id_raw_entrada: number;
  id_raw_salida: number | null;
}

/**
 * A month of staff attendance: the clock's punches, their pairing into intervals and the
 * daily summaries the pairing would write.
 */
export async function seedAttendance(
  seed: DemoSeed,
): Promise<
  Pick<DemoDataSummary, 'asistencia_detalle' | 'asistencia_intervalo' | 'asistencia_resumen_diario'>
> {
  const { query, rng, today, timeZone, todayUtc } = seed;
  /** Weekday (0 = Sunday) of the day `dia` days before today. */
  const weekday = (dia: number): number => new Date(todayUtc - dia * 86_400_000).getUTCDay();

  // The 30 days before today. Punches are the clock's local wall-clock date and time. A late
  // shift's out-punch (about 01:30) lands on the next calendar day but belongs to the work day
  // of its in-punch (day cut-off 05:00). Shifts whose out-punch would fall on today are not
  // worked, except the missing out-punch cases of SIN_SALIDA.
  const marcas: MarcaRow[] = [];
  const intervalos: IntervaloRow[] = [];
  let diasTrabajados = 0;
  const marca = (idUsuario: number, diaTrabajo: number, seg: number, modo: MarcaRow['modo']) => {
    const row: MarcaRow = {
      id_raw: marcas.length + 1,
      id_usuario: idUsuario,
      dia: diaTrabajo - Math.floor(seg / 86_400),
      hora: clock(seg % 86_400),
      modo,
      datos: { device_id: 'DEMO-ZK01', verify_mode: rng.chance(0.9) ? 'fingerprint' : 'pin' },
    };
    marcas.push(row);
    return row.id_raw;
  };
  for (let dia = 30; dia >= 1; dia--) {
    for (const [i, staff] of STAFF.entries()) {
      const idUsuario = i + 1;
      const sinSalida = SIN_SALIDA.some(([u, d]) => u === idUsuario && d === dia);
      const libre = weekday(dia) === staff.descanso || rng.chance(0.07);
      const cruzaHoy = dia === 1 && staff.turno.some(([, fin]) => fin > 1440);
      if (!sinSalida && (libre || cruzaHoy)) continue;
      diasTrabajados++;
      for (const [n, [inicio, fin]] of staff.turno.entries()) {
        const segEntrada = inicio * 60 + rng.int(-12, 8) * 60 + rng.int(0, 59);
        const segSalida = fin * 60 + rng.int(-5, 15) * 60 + rng.int(0, 59);
        const idEntrada = marca(idUsuario, dia, segEntrada, 'entrada');
        const ultimo = n === staff.turno.length - 1;
        const idSalida = sinSalida && ultimo ? null : marca(idUsuario, dia, segSalida, 'salida');
        intervalos.push({
          id_intervalo: intervalos.length + 1,
          id_usuario: idUsuario,
          dia,
          id_raw_entrada: idEntrada,
          id_raw_salida: idSalida,
        });
      }
    }
  }

  await query(
    `INSERT INTO asistencia_detalle (id_raw, id_usuario, fecha, hora, modo, origen, datos,
                                     created_at)
     SELECT r.id_raw, r.id_usuario, $2::date - r.dia, r.hora::time, r.modo, 'demo', r.datos,
            (($2::date - r.dia) + r.hora::time) AT TIME ZONE $3
       FROM jsonb_to_recordset($1::jsonb) AS r(id_raw bigint, id_usuario integer, dia integer,
            hora text, modo text, datos jsonb)`,
    [json(marcas), today, timeZone],
  );
  await query(
    `INSERT INTO asistencia_intervalo (id_intervalo, id_usuario, fecha_trabajo, entrada, salida,
                                       id_raw_entrada, id_raw_salida)
     SELECT r.id_intervalo, r.id_usuario, $2::date - r.dia, e.fecha + e.hora, s.fecha + s.hora,
            r.id_raw_entrada, r.id_raw_salida
       FROM jsonb_to_recordset($1::jsonb) AS r(id_intervalo bigint, id_usuario integer,
            dia integer, id_raw_entrada bigint, id_raw_salida bigint)
       JOIN asistencia_detalle e ON e.id_raw = r.id_raw_entrada
       LEFT JOIN asistencia_detalle s ON s.id_raw = r.id_raw_salida`,
    [json(intervalos), today],
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

  return {
    asistencia_detalle: marcas.length,
    asistencia_intervalo: intervalos.length,
    asistencia_resumen_diario: diasTrabajados,
  };
}
